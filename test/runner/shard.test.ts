/**
 * Static sharding: --shard I/N runs the examples whose id hashes to I, and merge joins the N folders into exactly
 * what one process writes (results.jsonl byte for byte, summary.json but for timing and traffic, probe sets too),
 * refusing shards of different runs and naming a missing or duplicated example.
 */
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BUILTIN_RECIPES } from '../../src/families/index.ts';
import { createRegistry } from '../../src/recipes/registry/registry.ts';
import { mergeShards } from '../../src/kinds/merge.ts';
import { runRecipe, type RunRequest } from '../../src/kinds/run.ts';
import { shardOf } from '../../src/runner/shard.ts';
import { outputDigests } from '../../src/runner/digest.ts';
import { parseShard } from '../../src/options/shard.ts';
import { openModel } from '../../src/runner/open.ts';
import { QueryEngine } from '../../src/query/engine.ts';
import type { ModelAdapter } from '../../src/models/types.ts';
import { CONLL, DEMO_NER, DEMO_SST2, ROOT, SST2_DEV, fixtureData, runCli, tmp, writeSst2Suite, typosOnSst2 } from '../cli/helpers.ts';

const registry = createRegistry(BUILTIN_RECIPES);
const read = (p: string): string => readFileSync(p, 'utf8');
/** run.json's content digests made to match the folder's files again. */
const reseal = (dir: string): void => {
  const state = JSON.parse(read(join(dir, 'run.json'))) as Record<string, unknown>;
  writeFileSync(join(dir, 'run.json'), JSON.stringify({ ...state, digests: outputDigests(dir, ['results.jsonl', 'summary.json']) }));
};
const summaryWithoutTiming = (dir: string): unknown => {
  const { wall_seconds: _w, process: _p, ...rest } = JSON.parse(read(join(dir, 'summary.json'))) as Record<string, unknown>;
  return rest;
};

// Each model is opened once for the file; every run gets a fresh query engine (its own cache and counts).
const models = new Map<string, Promise<ModelAdapter>>();
const shared = async (model: string): Promise<{ model: ModelAdapter; engine: QueryEngine }> => {
  if (!models.has(model)) models.set(model, openModel({ model }));
  const open = await models.get(model)!;
  return { model: open, engine: new QueryEngine(open) };
};
afterAll(async () => {
  for (const m of models.values()) await (await m).close?.();
});

/** The run whole, in N shards, and the shards merged (given in reverse order). */
async function shardedAndWhole(
  req: Omit<RunRequest, 'registry' | 'out'>,
  n: number,
): Promise<{ whole: string; shards: string[]; merged: string }> {
  const whole = tmp('shard-whole');
  await runRecipe({ ...req, registry, out: whole, shared: await shared(req.model) });
  const shards: string[] = [];
  for (let i = 0; i < n; i++) {
    const out = tmp(`shard-${i}`);
    await runRecipe({ ...req, registry, out, shard: { index: i, count: n }, shared: await shared(req.model) });
    shards.push(out);
  }
  const merged = tmp('shard-merged');
  await mergeShards([...shards].reverse(), { registry, out: merged, overwrite: true });
  return { whole, shards, merged };
}

