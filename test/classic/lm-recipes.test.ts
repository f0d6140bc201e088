/**
 * TextBugger, BAE and TextFooler on demo-sst2, in process (the target loaded once), with the committed resources made
 * for tests — word vectors derived from demo-mlm (test/fixtures/embeddings), the random-weight sentence encoder
 * tiny-bert-emb and demo-mlm as the masked LM — so every constraint runs: exact seeded outcomes, the edits each bug
 * or swap made, what the run used (summary.json details.resources) and what each example asked of the resources;
 * the same results at any concurrency; without --embeddings the replacement recorded; bae without --mlm refused.
 */
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExampleResult } from '../../src/core/result.ts';
import { builtinRegistry } from '../../src/families/index.ts';
import type { RunSummary } from '../../src/metrics/summary.ts';
import { resourceLines, resourcesOf } from '../../src/metrics/resources.ts';
import { classicFamily, resourcesReportTable } from '../../src/families/classic/report.ts';
import type { LoadedRun } from '../../src/recipes/report/types.ts';
import { textAttackOf } from '../../src/metrics/textattack.ts';
import type { ModelAdapter } from '../../src/models/types.ts';
import { openModel } from '../../src/runner/open.ts';
import { TextstressError } from '../../src/util/errors.ts';
import { DEMO_SST2, ROOT, SST2_DEV, tmp } from '../cli/helpers.ts';
import { runClassic } from './run.ts';

const registry = builtinRegistry();
const ENCODER = join(ROOT, 'test', 'fixtures', 'models', 'tiny-bert-emb');
const MLM = join(ROOT, 'models', 'demo-mlm');
const dir = tmp('classic-lm');
// A copy: the index is built next to the file, never next to the committed fixture.
const EMBEDDINGS = join(dir, 'vectors.txt');
// SST-2 dev sentences of 15 words or more: the 15-word similarity windows of BAE and TextFooler apply to them.
const LONG = join(dir, 'long.tsv');

let sst2: ModelAdapter;
beforeAll(async () => {
  copyFileSync(join(ROOT, 'test', 'fixtures', 'embeddings', 'demo-mlm-8d.txt'), EMBEDDINGS);
  const [head, ...rows] = readFileSync(SST2_DEV, 'utf8').trim().split('\n');
  const long = rows.filter((r) => r.split('\t')[0]!.trim().split(' ').length >= 18).slice(0, 4);
  writeFileSync(LONG, [head, ...long].join('\n') + '\n');
  sst2 = await openModel({ model: DEMO_SST2 });
}, 60_000);
afterAll(async () => {
  await sst2?.close?.();
});

async function run(
  recipe: string,
  settings: Record<string, unknown>,
  opts: { limit?: number; concurrency?: number; name?: string } = {},
): Promise<{ summary: RunSummary; results: ExampleResult[] }> {
  return runClassic({
    registry,
    recipe,
    settings,
    model: sst2,
    modelSpec: DEMO_SST2,
    data: LONG,
    out: join(dir, opts.name ?? recipe),
    ...opts,
  });
}

const outcome = (r: ExampleResult): [string, string] => [r.status, String(r.perturbed.text)];
const editTypes = (rs: readonly ExampleResult[]): string[] => [...new Set(rs.flatMap((r) => r.edits.map((e) => e.type)))].sort();

describe('textbugger', () => {
  it('bugs the most important words (space, deletion, swap, homoglyph, embedding neighbour) within cosine 0.8 of the original', async () => {
    const settings = { embeddings: EMBEDDINGS, sentenceEncoder: ENCODER };
    const { summary, results } = await run('textbugger', settings);
    expect(results.map(outcome)).toEqual(EXPECTED.textbugger);
    expect(editTypes(results).every((t) => /^textbugger:(insert-space|delete|swap|homoglyph|embedding)$/.test(t))).toBe(true);
    const res = resourcesOf(summary.details)!;
    expect(Object.fromEntries(res.entries.map(([k, e]) => [k, e.used]))).toEqual({ word_swaps: true, sentence_similarity: true });
    expect(res.entries.find(([k]) => k === 'sentence_similarity')![1]).toMatchObject({ metric: 'cosine', threshold: 0.8, window: null });
    // Every attacked example asked the encoder (no window: the whole texts), and looked words up in the vectors.
    for (const r of results.filter((x) => x.status !== 'skipped')) {
      expect(r.resource_queries!.sentence_encoder_texts).toBeGreaterThan(0);
      expect(r.resource_queries!.embedding_words).toBeGreaterThan(0);
    }
    expect(textAttackOf(summary.details)!.successful_attacks).toBe(EXPECTED.textbugger.filter(([s]) => s === 'succeeded').length);
    // The same results, resource counts included, with four examples at a time.
    const parallel = await run('textbugger', settings, { concurrency: 4, name: 'textbugger-4' });
    expect(parallel.results.map((r) => [outcome(r), r.resource_queries])).toEqual(results.map((r) => [outcome(r), r.resource_queries]));
  });
});

