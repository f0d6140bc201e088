/**
 * Issue 35 item 7: `view` followed a summary.json that is a symbolic link out of its folder and showed the linked
 * file's first bytes in its error. Real files and links in a temporary folder; the catalog is what the server lists
 * and the only way a page reaches a run (an id is looked up in a fresh scan).
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadGroups } from '../../src/report/html/load.ts';
import { scanRuns } from '../../src/report/view/catalog.ts';
import { readResults } from '../../src/runner/checkpoint.ts';
import { tmp } from '../cli/helpers.ts';

const SECRET = 'root:x:0:0:very-secret-bytes';
const SUMMARY = JSON.stringify({ recipe: 'typos', kind: 'attack', model: 'm', n: 1, attack_success_rate: 0 });

describe('view does not follow file links out of its folder (issue 35 item 7)', () => {
  it('a summary.json or results.jsonl linked out of DIR is a problem naming the link, never read or shown; links inside are fine', () => {
    const outside = tmp('view-links-outside');
    mkdirSync(outside, { recursive: true });
    writeFileSync(join(outside, 'passwd'), SECRET);
    writeFileSync(join(outside, 'summary.json'), SUMMARY);
    const root = tmp('view-links');
    for (const d of ['a', 'b', 'c', 'd']) mkdirSync(join(root, d), { recursive: true });
    symlinkSync(join(outside, 'passwd'), join(root, 'a', 'summary.json'));
    writeFileSync(join(root, 'b', 'summary.json'), SUMMARY);
    symlinkSync(join(outside, 'passwd'), join(root, 'b', 'results.jsonl'));
    // A sound summary, linked from outside: still outside.
    symlinkSync(join(outside, 'summary.json'), join(root, 'c', 'summary.json'));
    // A link that stays inside the folder is followed.
    writeFileSync(join(root, 'real-summary.json'), SUMMARY);
    symlinkSync(join(root, 'real-summary.json'), join(root, 'd', 'summary.json'));
    const { runs, problems } = scanRuns([root]);
    expect(runs.map((r) => r.path)).toEqual(['d']);
    expect(problems.map((p) => [p.path, p.reason])).toEqual([
      ['a', `summary.json: a symbolic link out of ${root}, not followed`],
      ['b', `results.jsonl: a symbolic link out of ${root}, not followed`],
      ['c', `summary.json: a symbolic link out of ${root}, not followed`],
    ]);
    expect(JSON.stringify(problems)).not.toContain('secret');
  });

  it('a summary.json that is not JSON is named, without its bytes', () => {
    const root = tmp('view-notjson');
    mkdirSync(join(root, 'r'), { recursive: true });
    writeFileSync(join(root, 'r', 'summary.json'), SECRET);
    const { problems } = scanRuns([root]);
    expect(problems).toEqual([{ root, path: 'r', reason: 'summary.json is not JSON' }]);
  });
});

describe('one huge result line (issue 35)', () => {
  it('a 20 MiB line is not read into memory: the report says which line and how long, in a clear error', async () => {
    const root = tmp('view-huge-line');
    const dir = join(root, 'run');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'summary.json'),
      JSON.stringify({ recipe: 'typos', kind: 'attack', model: 'm', n: 2, succeeded: 0, attack_success_rate: 0 }),
    );
    const huge = JSON.stringify({ id: 'big', text: 'x'.repeat(20 * 2 ** 20) });
    writeFileSync(join(dir, 'results.jsonl'), `${huge}\n{"id":"small"}\n`);
    const lines: string[] = [];
    const read = async (): Promise<void> => {
      for await (const r of readResults<{ id: string }>(join(dir, 'results.jsonl'))) lines.push(r.id);
    };
    await expect(read()).rejects.toThrow(/line 1 is 20 MiB long, over the 16 MiB read of one result; it is not read/);
    // Below the cap, lines read as before; the cap is the caller's to set.
    for await (const r of readResults<{ id: string }>(join(dir, 'results.jsonl'), 21 * 2 ** 20)) lines.push(r.id);
    expect(lines).toEqual(['big', 'small']);
    await expect(loadGroups([dir], { sampleSize: 10 })).rejects.toThrow(/line 1 is 20 MiB long/);
  });
});
