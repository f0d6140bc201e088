/**
 * The subword analysis (Figure 2) on a real tokenizer: the fixture tagger test/fixtures/models/tiny-bert-tok
 * (random weights, a real WordPiece vocabulary) probed in process; each variant's names get the piece counts the
 * model's own tokenizer gives them, and the digest bins them 1 / 2 / ≥3.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadModel } from '../../src/models/load.ts';
import { QueryEngine } from '../../src/query/engine.ts';
import { builtinRegistry } from '../../src/families/index.ts';
import { runRecipeAs } from '../../src/kinds/run.ts';
import { readResults } from '../../src/runner/checkpoint.ts';
import type { EntityDetails } from '../../src/families/entities/table3.ts';
import { ROOT, tmp } from '../cli/helpers.ts';

describe('entity probe on a tokenizing fixture model', () => {
  it('counts subword pieces per replacement name and bins the variants by them', async () => {
    const model = await loadModel(join(ROOT, 'test', 'fixtures', 'models', 'tiny-bert-tok'));
    const out = tmp('entities-tok');
    const outcome = await runRecipeAs('probe', {
      registry: builtinRegistry(),
      recipe: 'entities',
      settings: { budget: 3 },
      model: 'tiny-bert-tok',
      data: join(ROOT, 'demo', 'news.conll'),
      limit: 4,
      out,
      seed: 5,
      shared: { model, engine: new QueryEngine(model) },
    });
    const details = outcome.summary.details as unknown as EntityDetails;
    expect(details).toMatchObject({ n: 4, probed: 2, not_applicable: 2 });
    const results = [];
    for await (const r of readResults(join(out, 'results.jsonl'))) results.push(r);
    const samples = results.flatMap((r) => r.probe?.samples ?? []);
    expect(samples).toHaveLength(6);
    for (const s of samples) {
      expect(s.pieces).toHaveLength(s.names.length);
      for (const [k, name] of s.names.entries()) expect(s.pieces![k]).toBe((await model.tokenize!(name)).length);
    }
    // The fixture's small vocabulary splits every name (first and last, 2 per variant) into 3 or more pieces.
    expect(samples.flatMap((s) => s.pieces!).every((p) => p >= 3)).toBe(true);
    expect(details.by_subwords!.map((b) => [b.bin, b.n])).toEqual([
      ['1', 0],
      ['2', 0],
      ['≥3', 12],
    ]);
    await model.close?.();
  });
});
