/**
 * Issue 35 item 4: the entity probe ignored SIGTERM for 73 s on a 600,000-character text (`--max-chars 700000`):
 * 55 s in entities/annotate.ts and 17 s in entities/replace.ts without a turn of the event loop (the annotator was
 * quadratic in text length). A real probe process on a real 600,000-character row; SIGTERM once it is at work.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_SST2, startCliProcess, tmp } from '../cli/helpers.ts';

const SENTENCES = [
  'John Smith met Mary Jones in Paris before flying to Germany with Acme Corp staff .',
  'the film , directed by Steven Spielberg , is a warm and moving story about Tom Hanks in New York .',
  'Smith said that the French team from Lyon beat the Italian side , and Mary agreed .',
  'an uneven but often funny comedy that never quite finds its feet .',
];

describe('the entity probe stops on SIGTERM within seconds on a 600,000-character text (issue 35 item 4)', () => {
  it('SIGTERM at work: the process exits within 3 s', async () => {
    const dir = tmp('entity-sigterm');
    let text = '';
    for (let i = 0; text.length < 600_000; i++) text += `${SENTENCES[i % SENTENCES.length]} `;
    const data = join(dir, 'long.tsv');
    writeFileSync(data, `sentence\tlabel\n${text.slice(0, 600_000)}\t1\n`);
    const args = ['probe', 'entities', '--model', DEMO_SST2, '--data', data, '--max-chars', '700000', '--type', 'PER'];
    const child = startCliProcess([...args, '--budget', '50', '--out', join(dir, 'out'), '--no-progress']);
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number>((resolve) => child.once('exit', () => resolve(performance.now())));
    // Started, the model loaded and the example being annotated and rewritten (the whole probe takes minutes).
    await new Promise((r) => setTimeout(r, 8000));
    expect(child.exitCode, stderr).toBe(null);
    const sent = performance.now();
    child.kill('SIGTERM');
    const stoppedAfter = (await exited) - sent;
    if (process.env.TEXTSTRESS_FIGURES) console.log(`entity probe stopped ${Math.round(stoppedAfter)} ms after SIGTERM`);
    // Was: 73 s.
    expect(stoppedAfter).toBeLessThan(3000);
  }, 60_000);
});
