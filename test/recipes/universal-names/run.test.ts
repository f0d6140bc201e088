/**
 * `universal-names` end to end on a real model: models/demo-ner over demo/news.conll with gold PER mentions. The
 * output's structure, the held-out numbers recomputed from the model's own predictions, the same output at
 * another batch size (deterministic at any concurrency), another seed giving another search, and a run
 * interrupted mid-round resuming to exactly what an uninterrupted run writes; its report-card section; a run
 * without a held-out split (every transfer number n/a).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exampleInput } from '../../../src/core/subject.ts';
import { entityCounts, f1 } from '../../../src/data/entities.ts';
import { openDataset } from '../../../src/data/open.ts';
import type { Example } from '../../../src/data/types.ts';
import { goldAnnotator } from '../../../src/entities/index.ts';
import { loadModel } from '../../../src/models/load.ts';
import type { ModelAdapter, ModelOutput } from '../../../src/models/types.ts';
import { QueryEngine } from '../../../src/query/engine.ts';
import { builtinRegistry } from '../../../src/families/index.ts';
import { variantOf } from '../../../src/families/entities/universal-names/evaluate.ts';
import type { RankedName, UniversalNamesDetails } from '../../../src/families/entities/universal-names/tables.ts';
import { loadGroups } from '../../../src/report/html/load.ts';
import { renderReport } from '../../../src/report/html/render.ts';
import { runRecipe } from '../../../src/kinds/run.ts';
import { DEMO_NER, ROOT, tmp } from '../../cli/helpers.ts';

const NEWS = join(ROOT, 'demo', 'news.conll');
const SETTINGS = { rounds: 3, perRound: 4, candidates: 20, budget: 10, top: 3, random: 3 };

let model: ModelAdapter;
beforeAll(async () => {
  model = await loadModel(DEMO_NER);
}, 60_000);
afterAll(async () => {
  await model.close?.();
});

async function run(out: string, seed = 5, engine?: QueryEngine, resume = false): Promise<void> {
  await runRecipe({
    registry: builtinRegistry(),
    recipe: 'universal-names',
    settings: SETTINGS,
    model: DEMO_NER,
    data: NEWS,
    out,
    seed,
    resume,
    shared: { model, engine: engine ?? new QueryEngine(model) },
  });
}

const read = (dir: string, file: string): string => readFileSync(join(dir, file), 'utf8');
const summaryOf = (dir: string): { metrics: Record<string, number | null>; details: UniversalNamesDetails } & Record<string, unknown> =>
  JSON.parse(read(dir, 'summary.json'));
const namesOf = (dir: string): RankedName[] =>
  read(dir, 'names.jsonl')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as RankedName);

/** Corpus entity F1 of the model's tags on these examples. */
function corpusF1(examples: readonly Example[], outs: readonly ModelOutput[]): number | null {
  const c = { tp: 0, fp: 0, fn: 0 };
  examples.forEach((ex, i) => {
    const out = outs[i]!;
    if (ex.kind !== 'tokens' || out.kind !== 'tags') throw new Error('expected tagged examples');
    const k = entityCounts(ex.tags, out.tags);
    c.tp += k.tp;
    c.fp += k.fp;
    c.fn += k.fn;
  });
  return f1(c);
}

