/**
 * RESEMBLE on the real demo-sst2 model over real SST-2 sentences (the committed first 400 of GLUE dev): fitting,
 * Table 5, and the defended model behind `textstress serve` answering as the in-process one.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readResembleConfig, writeResembleConfig } from '../../src/defence/config.ts';
import { createHttpModel } from '../../src/models/http-adapter.ts';
import type { ModelInput } from '../../src/models/types.ts';
import { TEMPERATURE_GRID } from '../../src/families/entities/resemble/fit.ts';
import { wilson } from '../../src/stats/index.ts';
import { openModel } from '../../src/runner/open.ts';
import { DEMO_SST2, runCli, servedUrl, SST2_DEV, startCliProcess, tmp } from '../cli/helpers.ts';

/** Rows [from, to) of the fixture SST-2 dev file as a TSV of its own (header kept). */
function slice(dir: string, name: string, from: number, to: number): string {
  const [header, ...rows] = readFileSync(SST2_DEV, 'utf8')
    .split('\n')
    .filter((l) => l !== '');
  const file = join(dir, name);
  writeFileSync(file, [header, ...rows.slice(from, to)].join('\n') + '\n');
  return file;
}

describe('textstress resemble on demo-sst2', () => {
  it('fits a valid config (M = 1 and 3) with T from the grid, and evaluates Table 5 on held-out sentences', async () => {
    const dir = tmp('resemble');
    const validation = slice(dir, 'validation.tsv', 0, 200);
    const test = slice(dir, 'test.tsv', 200, 400);
    const one = join(dir, 'm1.json');
    const three = join(dir, 'm3.json');
    const fit = (out: string, m: string, ...extra: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> =>
      runCli([
        'resemble',
        'fit',
        '--model',
        DEMO_SST2,
        '--data',
        validation,
        '--type',
        'PER',
        '--m',
        m,
        '--candidates',
        '8',
        '--seed',
        '3',
        '--out',
        out,
        ...extra,
      ]);
    const [r1, r3] = await Promise.all([fit(one, '1', '--fit-temperature'), fit(three, '3')]);
    expect(r1.code, r1.stderr).toBe(0);
    expect(r3.code, r3.stderr).toBe(0);
    const c1 = readResembleConfig(one);
    const c3 = readResembleConfig(three);
    expect(c1.canonical).toHaveLength(1);
    expect(c3.canonical).toHaveLength(3);
    // The best candidate is the same whatever M; M = 3 keeps the next two by accuracy.
    expect(c3.canonical[0]).toBe(c1.canonical[0]);
    const accs = c3.fitted!.candidates.map((c) => c.accuracy!);
    expect(accs).toEqual([...accs].sort((a, b) => b - a));
    expect(c3.fitted!.candidates).toHaveLength(8);
    expect(TEMPERATURE_GRID).toContain(c1.temperature);
    const best = Math.min(...c1.fitted!.temperatureGrid.map((g) => g.nll!));
    expect(c1.fitted!.temperatureGrid.find((g) => g.temperature === c1.temperature)!.nll).toBe(best);
    expect(c1.fitted).toMatchObject({ examples: 200, seed: 3, temperatureFitted: true });
    // Without --fit-temperature: the paper's fixed T = 2, the NLL grid still recorded.
    expect(c3.temperature).toBe(2);
    expect(c3.fitted).toMatchObject({ temperatureFitted: false });
    expect(c3.fitted!.temperatureGrid).toHaveLength(TEMPERATURE_GRID.length);
    expect(r3.stdout).toContain("T = 2 (the paper's fixed T)");
    // 16 of the 200 name a person (20 before issue 34's gazetteer precision: four were no person).
    expect(c1.fitted!.applicable).toBe(16);
    expect(c1.annotator).toEqual({ kind: 'gazetteer' });
    expect(r1.stdout).toContain(`canonical entities (M = 1): ${c1.canonical[0]}`);

    const out = join(dir, 'eval');
    const ev = await runCli([
      'resemble',
      'eval',
      '--model',
      DEMO_SST2,
      '--data',
      test,
      '--config',
      one,
      '--budget',
      '12',
      '--random-sets',
      '4',
      '--seed',
      '5',
      '--out',
      out,
    ]);
    expect(ev.code, ev.stderr).toBe(0);
    expect(ev.stdout).toMatch(/without RESEMBLE +18 +[\d.]+ +[\d.]+ +[\d.]+ +[\d.]+ ± [\d.]+ +[\d.]+\n +95% interval +\[[\d.]+, [\d.]+\]/);
    expect(ev.stdout).toMatch(/with RESEMBLE +18 +[\d.]+/);
    const s = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
    expect(s.examples).toBe(200);
    expect(s.applicable + s.notApplicable.count).toBe(200);
    expect(s.notApplicable.reason).toBe('no PER entity');
    for (const row of [s.without, s.with]) expect(row.random).toHaveLength(4);
    // Worst/Best are per-example extremes of the draws against the undefended model, random sets are draws too.
    expect(s.without.worst).toBeLessThanOrEqual(s.without.randomMean);
    expect(s.without.randomMean).toBeLessThanOrEqual(s.without.best);
    // Exact figures of this seed (correct examples out of 18): the defence lifts Worst.
    const of18 = (x: number): number => Math.round(x * 18);
    expect(s.applicable).toBe(18);
    expect([s.without.original, s.without.worst, s.without.best].map(of18)).toEqual([16, 11, 18]);
    // Eq. (2) with the fitted T = 16: the flattened original gives way to the canonical name more often.
    expect([s.with.original, s.with.worst, s.with.best].map(of18)).toEqual([15, 13, 15]);
    // Wilson intervals over the 18, the gap's paired bootstrap seeded by the run (same seed, same bounds).
    expect(s.without.n).toBe(18);
    expect(s.without.original_interval).toEqual(wilson(16, 18));
    expect(s.with.worst_interval).toEqual(wilson(13, 18));
    expect(s.without.gap).toBeCloseTo((18 - 11) / 18, 12);
    expect(s.without.gap_interval).toMatchObject({ n: 18, method: 'bootstrap' });
    expect(s.without.gap_interval.value).toBeCloseTo(s.without.gap, 12);
    expect(s.without.gap_interval.low).toBeLessThanOrEqual(s.without.gap);
    expect(s.without.randomMean_interval).toMatchObject({ n: 18, method: 'bootstrap' });
    expect(s.without.randomMean_interval.value).toBeCloseTo(s.without.randomMean, 12);
    expect(s.without.random.map(of18)).toEqual([14, 14, 15, 14]);
    // At most 18 × (1 + 12) undefended texts, the defended model asking for them again (cache) plus one canonical
    // input each; draws are with replacement, and a text drawn twice is asked once: 16 fewer with this seed.
    expect(s.queries.model.requests).toBe(18 * 12 + 2 * 18 * 13 + 18 * 13 - 16);
    // Every inner query went through the engine: undefended draws are reused by the defended model from the cache.
    expect(s.queries.model.cacheHits).toBeGreaterThan(0);
    expect(s.queries.resemble.canonicalInputs).toBe(s.queries.resemble.withMentions * 1);
    expect(readFileSync(join(out, 'table5.txt'), 'utf8')).toContain('Best−Worst');
  }, 120_000);

  it('answers the same behind `textstress serve --defence` over HTTP as in process', async () => {
    const dir = tmp('resemble-serve');
    const config = join(dir, 'resemble.json');
    writeResembleConfig(config, {
      textstress: 'resemble',
      version: 1,
      type: 'PER',
      canonical: ['Erskine Glover', 'Maya Lin', 'Tom Brady'],
      temperature: 2,
      annotator: { kind: 'gazetteer' },
    });
    const inputs: ModelInput[] = [
      "if steven soderbergh 's ` solaris ' is a failure it is a glorious failure .",
      'no sophomore slump for director sam mendes , who segues from oscar winner to oscar winner .',
      'a quiet , lovely film .',
      'so much like a young robert deniro',
    ].map((text) => ({ kind: 'text', text }));
    // A process: `serve` runs until a signal.
    const server = startCliProcess(['serve', '--model', DEMO_SST2, '--defence', config, '--port', '0']);
    const local = await openModel({ model: DEMO_SST2, defence: config });
    const plain = await openModel({ model: DEMO_SST2 });
    try {
      const url = await servedUrl(server);
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+/);
      const remote = await createHttpModel(url);
      const [there, here, undefended] = await Promise.all([remote.predict(inputs), local.predict(inputs), plain.predict(inputs)]);
      expect(there).toEqual(here);
      // The defence is on: named texts change, the text without a name does not.
      expect(here[0]).not.toEqual(undefended[0]);
      expect(here[2]).toEqual(undefended[2]);
    } finally {
      server.kill('SIGTERM');
      await local.close?.();
      await plain.close?.();
    }
  }, 120_000);

  it('defends a suite model given `defence:` (relative to the suite file); summary.json counts the inner queries', async () => {
    const dir = tmp('resemble-suite');
    writeResembleConfig(join(dir, 'r.json'), {
      textstress: 'resemble',
      version: 1,
      type: 'PER',
      canonical: ['Erskine Glover'],
      temperature: 2,
      annotator: { kind: 'gazetteer' },
    });
    writeFileSync(
      join(dir, 'd.tsv'),
      "sentence\tlabel\nit 's robert duvall !\t1\na dull and lifeless film\t0\nso much like a young robert deniro\t1\n",
    );
    writeFileSync(
      join(dir, 'suite.yaml'),
      [
        'models:',
        '  m: { path: demo-sst2, defence: r.json }',
        'datasets:',
        '  d: d.tsv',
        'tests:',
        '  - { name: t, recipe: typos, settings: { k: 1 } }',
      ].join('\n') + '\n',
    );
    const r = await runCli(['run', join(dir, 'suite.yaml'), '--out', join(dir, 'out'), '--no-progress']);
    expect(r.code, r.stderr).toBe(0);
    const s = JSON.parse(readFileSync(join(dir, 'out', 't', 'summary.json'), 'utf8'));
    expect(s.process.defence).toMatchObject({ defence: 'resemble', type: 'PER', canonical: ['Erskine Glover'], temperature: 2 });
    // Every query of a sentence that names a person adds one canonical input (M = 1).
    expect(s.process.defence.inputs).toBe(s.process.model_inferences);
    expect(s.process.defence.canonical_inputs).toBe(s.process.defence.inputs_with_mentions);
    expect(s.process.defence.inputs_with_mentions).toBeGreaterThan(0);
    expect(s.process.defence.inner_requests).toBe(s.process.defence.inputs + s.process.defence.canonical_inputs);
  }, 120_000);

  it("records the defence file in a run's settings, so a resume without it is refused", async () => {
    const dir = tmp('resemble-attack');
    const config = join(dir, 'resemble.json');
    writeResembleConfig(config, {
      textstress: 'resemble',
      version: 1,
      type: 'PER',
      canonical: ['Homer Cartwright'],
      temperature: 2,
      annotator: { kind: 'gazetteer' },
    });
    const out = join(dir, 'run');
    const args = ['attack', 'typos', '--model', DEMO_SST2, '--data', SST2_DEV, '--k', '1', '--limit', '6', '--out', out, '--no-progress'];
    const r = await runCli([...args, '--defence', config]);
    expect(r.code, r.stderr).toBe(0);
    const s = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { n: number; settings: { defence?: string } };
    expect(s.n).toBe(6);
    expect(s.settings.defence).toBe(config);
    // Without the defence the answers would come from another model: the resume is refused, naming the setting.
    const again = await runCli([...args, '--resume']);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toMatch(/defence/);
  });

  it('refuses to fit on data without a mention of the type, naming the file', async () => {
    const dir = tmp('resemble-none');
    const data = join(dir, 'plain.tsv');
    writeFileSync(data, 'sentence\tlabel\na warm and funny film\t1\na dull film\t0\n');
    const r = await runCli(['resemble', 'fit', '--model', DEMO_SST2, '--data', data, '--out', join(dir, 'r.json')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${data}: no validation example has a PER mention (2 examples, all "no PER entity")`);
    const bad = await runCli(['resemble', 'eval', '--model', DEMO_SST2, '--data', data, '--config', data]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain(`${data}: the RESEMBLE config is not JSON`);
  }, 60_000);
});
