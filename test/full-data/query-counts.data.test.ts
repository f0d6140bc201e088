/**
 * Query-count regression (issue 33 item 3: the searches spend no query they do not need). Seeded attacks on demo-sst2
 * over the SST-2 fixture slice, each example's distinct queries and requests pinned exactly: AFTER as this code gives
 * them, BEFORE as commit 0b5e003 gave them (the code before the waste was removed). Every example's outcome (status,
 * attacked text, edits, prediction) is pinned by a digest that both codes give alike, so the fewer queries bought
 * nothing but the queries. The digests are of the texts as the loaders give them since issue 32 item 1 (white space at
 * the ends stripped: SST-2's final space is gone from every attacked text); the query counts did not change with it.
 *
 * Where the savings come from: grammar's greedy search and a typo attack whose sources draw nothing (pronounce) no
 * longer occlude words that offer no edit; PWWS reuses the candidates its ranking already scored on the clean text;
 * the genetic search scores each gene set once; and every repeat is answered from the example's own session.
 *
 * It needs only the checkout, but runs under `npm run test:data` (6–12 s on 2 cores, by load: over npm test's budget);
 * npm test has the unit version in test/core/greedy.test.ts.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExampleResult } from '../../src/core/result.ts';
import { BUILTIN_RECIPES } from '../../src/families/index.ts';
import { runRecipe } from '../../src/kinds/run.ts';
import type { ModelAdapter } from '../../src/models/types.ts';
import { QueryEngine } from '../../src/query/engine.ts';
import { createRegistry } from '../../src/recipes/registry/registry.ts';
import { openModel } from '../../src/runner/open.ts';
import { DEMO_SST2, SST2_DEV, tmp } from '../cli/helpers.ts';

interface Pinned {
  recipe: string;
  settings: Record<string, unknown>;
  limit: number;
  before: { queries: number[]; requests: number[] };
  after: { queries: number[]; requests: number[] };
  outcomes: string;
}

const PINNED: Pinned[] = [
  {
    recipe: 'grammar',
    settings: { search: 'greedy' },
    limit: 12,
    before: {
      queries: [41, 11, 45, 52, 8, 21, 9, 27, 22, 116, 22, 29],
      requests: [41, 11, 45, 52, 8, 21, 9, 27, 22, 116, 22, 29],
    },
    after: {
      queries: [39, 11, 42, 49, 5, 18, 8, 24, 18, 109, 21, 24],
      requests: [39, 11, 42, 49, 5, 18, 8, 24, 18, 109, 21, 24],
    },
    outcomes: '2abc8516724cf901',
  },
  {
    recipe: 'typos',
    settings: { k: 3, sources: ['pronounce'] },
    limit: 12,
    before: { queries: [20, 7, 23, 31, 9, 27, 6, 17, 25, 34, 29, 36], requests: [20, 7, 23, 31, 9, 27, 6, 17, 25, 34, 29, 36] },
    after: { queries: [18, 6, 16, 28, 8, 22, 6, 13, 17, 22, 24, 26], requests: [18, 6, 16, 28, 8, 22, 6, 13, 17, 22, 24, 26] },
    outcomes: '900ab262f08ec766',
  },
  {
    // All six sources: every word of two letters or more offers typos, so nothing was wasted and nothing changes.
    recipe: 'typos',
    settings: { k: 2 },
    limit: 12,
    before: { queries: [91, 40, 55, 98, 78, 66, 44, 32, 60, 101, 106, 59], requests: [91, 40, 55, 98, 78, 66, 44, 32, 60, 101, 106, 59] },
    after: { queries: [91, 40, 55, 98, 78, 66, 44, 32, 60, 101, 106, 59], requests: [91, 40, 55, 98, 78, 66, 44, 32, 60, 101, 106, 59] },
    outcomes: 'a9a881285d64b62c',
  },
  {
    recipe: 'pwws',
    settings: {},
    limit: 12,
    before: {
      queries: [47, 16, 60, 128, 66, 160, 24, 33, 83, 191, 198, 120],
      requests: [68, 24, 72, 142, 87, 168, 36, 53, 87, 195, 209, 123],
    },
    after: {
      queries: [47, 16, 60, 128, 66, 160, 24, 33, 83, 191, 198, 120],
      requests: [47, 16, 60, 128, 66, 160, 24, 33, 83, 191, 198, 120],
    },
    outcomes: 'f3cdf753011652db',
  },
  {
    recipe: 'grammar',
    settings: { search: 'genetic', population: 20 },
    limit: 8,
    before: { queries: [72, 43, 374, 473, 37, 504, 31, 83], requests: [518, 231, 545, 761, 586, 1150, 436, 285] },
    after: { queries: [72, 43, 374, 473, 37, 504, 31, 83], requests: [76, 44, 375, 484, 39, 511, 35, 84] },
    outcomes: '453ab643c0275a58',
  },
];

const registry = createRegistry(BUILTIN_RECIPES);
let model: ModelAdapter;
beforeAll(async () => {
  model = await openModel({ model: DEMO_SST2 });
});
afterAll(() => model?.close?.());

describe('query counts of seeded attacks on demo-sst2 (before → after the waste was removed)', () => {
  for (const p of PINNED) {
    it(`${p.recipe} ${JSON.stringify(p.settings)}: the same outcomes with fewer or as many queries and requests`, async () => {
      // The pinned figures themselves: after never above before, example by example.
      p.after.queries.forEach((q, i) => expect(q).toBeLessThanOrEqual(p.before.queries[i]!));
      p.after.requests.forEach((q, i) => expect(q).toBeLessThanOrEqual(p.before.requests[i]!));
      const out = tmp(`query-counts-${p.recipe}`);
      await runRecipe({
        registry,
        recipe: p.recipe,
        settings: p.settings,
        model: DEMO_SST2,
        data: SST2_DEV,
        limit: p.limit,
        seed: 0,
        out,
        shared: { model, engine: new QueryEngine(model) },
      });
      const rs = readFileSync(join(out, 'results.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as ExampleResult);
      expect({ queries: rs.map((r) => r.queries), requests: rs.map((r) => r.requests) }).toEqual(p.after);
      const digest = createHash('sha1')
        .update(JSON.stringify(rs.map((r) => [r.id, r.status, r.perturbed, r.edits, r.perturbed_prediction])))
        .digest('hex')
        .slice(0, 16);
      expect(digest).toBe(p.outcomes);
    });
  }
});
