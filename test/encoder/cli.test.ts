import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli, tmp } from '../cli/helpers.ts';

const TINY = join(ROOT, 'test', 'fixtures', 'models', 'tiny-bert-internals');
const TINY_MLM = join(ROOT, 'test', 'fixtures', 'models', 'tiny-bert-mlm');

describe('textstress probe layers|heads|cloze', () => {
  it('probe layers prints the Table 7 and Table 8 layouts and writes them as JSON; --resume finishes a run', async () => {
    const out = tmp('probe-layers');
    const args = [
      'probe',
      'layers',
      '--model',
      TINY,
      '--error-types',
      'SVA,ArtOrDet',
      '--design',
      'pairs',
      '--pairs',
      '30',
      '--text',
      'wordnet',
      '--max-epochs',
      '2',
      '--out',
      out,
      '--no-progress',
    ];
    const r = await runCli(args);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Table 7 layout: probe accuracy/);
    expect(r.stdout).toMatch(/Table 8 layout: .*include the error/);
    expect(r.stdout).toMatch(/0 \(embeddings\)/);
    expect(r.stdout).toMatch(/random top-2/);
    expect(r.stdout).toMatch(/Figure 3 layout/);
    const json = JSON.parse(readFileSync(join(out, 'layers.json'), 'utf8')) as {
      table7: { head: string[]; rows: string[][] };
      table8: { rows: string[][] };
      heads: { share: unknown[][] };
    };
    expect(json.table7.head).toEqual(['layer', 'ArtOrDet', 'SVA', 'mean']);
    // The last row: the best contextual layer, chosen on the dev split, against layer 0 on the test sentences.
    expect(json.table7.rows.map((r) => r[0])).toEqual(['0 (embeddings)', '1', '2', 'test sentences', 'best (dev) vs 0: Δ, p']);
    expect(json.table7.rows[4]!.slice(1, 3).every((c) => /^L[12] [+−±]\d+ p [\d.<]+$/.test(c))).toBe(true);
    expect(json.table8.rows.map((r) => r[0])).toContain('random top-2');
    expect(json.heads.share).toHaveLength(2);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as {
      metrics: Record<string, number | null>;
      details: {
        types: { devAccuracy: number[]; accuracy: { hits: number; n: number }[] }[];
        intervals: Record<string, { value: number }>;
      };
    };
    expect(summary.metrics.layer0_accuracy).toBeGreaterThanOrEqual(0);
    // The headline's best layer is the best by the mean dev accuracy over types (the first on ties), its figure the
    // test accuracy there, with the interval beside it (issue 34, item 6).
    const types = summary.details.types;
    const devMean = [1, 2].map((l) => types.reduce((a, t) => a + t.devAccuracy[l]!, 0) / types.length);
    const best = devMean[1]! > devMean[0]! ? 2 : 1;
    expect(summary.metrics.best_accuracy_layer).toBe(best);
    const testMean = types.reduce((a, t) => a + t.accuracy[best]!.hits / t.accuracy[best]!.n, 0) / types.length;
    expect(summary.metrics.best_layer_accuracy).toBeCloseTo(testMean, 12);
    expect(summary.details.intervals.best_layer_accuracy!.value).toBeCloseTo(testMean, 12);
    // the same command on a finished folder asks for --resume or --overwrite; --resume rewrites the same tables
    expect((await runCli(args)).code).not.toBe(0);
    const again = await runCli([...args, '--resume']);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(out, 'layers.json'), 'utf8'))).toEqual(json);
  }, 120_000);

  it("probe layers uses the paper's design by default: sentences of 10–60 words, half with errors; n, intervals and McNemar per type", async () => {
    const out = tmp('probe-layers-sentences');
    const r = await runCli([
      'probe',
      'layers',
      '--model',
      TINY,
      '--error-types',
      'SVA',
      '--sentences',
      '60',
      '--text',
      'wordnet',
      '--max-epochs',
      '1',
      '--no-heads',
      '--out',
      out,
      '--no-progress',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/sentences per type \(10–60 words\): SVA 60 \(30 with errors\)/);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as {
      settings: Record<string, unknown>;
      metrics: Record<string, number | null>;
      details: {
        sentences: { design: string; sentencesMade: Record<string, number> };
        types: {
          counts: Record<string, number>;
          testWithErrors: number;
          accuracy: { hits: number; n: number; interval: { value: number; low: number; high: number; n: number; method: string } }[];
          localisation: { hits: number; n: number; interval: { n: number } }[];
          accuracyBestVsLayer0: { layer: number; onlyBest: number; onlyLayer0: number; p: number };
        }[];
      };
    };
    expect(summary.settings).toMatchObject({ design: 'sentences', sentences: 60 });
    expect(summary.details.sentences.design).toBe('sentences');
    const t = summary.details.types[0]!;
    // 60 sentences split 48/6/6; the test sentences, half of them with an error
    expect(t.counts).toEqual({ train: 48, dev: 6, test: 6 });
    expect(t.testWithErrors).toBe(3);
    expect(summary.metrics.test_sentences).toBe(6);
    expect(t.accuracy).toHaveLength(3);
    for (const a of t.accuracy) {
      expect(a.n).toBe(6);
      expect(a.interval).toMatchObject({ n: 6, method: 'wilson', value: a.hits / 6 });
      expect(a.interval.low).toBeLessThanOrEqual(a.interval.value);
    }
    expect(t.localisation.every((l) => l.n === 3 && l.interval.n === 3)).toBe(true);
    expect([1, 2]).toContain(t.accuracyBestVsLayer0.layer);
    expect(t.accuracyBestVsLayer0.p).toBeGreaterThan(0);
    expect(t.accuracyBestVsLayer0.p).toBeLessThanOrEqual(1);
  }, 60_000);

  it('probe heads prints the head × layer layout without training a probe', async () => {
    const out = tmp('probe-heads');
    const r = await runCli([
      'probe',
      'heads',
      '--model',
      TINY,
      '--error-types',
      'Worder',
      '--pairs',
      '40',
      '--text',
      'wordnet',
      '--head-query',
      'cls',
      '--out',
      out,
      '--no-progress',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Figure 3 layout: .*\[CLS\] row/);
    expect(r.stdout).not.toMatch(/Table 7/);
    expect(existsSync(join(out, 'layers.json'))).toBe(true);
  }, 60_000);

  it('probe cloze prints the drop per error type and distance', async () => {
    const out = tmp('probe-cloze');
    const r = await runCli([
      'probe',
      'cloze',
      '--model',
      TINY_MLM,
      '--error-types',
      'SVA,Nn',
      '--pairs',
      '30',
      '--text',
      'wordnet',
      '--window',
      '4',
      '--out',
      out,
      '--no-progress',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Figure 4 layout/);
    expect(r.stdout).toMatch(/type\s+pairs\s+-4\s+-3\s+-2\s+-1\s+\+1\s+\+2\s+\+3\s+\+4/);
    expect(r.stdout).toMatch(/^all\s+\d+/m);
    const cloze = JSON.parse(readFileSync(join(out, 'cloze.json'), 'utf8')) as { all: { distance: number }[] };
    expect(cloze.all.map((c) => c.distance)).toEqual([-4, -3, -2, -1, 1, 2, 3, 4]);
    // the three drops carry bootstrap intervals over the pairs used, in the details beside the table
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as {
      metrics: Record<string, number>;
      details: { intervals: Record<string, { value: number; low: number; high: number; n: number; method: string }> };
    };
    for (const key of ['near_error_drop', 'far_drop', 'near_minus_far']) {
      const iv = summary.details.intervals[key]!;
      expect(iv).toMatchObject({ n: summary.metrics.pairs_used, method: 'bootstrap' });
      expect(iv.value).toBeCloseTo(summary.metrics[key]!, 12);
      expect(iv.low).toBeLessThanOrEqual(iv.value);
      expect(iv.high).toBeGreaterThanOrEqual(iv.value);
    }
    expect(r.stdout).toMatch(/95% bootstrap intervals over \d+ pairs/);
  }, 60_000);

  it('says clearly when a model cannot be probed', async () => {
    const r = await runCli(['probe', 'cloze', '--model', TINY, '--out', tmp('probe-bad'), '--no-progress']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/cloze recipe runs on fill-mask models, but .* is text-classification/);
  }, 60_000);
});