describe('universal-names on demo-ner over demo/news.conll (gold PER mentions)', () => {
  const out = tmp('un-ner');
  beforeAll(() => run(out), 120_000);

  it('writes the summary, one record per evaluation, the ranked names and the transfer test', () => {
    const s = summaryOf(out);
    expect(Object.keys(s).sort()).toEqual([
      'complete',
      'dataset',
      'details',
      'kind',
      'metrics',
      'model',
      'n',
      'queries',
      'recipe',
      'seed',
      'settings',
      'steps',
      'wall_seconds',
    ]);
    expect(s).toMatchObject({
      complete: true,
      kind: 'generate',
      recipe: 'universal-names',
      model: DEMO_NER,
      dataset: NEWS,
      seed: 5,
      steps: 3,
      n: 12,
    });
    expect(s.settings).toEqual({
      type: 'PER',
      budget: 10,
      rounds: 3,
      perRound: 4,
      candidates: 20,
      holdout: 0.5,
      top: 3,
      random: 3,
      annotator: null,
      namesFile: [],
    });
    // 40 sentences, 14 with a gold PER entity: 7 held out, 7 searched; 3 rounds of 4 names.
    expect(s.details.counts).toEqual({
      examples: 40,
      applicable: 14,
      not_applicable: 26,
      search: 7,
      heldout: 7,
      candidates: 20,
      rounds: 3,
      evaluations: 12,
    });
    expect(s.details).toMatchObject({ type: 'PER', annotator: 'gold' });
    expect(s.queries).toBeGreaterThan(0);
    expect(read(out, 'results.jsonl').trim().split('\n')).toHaveLength(12);
    for (const f of ['ranking.json', 'steps.jsonl', 'names.jsonl']) expect(existsSync(join(out, f))).toBe(true);
  });

  it('ranks all candidates, evaluated ones first by posterior mean; each evaluation adds its sentences to α + β', () => {
    const names = namesOf(out);
    expect(names.map((r) => r.rank)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    const evaluated = names.filter((r) => r.evaluated > 0);
    expect(evaluated.length).toBeGreaterThan(0);
    expect(names.slice(0, evaluated.length)).toEqual(evaluated);
    for (let i = 1; i < evaluated.length; i++) expect(evaluated[i]!.mean).toBeLessThanOrEqual(evaluated[i - 1]!.mean);
    for (const r of names) {
      expect(r.alpha + r.beta).toBeCloseTo(2 + r.sentences, 9);
      expect(r.mean).toBeCloseTo(r.alpha / (r.alpha + r.beta), 12);
      // Seven search sentences (fewer than B = 10) per evaluation.
      expect(r.sentences).toBe(7 * r.evaluated);
    }
    expect(names.filter((r) => r.evaluated === 0).every((r) => r.mean === 0.5 && r.worse_share === null)).toBe(true);
  });

  it('tests the top 3 names and 3 other random candidates on the held-out split, from the model’s own predictions', async () => {
    const s = summaryOf(out);
    const t = s.details.transfer;
    const names = namesOf(out);
    expect(t.metric).toBe('entity_f1');
    expect(t.rows.filter((r) => r.group === 'top').map((r) => r.name)).toEqual(names.slice(0, 3).map((r) => r.name));
    const random = t.rows.filter((r) => r.group === 'random').map((r) => r.name);
    expect(random).toHaveLength(3);
    expect(random.some((n) => names.slice(0, 3).some((r) => r.name === n))).toBe(false);

    // The held-out examples again, straight from the file, the gold annotator and the model (no engine, no cache).
    const ids: string[] = JSON.parse(read(out, 'ranking.json')).heldout_ids;
    expect(ids).toHaveLength(7);
    const all: Example[] = [];
    for await (const ex of (await openDataset(NEWS)).examples()) all.push(ex);
    const held = ids.map((id) => all.find((ex) => ex.id === id)!);
    const mentions = await goldAnnotator().annotate(held);
    expect(mentions.every((ms) => ms.some((m) => m.type === 'PER'))).toBe(true);
    const original = corpusF1(held, await model.predict(held.map(exampleInput)));
    expect(t.original.n).toBe(7);
    expect(t.original.metric).toBeCloseTo(original!, 12);
    for (const row of t.rows) {
      const variants = held.map((example, i) => variantOf({ example, mentions: mentions[i]! }, 'PER', row.name));
      // The name is really in every variant, and the tags followed it.
      for (const v of variants) expect(v.kind === 'tokens' && v.tokens.join(' ').toLowerCase().includes(row.name.toLowerCase())).toBe(true);
      const metric = corpusF1(variants, await model.predict(variants.map(exampleInput)));
      expect(row.n).toBe(7);
      expect(row.metric).toBeCloseTo(metric!, 12);
      expect(row.drop).toBeCloseTo(original! - metric!, 12);
    }
    const mean = (group: string): number => {
      const drops = t.rows.filter((r) => r.group === group).map((r) => r.drop!);
      return drops.reduce((a, x) => a + x, 0) / drops.length;
    };
    expect(s.metrics.universal_names_top10_drop).toBeCloseTo(mean('top'), 12);
    expect(s.metrics.universal_names_random10_drop).toBeCloseTo(mean('random'), 12);
    // The gate reads them from summary.json (`thresholds: [universal_names_top10_drop > 0.05]` in a suite).
    const gate = builtinRegistry().metrics();
    expect(gate.universal_names_top10_drop!.read(s)).toBe(s.metrics.universal_names_top10_drop);
    expect(gate.universal_names_random10_drop!.read(s)).toBe(s.metrics.universal_names_random10_drop);
  }, 60_000);

  it('writes the same at another batch size; another seed searches other names', async () => {
    const small = tmp('un-ner-small');
    await run(small, 5, new QueryEngine(model, { maxFlushSize: 3, cacheBytes: 0 }));
    for (const f of ['results.jsonl', 'steps.jsonl', 'names.jsonl', 'ranking.json']) expect(read(small, f)).toBe(read(out, f));
    const other = tmp('un-ner-seed');
    await run(other, 6);
    expect(read(other, 'results.jsonl')).not.toBe(read(out, 'results.jsonl'));
  }, 120_000);

  it('resumes a run interrupted in its third round to exactly what the uninterrupted run wrote', async () => {
    const cut = tmp('un-ner-resume');
    let calls = 0;
    // Round 1 and 2 are one predict() call each; the third fails.
    const flaky: ModelAdapter = {
      info: model.info,
      predict: (inputs) => (++calls === 3 ? Promise.reject(new Error('the model went away')) : model.predict(inputs)),
    };
    await expect(run(cut, 5, new QueryEngine(flaky))).rejects.toThrow(/went away/);
    expect(read(cut, 'steps.jsonl').trim().split('\n')).toHaveLength(2);
    await run(cut, 5, undefined, true);
    for (const f of ['results.jsonl', 'steps.jsonl', 'names.jsonl', 'ranking.json']) expect(read(cut, f)).toBe(read(out, f));
    expect(summaryOf(cut).details).toEqual(summaryOf(out).details);
  }, 120_000);

  it('gets a report section: the ranked names and the transfer test as tables, the held-out chart', async () => {
    const html = await renderReport(await loadGroups([out]));
    expect(html).toContain('id="fam-universal-names"');
    const top = namesOf(out)[0]!.name;
    expect(html).toContain('ranked PER names');
    expect(html).toContain(`held-out transfer (7 examples)`);
    expect(html).toContain(`held-out entity F1 per name`);
    // A name is words: left-aligned (only figures are right-aligned).
    expect(html).toContain(`<td>${top}</td>`);
  }, 60_000);

  it('with --holdout 0 searches every applicable example and reports the transfer as n/a (null), never 0', async () => {
    const none = tmp('un-ner-noheld');
    await runRecipe({
      registry: builtinRegistry(),
      recipe: 'universal-names',
      settings: { ...SETTINGS, holdout: 0 },
      model: DEMO_NER,
      data: NEWS,
      out: none,
      seed: 5,
      shared: { model, engine: new QueryEngine(model) },
    });
    const s = summaryOf(none);
    expect(s.details.counts).toMatchObject({ applicable: 14, search: 14, heldout: 0 });
    expect(s.details.transfer.original).toEqual({ n: 0, metric: null, accuracy: null });
    expect(s.details.transfer.rows.every((r) => r.n === 0 && r.metric === null && r.drop === null)).toBe(true);
    expect(s.details.transfer).toMatchObject({ top_mean_drop: null, random_mean_drop: null });
    expect(s.metrics).toMatchObject({ universal_names_top10_drop: null, universal_names_random10_drop: null });
  }, 60_000);

  it('refuses data with no mention of the type, naming the file and the annotator', async () => {
    // The first sentence of demo/news.conll names a person and two clubs, no place.
    await expect(
      runRecipe({
        registry: builtinRegistry(),
        recipe: 'universal-names',
        settings: { ...SETTINGS, type: 'LOC' },
        model: DEMO_NER,
        data: NEWS,
        limit: 1,
        out: tmp('un-ner-noloc'),
        seed: 5,
        shared: { model, engine: new QueryEngine(model) },
      }),
    ).rejects.toThrow(`no example of ${NEWS} has a LOC mention (annotator: gold), so there is nothing to search on.`);
  }, 60_000);
});

describe('universal-names on demo-squad over the SQuAD v1.1 slice (gazetteer PER mentions in question and context)', () => {
  it('scores answer F1 and EM per name on the held-out questions', async () => {
    const out = tmp('un-qa');
    const data = join(ROOT, 'test', 'fixtures', 'data', 'squad-v1.1', 'dev-v1.1.json');
    await runRecipe({
      registry: builtinRegistry(),
      recipe: 'universal-names',
      settings: { ...SETTINGS, rounds: 2, perRound: 3, top: 2, random: 2 },
      model: join(ROOT, 'models', 'demo-squad'),
      data,
      out,
      seed: 0,
    });
    const s = summaryOf(out);
    expect(s.details).toMatchObject({
      annotator: 'gazetteer',
      counts: { examples: 89, applicable: 85, search: 42, heldout: 43, evaluations: 6 },
    });
    const t = s.details.transfer;
    expect(t.metric).toBe('answer_f1');
    expect(t.original.n).toBe(43);
    expect(typeof t.original.em).toBe('number');
    expect(t.rows.map((r) => r.group)).toEqual(['top', 'top', 'random', 'random']);
    for (const r of t.rows) {
      expect(r.n).toBe(43);
      expect(typeof r.em).toBe('number');
      expect(r.drop).toBeCloseTo(t.original.metric! - r.metric!, 12);
    }
  }, 120_000);
});