describe('--shard I/N and merge', () => {
  it('assigns each id to one shard by a stable hash and parses I/N', () => {
    expect(shardOf('dev.tsv:17', 3)).toBe(shardOf('dev.tsv:17', 3));
    const counts = [0, 0, 0];
    for (let i = 0; i < 3000; i++) counts[shardOf(`id-${i}`, 3)]!++;
    for (const c of counts) expect(c).toBeGreaterThan(900);
    expect(parseShard('2/3')).toEqual({ index: 2, count: 3 });
    for (const bad of ['3/3', '1', '-1/3', 'a/b', '0/0']) expect(() => parseShard(bad)).toThrow(/I\/N/);
  });

  it('typos in 3 shards + merge = the unsharded run: results.jsonl byte for byte, summary.json but timing', async () => {
    const { whole, shards, merged } = await shardedAndWhole(
      { recipe: 'typos', settings: { k: 2 }, model: DEMO_SST2, data: SST2_DEV, limit: 30, seed: 4 },
      3,
    );
    expect(read(join(merged, 'results.jsonl'))).toBe(read(join(whole, 'results.jsonl')));
    expect(summaryWithoutTiming(merged)).toEqual(summaryWithoutTiming(whole));
    const ns = shards.map((d) => (JSON.parse(read(join(d, 'summary.json'))) as { n: number; shard: { index: number } }).n);
    expect(ns.reduce((a, b) => a + b, 0)).toBe(30);
    expect((JSON.parse(read(join(shards[1]!, 'summary.json'))) as { shard: unknown }).shard).toEqual({ index: 1, count: 3 });
  });

  it('an entity probe (D_worst / D_best written) and an NLI stress suite merge to the unsharded outputs too', async () => {
    const probe = await shardedAndWhole(
      { recipe: 'entities', settings: { type: 'PER', budget: 5 }, model: DEMO_NER, data: CONLL, seed: 2 },
      2,
    );
    expect(read(join(probe.merged, 'results.jsonl'))).toBe(read(join(probe.whole, 'results.jsonl')));
    expect(summaryWithoutTiming(probe.merged)).toEqual(summaryWithoutTiming(probe.whole));
    for (const f of ['d_worst.conll', 'd_best.conll']) expect(read(join(probe.merged, f))).toBe(read(join(probe.whole, f)));
    const nli = await shardedAndWhole(
      {
        recipe: 'stress-nli',
        settings: {},
        model: join(ROOT, 'models', 'demo-sick'),
        data: fixtureData('sick/SICK.txt'),
        split: 'TEST',
        limit: 20,
        seed: 1,
      },
      2,
    );
    expect(read(join(nli.merged, 'results.jsonl'))).toBe(read(join(nli.whole, 'results.jsonl')));
    expect(summaryWithoutTiming(nli.merged)).toEqual(summaryWithoutTiming(nli.whole));
  });

  it('refuses shards of different runs, a missing or repeated shard, and names a missing or duplicated example', async () => {
    const req = { recipe: 'typos', settings: { k: 1 }, model: DEMO_SST2, data: SST2_DEV, limit: 12, seed: 0 };
    const dirs: string[] = [];
    for (let i = 0; i < 2; i++) {
      const out = tmp(`shard-ref-${i}`);
      await runRecipe({ ...req, registry, out, shard: { index: i, count: 2 }, shared: await shared(req.model) });
      dirs.push(out);
    }
    const other = tmp('shard-other');
    await runRecipe({ ...req, settings: { k: 2 }, registry, out: other, shard: { index: 1, count: 2 }, shared: await shared(req.model) });
    const out = () => ({ registry, out: tmp('shard-bad'), overwrite: true });
    await expect(mergeShards([dirs[0]!, other], out())).rejects.toThrow(/not shards of the same run: recipe or data options/);
    await expect(mergeShards([dirs[0]!], out())).rejects.toThrow(/shard 1\/2 is missing/);
    await expect(mergeShards([dirs[0]!, dirs[0]!, dirs[1]!], out())).rejects.toThrow(/shard 0\/2 is given twice/);

    // A results.jsonl changed after the shard finished is refused by its digest; with run.json's digest made to
    // match (a shard that lost or repeated a line itself), the example is named.
    const lines = read(join(dirs[1]!, 'results.jsonl')).trim().split('\n');
    const dropped = JSON.parse(lines[0]!) as { id: string };
    writeFileSync(join(dirs[1]!, 'results.jsonl'), lines.slice(1).join('\n') + '\n');
    await expect(mergeShards(dirs, out())).rejects.toThrow(/shard 1\/2 in .*results\.jsonl was changed after the run finished/);
    reseal(dirs[1]!);
    await expect(mergeShards(dirs, out())).rejects.toThrow(
      new RegExp(`\\(id ${dropped.id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\) is missing from shard 1/2`),
    );
    writeFileSync(join(dirs[1]!, 'results.jsonl'), lines.join('\n') + '\n');
    appendFileSync(join(dirs[1]!, 'results.jsonl'), lines[0] + '\n');
    reseal(dirs[1]!);
    await expect(mergeShards(dirs, out())).rejects.toThrow(
      new RegExp(`example ${dropped.id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is in the results twice`),
    );
  });

  it('works from the command line: attack … --shard I/N, then textstress merge', async () => {
    const args = (out: string, more: string[] = []) => typosOnSst2('--limit', '10', '--k', '1', '--out', out, '--no-progress', ...more);
    const dirs = [tmp('cli-shard-0'), tmp('cli-shard-1')];
    for (const [i, d] of dirs.entries()) expect((await runCli(args(d, ['--shard', `${i}/2`]))).code).toBe(0);
    const merged = tmp('cli-merged');
    const r = await runCli(['merge', ...dirs, '--out', merged]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Merged 2 shards/);
    const bad = await runCli(args(tmp('cli-shard-bad'), ['--shard', '2/2']));
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/--shard "2\/2" is not of the form I\/N/);
  });

  it('a suite: run --shard I/N per shard, merge the suite folders, run --resume for the gate = the unsharded suite run', async () => {
    const dir = tmp('shard-suite');
    const file = writeSst2Suite(
      dir,
      [
        '{ name: typos-k1, recipe: typos, settings: { k: 1 }, thresholds: ["attack_success_rate <= 1"] }',
        '{ name: noise, recipe: noise, thresholds: ["attacked_accuracy >= 0"] }',
      ],
      20,
    );
    const whole = join(dir, 'whole');
    expect((await runCli(['run', file, '--out', whole, '--no-progress'])).code).toBe(0);
    const parts = [join(dir, 's0'), join(dir, 's1')];
    for (const [i, p] of parts.entries()) {
      const r = await runCli(['run', file, '--out', p, '--shard', `${i}/2`, '--no-progress']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/gate applies after textstress merge/);
    }
    const merged = join(dir, 'merged');
    const m = await runCli(['merge', ...parts, '--out', merged]);
    expect(m.code, m.stderr).toBe(0);
    expect(m.stdout).toMatch(/Merged 2 shards of 2 tests/);
    const gate = await runCli(['run', file, '--out', merged, '--resume', '--no-progress']);
    expect(gate.code, gate.stderr).toBe(0);
    expect(gate.stdout).toMatch(/Gate: PASS/);
    for (const t of ['typos-k1', 'noise']) {
      expect(read(join(merged, t, 'results.jsonl'))).toBe(read(join(whole, t, 'results.jsonl')));
      expect(summaryWithoutTiming(join(merged, t))).toEqual(summaryWithoutTiming(join(whole, t)));
    }
  }, 120_000);
});
