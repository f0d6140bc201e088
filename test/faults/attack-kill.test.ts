/** kill -9 of a running attack and --resume, with a real process (npm run test:faults). */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readJson, readJsonl, runCli, stable, startCliProcess, tmp, typosOnSst2 } from '../cli/helpers.ts';

describe('textstress attack typos on demo-sst2 over SST-2 dev, killed', () => {
  it('resumes after kill -9: every example exactly once, same summary as an uninterrupted run', async () => {
    const args = (out: string, extra: string[] = []): string[] =>
      typosOnSst2('--k', '3', '--limit', '80', '--concurrency', '8', '--out', out, '--no-progress', ...extra);
    const full = tmp('full');
    const killed = tmp('killed');
    // A process: only a process can be killed with -9 mid-run (the resume and the uninterrupted run need none).
    const child = startCliProcess(args(killed));
    const results = join(killed, 'results.jsonl');
    await new Promise<void>((resolve, reject) => {
      const timer = setInterval(() => {
        const lines = existsSync(results) ? readFileSync(results, 'utf8').split('\n').length - 1 : 0;
        if (lines >= 20) {
          clearInterval(timer);
          child.kill('SIGKILL');
          resolve();
        }
      }, 20);
      child.on('exit', (code) => {
        clearInterval(timer);
        if (code === 0) reject(new Error('the run finished before it could be killed'));
      });
    });
    await new Promise((r) => child.once('close', r));
    expect(existsSync(join(killed, 'summary.json'))).toBe(false);
    const partial = readFileSync(results, 'utf8').split('\n').length - 1;
    expect(partial).toBeLessThan(80);

    const again = await runCli(args(killed));
    expect(again.code).not.toBe(0);
    expect(again.stderr).toMatch(/--resume/);

    const [resumed, uninterrupted] = await Promise.all([runCli(args(killed, ['--resume'])), runCli(args(full))]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(uninterrupted.code, uninterrupted.stderr).toBe(0);
    const ids = readJsonl(results).map((x) => x.id);
    expect(ids).toHaveLength(80);
    expect(new Set(ids).size).toBe(80);
    expect(stable(readJson(join(killed, 'summary.json')))).toEqual(stable(readJson(join(full, 'summary.json'))));
  });
});
