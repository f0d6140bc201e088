/**
 * merge never harms its inputs or leaves a half-written output (issue 25, items 5 and 8): an --out that is, lies
 * inside or holds a shard folder is refused before anything is touched (`merge s0 s1 s2 --out s1 --overwrite` used
 * to delete shard s1, then fail); each shard's results.jsonl and summary.json are checked against the digests its
 * run.json got when it finished (a hand-edited result line is refused, naming the shard and file); and a merge
 * refused for any reason (data changed, an example missing) leaves an existing --out as it was, with no temporary
 * folder beside it.
 */
import { appendFileSync, cpSync, existsSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { outputDigests } from '../../src/runner/digest.ts';
import { DEMO_SST2, SST2_DEV, runCli, tmp, writeSst2Suite } from '../cli/helpers.ts';

/** Every file under `dir`, path → bytes (latin1): a folder's whole state, to compare before and after. */
function snapshot(dir: string, root = dir): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) Object.assign(out, snapshot(p, root));
    else out[relative(root, p)] = readFileSync(p).toString('latin1');
  }
  return out;
}

/** What a shard that wrote these files itself would hold: run.json's digests made to match them. */
function reseal(dir: string): void {
  const state = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')) as Record<string, unknown>;
  writeFileSync(join(dir, 'run.json'), JSON.stringify({ ...state, digests: outputDigests(dir, ['results.jsonl', 'summary.json']) }));
}

const leftovers = (parent: string): string[] => readdirSync(parent).filter((n) => n.includes('.merging-'));

let base: string;
let data: string;
let shards: string[];

beforeAll(async () => {
  base = tmp('merge-safety');
  data = join(base, 'dev.tsv');
  writeFileSync(data, readFileSync(SST2_DEV, 'utf8').split('\n').slice(0, 13).join('\n') + '\n');
  shards = [0, 1, 2].map((i) => join(base, `s${i}`));
  for (const [i, out] of shards.entries()) {
    const r = await runCli([
      'attack',
      'typos',
      '--model',
      DEMO_SST2,
      '--data',
      data,
      '--k',
      '1',
      '--out',
      out,
      '--shard',
      `${i}/3`,
      '--no-progress',
    ]);
    expect(r.code, r.stderr).toBe(0);
  }
}, 120_000);