describe('bae', () => {
  it("replaces words by demo-mlm's predictions of the same part of speech, within the 15-word similarity window", async () => {
    const { summary, results } = await run('bae', { mlm: MLM, sentenceEncoder: ENCODER });
    expect(results.map(outcome)).toEqual(EXPECTED.bae);
    expect(editTypes(results)).toEqual(['bae:mlm']);
    const res = resourcesOf(summary.details)!;
    expect(res.entries.find(([k]) => k === 'masked_lm')![1]).toMatchObject({ used: true, candidates: 50, subwords: 'strip' });
    expect(res.entries.find(([k]) => k === 'sentence_similarity')![1]).toMatchObject({ used: true, threshold: 0.936338023, window: 15 });
    for (const r of results.filter((x) => x.status !== 'skipped')) {
      expect(r.resource_queries!.masked_lm_texts).toBeGreaterThan(0);
      expect(r.resource_queries!.sentence_encoder_texts).toBeGreaterThan(0);
    }
    expect(res.queries.map(([k]) => k).sort()).toEqual(['masked_lm_texts', 'sentence_encoder_requests', 'sentence_encoder_texts']);
  });

  it('is refused before any work without a masked LM', async () => {
    const err = await run('bae', {}, { name: 'bae-none' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TextstressError);
    expect((err as TextstressError).describe()).toMatch(/needs a masked language model.*--mlm models\/demo-mlm/);
  });
});

describe('textfooler', () => {
  it('swaps words for embedding neighbours (cosine ≥ 0.5, same part of speech) within the angular similarity window', async () => {
    const { summary, results } = await run('textfooler', { embeddings: EMBEDDINGS, sentenceEncoder: ENCODER });
    expect(results.map(outcome)).toEqual(EXPECTED.textfooler);
    expect(editTypes(results)).toEqual(['textfooler:embedding']);
    const res = resourcesOf(summary.details)!;
    expect(res.entries.map(([k, e]) => [k, e.used])).toEqual([
      ['word_swaps', true],
      ['word_embedding_cosine', true],
      ['part_of_speech', true],
      ['sentence_similarity', true],
    ]);
  });

  it('without --embeddings: WordNet synonyms then the masked LM’s words, no cosine bound, no encoder — and says so', async () => {
    const { summary, results } = await run('textfooler', { mlm: MLM }, { limit: 2, name: 'textfooler-fallback' });
    expect(results.map(outcome)).toEqual(EXPECTED.textfoolerFallback);
    expect(editTypes(results).every((t) => t === 'textfooler:wordnet' || t === 'textfooler:mlm')).toBe(true);
    const res = Object.fromEntries(resourcesOf(summary.details)!.entries);
    expect(res.word_swaps).toMatchObject({ used: false, why: 'no --embeddings' });
    expect(String(res.word_swaps!.instead)).toMatch(/^WordNet synonyms, then .*demo-mlm's words$/);
    expect(res.word_embedding_cosine).toMatchObject({ used: false, why: 'no --embeddings' });
    expect(res.sentence_similarity).toMatchObject({ used: false, why: 'no --sentence-encoder: every candidate passes' });

    // The terminal and the report say it too.
    const lines = resourceLines(resourcesOf(summary.details)!);
    expect(lines[0]).toBe('Resources besides the model:');
    expect(lines).toContain('  word embedding cosine: OFF (no --embeddings); min 0.5');
    expect(lines.find((l) => l.startsWith('  sentence similarity:'))).toBe(
      '  sentence similarity: OFF (no --sentence-encoder: every candidate passes); metric angular, threshold 0.840845057, ' +
        'compare against previous, window 15, skip shorter than window true',
    );
    expect(lines.some((l) => /^ {4}masked lm texts: [\d.]+ \[[\d.]+–[\d.]+\] .*\(total \d+\)$/.test(l))).toBe(true);
    const loaded = { name: 'fb', group: 'fb', summary } as unknown as LoadedRun;
    const table = resourcesReportTable([loaded])!;
    expect(table.rows.map((r) => r.slice(1, 3))).toEqual([
      ['word swaps', 'replaced'],
      ['word embedding cosine', 'OFF'],
      ['part of speech', 'used'],
      ['sentence similarity', 'OFF'],
      ['masked lm texts per attacked example', 'asked'],
    ]);
    expect(classicFamily.section!([loaded], []).tables!.map((t) => t.title)).toContain('Resources besides the model');
  });
});

/** The seeded outcomes on the four long sentences (regenerate with care: a change here is a change in the attack). */
const EXPECTED = {
  textbugger: [
    ['succeeded', 'allo ws us to hope that nolan is poised to embark a major career as a commercial yet in ventive filmmaker .'],
    ['succeeded', "the acting , ϲostumes , musc , ϲinematography and sond are all astoundi ng given the production 's austere loc ales ."],
    ['succeeded', 'although laced with humor and a few fanciful touches , the film is a refershingly serious know at young women .'],
    ['succeeded', "you do n't have to know about music to appreciate the film 's еasygoing bend of comedy and romace ."],
  ],
  bae: [
    ['succeeded', 'was us to hope that nolan is poised to embark a major career as a commercial yet better filmmaker .'],
    [
      'succeeded',
      "the acting , meandering , shallow , cinematography and sound are all astounding given the production 's austere locales .",
    ],
    ['succeeded', 'although laced with humor and a few fanciful touches , the film is a less serious look at young women .'],
    ['succeeded', "you do n't have to know about music to appreciate the film 's bad amount of comedy and romance ."],
  ],
  textfooler: [
    ['succeeded', 'allows nothing to lack that nolan is poised to embark a major career as a commercial yet inventive plot .'],
    ['succeeded', "the acting , costumes , lack , cinematography and sound are all astounding put the hang 's austere locales ."],
    ['succeeded', 'although laced with action and a few fanciful touches , the script is a refreshingly serious say at little following .'],
    ['succeeded', "you flat n't have to know about actor to appreciate the film 's easygoing blend of plot and romance ."],
  ],
  textfoolerFallback: [
    ['succeeded', 'tolerate us to hope that nolan is poised to embark a major career as a commercial yet bad filmmaker .'],
    ['succeeded', "the acting , offbeat , shallow , cinematography and phone are all astounding given the production 's austere ers ."],
  ],
} satisfies Record<string, [string, string][]>;
