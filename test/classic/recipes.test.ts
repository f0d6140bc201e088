/**
 * The classic recipes on the demo classifiers, in process (each model loaded once): real attacks with the exact
 * seeded outcomes, TextAttack's figures in summary.json, the second text of a pair only, a sharded run merged to
 * the unsharded one, and a model given as a plain JS object (the in-process target).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExampleResult } from '../../src/core/result.ts';
import { builtinRegistry } from '../../src/families/index.ts';
import { mergeShards } from '../../src/kinds/merge.ts';
import type { RunSummary } from '../../src/metrics/summary.ts';
import { textAttackOf } from '../../src/metrics/textattack.ts';
import type { ModelAdapter } from '../../src/models/types.ts';
import { openModel } from '../../src/runner/open.ts';
import { isStopword, nltkEnglishStopwords } from '../../src/text/stopwords.ts';
import { distance } from 'fastest-levenshtein';
import { DEMO_SST2, ROOT, fixtureData, tmp } from '../cli/helpers.ts';
import { runClassic } from './run.ts';

const REVIEWS = join(ROOT, 'demo', 'reviews.tsv');
const registry = builtinRegistry();

let sst2: ModelAdapter;
beforeAll(async () => {
  sst2 = await openModel({ model: DEMO_SST2 });
}, 60_000);
afterAll(async () => {
  await sst2?.close?.();
});

async function run(
  recipe: string,
  opts: {
    data?: string;
    limit?: number;
    model?: ModelAdapter;
    modelSpec?: string;
    settings?: Record<string, unknown>;
    shard?: { index: number; count: number };
    out?: string;
  } = {},
): Promise<{ summary: RunSummary; results: ExampleResult[]; out: string }> {
  return runClassic({
    registry,
    recipe,
    settings: opts.settings ?? {},
    model: opts.model ?? sst2,
    modelSpec: opts.modelSpec ?? DEMO_SST2,
    data: opts.data ?? REVIEWS,
    out: opts.out ?? tmp(`classic-${recipe}`),
    ...(opts.limit !== undefined ? { limit: opts.limit } : {}),
    ...(opts.shard ? { shard: opts.shard } : {}),
  });
}

describe('pwws on demo-sst2', () => {
  it('swaps WordNet synonyms by weighted saliency until the label flips; TextAttack’s figures in summary.json', async () => {
    const { summary, results } = await run('pwws', { limit: 4 });
    expect(results.map((r) => [r.status, r.perturbed.text])).toEqual([
      ['succeeded', 'a warm , rummy and beautifully dissemble film that earns every one of its rent .'],
      ['succeeded', 'the plot is so lean that the actors seem embarrassed to be there .'],
      ['succeeded', 'an absolute transport from start to finish .'],
      ['failed', 'pall , lifeless and far too long .'],
    ]);
    for (const r of results) for (const e of r.edits) expect(e.type).toBe('pwws:synonym');
    const ta = textAttackOf(summary.details)!;
    expect([ta.successful_attacks, ta.failed_attacks, ta.skipped_attacks]).toEqual([3, 1, 0]);
    expect(ta.attack_success_rate).toBe(0.75);
    expect(ta.avg_num_queries).toBe(results.reduce((s, r) => s + r.requests, 0) / 4);
    expect(summary.settings).toMatchObject({ wir: 'weighted-saliency', deltaP: 'gain', unkToken: '[UNK]' });
  });
});

describe('deepwordbug on demo-sst2', () => {
  it('one random edit of each kind per word, best kept, stopwords untouched, within Levenshtein 30', async () => {
    const { results } = await run('deepwordbug', { limit: 6 });
    expect(results.map((r) => r.perturbed.text)).toEqual([
      'a awrm , funny and beatifully acted fgilm that egarns eveYry noe of its etars .',
      'the ploc is so thi that the actors seem embarrassed to be there .',
      'an absolute deligdht from start to finish .',
      'duTl , lifelzess and far too long .',
      'the idrector kdeeps the tension higDh and the jokes sahrp .',
      'i have rarely been so borOd in a cinema .',
    ]);
    const stop = nltkEnglishStopwords();
    for (const r of results) {
      expect(r.status).toBe('succeeded');
      expect(distance(r.original.text as string, r.perturbed.text as string)).toBeLessThanOrEqual(30);
      for (const e of r.edits) expect(isStopword(e.before, stop)).toBe(false);
    }
    // A tighter bound: with ε = 2 the edits stay within two characters of the original.
    const tight = await run('deepwordbug', { limit: 1, settings: { maxEditDistance: 2 } });
    expect(distance(tight.results[0]!.original.text as string, tight.results[0]!.perturbed.text as string)).toBeLessThanOrEqual(2);
  });

  it('sharded in two and merged, gives the unsharded run’s results and TextAttack figures', async () => {
    const whole = await run('deepwordbug', { limit: 6 });
    const shards = [0, 1].map((index) => tmp(`classic-shard-${index}`));
    for (const [index, out] of shards.entries()) await run('deepwordbug', { limit: 6, shard: { index, count: 2 }, out });
    const merged = tmp('classic-merged');
    await mergeShards(shards, { registry, out: merged, overwrite: true });
    const summary = JSON.parse(readFileSync(join(merged, 'summary.json'), 'utf8')) as RunSummary;
    expect(summary.details).toEqual(whole.summary.details);
    expect(readFileSync(join(merged, 'results.jsonl'), 'utf8')).toBe(readFileSync(join(whole.out, 'results.jsonl'), 'utf8'));
  });
});

describe('checklist on demo-sst2', () => {
  it('expands and contracts, changes names, numbers and places found in the original text', async () => {
    const dir = tmp('classic-checklist-data');
    mkdirSync(dir, { recursive: true });
    const data = join(dir, 'cl.tsv');
    writeFileSync(
      data,
      [
        'sentence\tlabel',
        'I do not think Mary Jones will like it , it is dull .\t0',
        'The French chef cooked twenty five dishes and it was wonderful .\t1',
        "we enjoyed the two hours in germany with 12 friends , it's a joy .\t1",
      ].join('\n') + '\n',
    );
    const { results } = await run('checklist', { data });
    expect(results.map((r) => [r.perturbed.text, r.edits.map((e) => [e.before, e.after, e.type])])).toEqual([
      [
        "I don't think Gaile Ankunding will like it , it's dull .",
        [
          ['Jones', 'Ankunding', 'checklist:name'],
          ['it is', "it's", 'checklist:contract'],
          ['Mary', 'Gaile', 'checklist:name'],
          ['do not', "don't", 'checklist:contract'],
        ],
      ],
      [
        'The Iraqi chef cooked thirty-three dishes and it was wonderful .',
        [
          ['French', 'Iraqi', 'checklist:location'],
          ['twenty five', 'thirty-three', 'checklist:number'],
        ],
      ],
      [
        // "two" is never changed (CheckList leaves 2 and 4 alone: "2 me", "4 you").
        'we enjoyed the two hours in niger with 14 friends , it is a joy .',
        [
          ['germany', 'niger', 'checklist:location'],
          ['12', '14', 'checklist:number'],
          ["it's", 'it is', 'checklist:expand'],
        ],
      ],
    ]);
    // Every edit left the label alone on this model: CheckList's invariances hold here.
    expect(results.map((r) => r.status)).toEqual(['failed', 'failed', 'failed']);
  });
});

describe('pair tasks', () => {
  it('edit only the second text (QNLI’s sentence), as TextAttack edits only the hypothesis', async () => {
    const qnli = await openModel({ model: join(ROOT, 'models', 'demo-qnli') });
    try {
      const { results } = await run('deepwordbug', {
        data: fixtureData('qnli/dev.tsv'),
        limit: 3,
        model: qnli,
        modelSpec: join(ROOT, 'models', 'demo-qnli'),
      });
      for (const r of results) {
        expect(r.field).toBe('textB');
        expect(r.perturbed.textA).toBe(r.original.textA);
        for (const e of r.edits) expect(e.field).toBe('textB');
      }
      expect(results.some((r) => r.edits.length > 0)).toBe(true);
    } finally {
      await qnli.close?.();
    }
  });
});

describe('targets', () => {
  it('a model given as a plain JS object (predict only) runs the same attack to the same result', async () => {
    const plain: ModelAdapter = { info: sst2.info, predict: (inputs) => sst2.predict(inputs) };
    const a = await run('pwws', { limit: 2 });
    const b = await run('pwws', { limit: 2, model: plain });
    expect(b.results.map((r) => r.perturbed)).toEqual(a.results.map((r) => r.perturbed));
    expect(textAttackOf(b.summary.details)).toEqual(textAttackOf(a.summary.details));
  });
});