describe('merge: the output folder is none of the shards', () => {
  it('merge s0 s1 s2 --out s1 --overwrite is refused and s1 is untouched; so are an --out inside s1, holding it, or a link to it', async () => {
    const [s0, s1, s2] = shards as [string, string, string];
    const before = snapshot(s1);
    const r = await runCli(['merge', s0, s1, s2, '--out', s1, '--overwrite']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(`--out ${s1} is the shard folder ${s1}: merging there would overwrite that shard.`);
    expect(snapshot(s1)).toEqual(before);

    const inner = join(s1, 'merged');
    const r2 = await runCli(['merge', s0, s1, s2, '--out', inner, '--overwrite']);
    expect(r2.stderr).toContain(`--out ${inner} lies inside the shard folder ${s1}`);
    expect(existsSync(inner)).toBe(false);

    const r3 = await runCli(['merge', s0, s1, s2, '--out', base, '--overwrite']);
    expect(r3.stderr).toContain(`--out ${base} holds the shard folder ${s0}`);

    const link = join(tmp('merge-link'), 'to-s1');
    symlinkSync(s1, link);
    const r4 = await runCli(['merge', s0, s1, s2, '--out', link, '--overwrite']);
    expect(r4.stderr).toContain(`--out ${link} is the shard folder ${s1}`);
    expect(snapshot(s1)).toEqual(before);
    expect(leftovers(base)).toEqual([]);
  });
});

describe('merge: each shard verified, nothing written unless all is well', () => {
  it('a hand-edited result line is refused naming the shard and file; a shard that lost a line leaves --out as it was', async () => {
    const copies = shards.map((s, i) => {
      const c = join(base, `copy${i}`);
      cpSync(s, c, { recursive: true });
      return c;
    });
    const merged = join(base, 'merged');
    const ok = await runCli(['merge', ...copies, '--out', merged]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(leftovers(base)).toEqual([]);
    const good = snapshot(merged);
    expect(Object.keys(good)).toEqual(['results.jsonl', 'run.json', 'summary.json']);

    // One result line of shard 2 changed by hand: whether the perturbed text fooled the model, flipped.
    const results = join(copies[2]!, 'results.jsonl');
    const original = readFileSync(results, 'utf8');
    const edited = original.replace(
      /"perturbed_correct":(true|false)/,
      (_m, v: string) => `"perturbed_correct":${v === 'true' ? 'false' : 'true'}`,
    );
    expect(edited).not.toBe(original);
    writeFileSync(results, edited);
    const r = await runCli(['merge', ...copies, '--out', merged, '--overwrite']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(`shard 2/3 in ${copies[2]}: ${results} was changed after the run finished`);
    expect(snapshot(merged)).toEqual(good);

    // A shard whose results.jsonl lacks a line it counted (its digest matching): found before --out is touched.
    writeFileSync(results, original.split('\n').slice(1).join('\n'));
    reseal(copies[2]!);
    const r2 = await runCli(['merge', ...copies, '--out', merged, '--overwrite']);
    expect(r2.code).not.toBe(0);
    expect(r2.stderr).toMatch(/is missing from shard 2\/3/);
    expect(snapshot(merged)).toEqual(good);
    expect(leftovers(base)).toEqual([]);
  });

  it('merge after the data changed is refused and leaves the previous --out whole', async () => {
    const merged = join(base, 'merged-data');
    const ok = await runCli(['merge', ...shards, '--out', merged]);
    expect(ok.code, ok.stderr).toBe(0);
    const good = snapshot(merged);
    const text = readFileSync(data, 'utf8');
    appendFileSync(data, 'a new row added after the shards ran . \t1\n');
    try {
      const r = await runCli(['merge', ...shards, '--out', merged, '--overwrite']);
      expect(r.code).not.toBe(0);
      expect(r.stderr).toContain(`the data file ${data} changed since the shards ran`);
      expect(snapshot(merged)).toEqual(good);
      expect(leftovers(base)).toEqual([]);
    } finally {
      writeFileSync(data, text);
    }
  });

  it('a suite: a hand-edited result in its last test refuses the whole merge before its first test is written', async () => {
    const dir = tmp('merge-safety-suite');
    const file = writeSst2Suite(
      dir,
      [
        '{ name: noise, recipe: noise, thresholds: ["attacked_accuracy >= 0"] }',
        '{ name: typos-k1, recipe: typos, settings: { k: 1 }, thresholds: ["attack_success_rate <= 1"] }',
      ],
      10,
    );
    const parts = [join(dir, 's0'), join(dir, 's1')];
    for (const [i, p] of parts.entries()) {
      const r = await runCli(['run', file, '--out', p, '--shard', `${i}/2`, '--no-progress']);
      expect(r.code, r.stderr).toBe(0);
    }
    const before = snapshot(parts[1]!);
    const into = await runCli(['merge', ...parts, '--out', parts[1]!, '--overwrite']);
    expect(into.stderr).toContain(`--out ${parts[1]} is the shard folder ${parts[1]}`);
    expect(snapshot(parts[1]!)).toEqual(before);

    const results = join(parts[1]!, 'typos-k1', 'results.jsonl');
    writeFileSync(
      results,
      readFileSync(results, 'utf8').replace(/"perturbed_correct":(true|false)/, (_m, v: string) => `"perturbed_correct":${v !== 'true'}`),
    );
    const merged = join(dir, 'merged');
    const r = await runCli(['merge', ...parts, '--out', merged]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(`shard 1/2 in ${join(parts[1]!, 'typos-k1')}: ${results} was changed after the run finished`);
    expect(existsSync(join(merged, 'noise'))).toBe(false);
    expect(leftovers(dir)).toEqual([]);
  });
});
