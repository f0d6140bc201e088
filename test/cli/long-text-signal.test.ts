/**
 * SIGTERM during QA noise on long contexts (issue 25, item 6): the rewriting was quadratic and ran without giving
 * the event loop a turn (11 s per noise test on a 60.8k-character context, SIGTERM waiting for all of it). Now a
 * real `stress qa` process stops within seconds of the signal. A real process: signals are what is tested.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, startCliProcess, tmp } from './helpers.ts';

const TINY_QA = join(ROOT, 'test', 'fixtures', 'models', 'tiny-bert-qa');

/** A SQuAD file of three questions on one context of `size` characters. */
function longSquad(dir: string, size: number): string {
  const p =
    "The Normans gave their name to Normandy, a region in France. Their leader Rollo swore fealty to King Charles III; they'd " +
    'adopted the Gallo-Romance language. ';
  const context = p.repeat(Math.ceil(size / p.length)).slice(0, size);
  const start = context.indexOf('Rollo', size / 2);
  const qas = [0, 1, 2].map((i) => ({ id: `long-${i}`, question: 'Who swore fealty?', answers: [{ text: 'Rollo', answer_start: start }] }));
  const file = join(dir, 'long.json');
  writeFileSync(file, JSON.stringify({ version: '1.1', data: [{ title: 'Long', paragraphs: [{ context, qas }] }] }));
  return file;
}

describe('a long text being perturbed', () => {
  it('stress qa on a 60.8k-character context stops within seconds of SIGTERM (exit 143)', async () => {
    const dir = tmp('long-text');
    const out = join(dir, 'out');
    const tests = ['swap', 'keyboard', 'natural', 'middle-random', 'fully-random'].map((t) => `noise-${t}`).join(',');
    const child = startCliProcess([
      'stress',
      'qa',
      '--model',
      TINY_QA,
      '--data',
      longSquad(dir, 60_800),
      '--max-chars',
      '60800',
      '--tests',
      tests,
      '--out',
      out,
      '--no-progress',
    ]);
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    // The run has begun (its folder is locked and run.json written): the noise tests come next.
    const begun = Date.now();
    while (!existsSync(join(out, 'run.json')) && Date.now() - begun < 20_000) await new Promise((r) => setTimeout(r, 50));
    expect(existsSync(join(out, 'run.json'))).toBe(true);
    await new Promise((r) => setTimeout(r, 300));
    const signalled = Date.now();
    child.kill('SIGTERM');
    const code = await exited;
    expect(code).toBe(143);
    expect(Date.now() - signalled).toBeLessThan(5_000);
  }, 60_000);
});
