/**
 * results.jsonl is written in input order whatever the concurrency, and summary.json is the same bytes for the
 * same seed: only wall_seconds (a time) and `process` (this process's query traffic) may differ.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { QueryEngine } from '../../src/query/engine.ts';
import { BUILTIN_RECIPES } from '../../src/families/index.ts';
import { createRegistry } from '../../src/recipes/registry/registry.ts';
import { runRecipe } from '../../src/kinds/run.ts';
import { lexiconModel } from '../core/helpers.ts';
import { tmp } from '../cli/helpers.ts';

const registry = createRegistry(BUILTIN_RECIPES);
const texts = ['a good film', 'good good nice plot', 'bad acting', 'nice and good', 'the good the bad', 'so good , so nice'];
const data = join(tmp('determinism-data'), 'reviews.tsv');
writeFileSync(
  data,
  'sentence\tlabel\n' +
    Array.from({ length: 40 }, (_, i) => `${texts[i % texts.length]} ${'x '.repeat(i % 4)}\t${i % 5 === 0 ? 0 : 1}\n`).join(''),
);

async function typos(concurrency: number): Promise<{ results: string; summary: string }> {
  const out = tmp(`determinism-c${concurrency}`);
  await runRecipe({
    registry,
    recipe: 'typos',
    settings: { target: 'random', k: 3 },
    model: 'lexicon',
    data,
    labelMap: '0=negative,1=positive',
    out,
    seed: 11,
    concurrency,
    shared: { model: lexiconModel, engine: new QueryEngine(lexiconModel) },
  });
  const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as Record<string, unknown>;
  return { results: readFileSync(join(out, 'results.jsonl'), 'utf8'), summary: JSON.stringify({ ...summary, wall_seconds: 0 }, null, 2) };
}

describe('run determinism', () => {
  it('concurrency 1 and 4 write the same results.jsonl and summary.json, byte for byte (wall_seconds aside)', async () => {
    const one = await typos(1);
    const four = await typos(4);
    const ids = one.results
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { id: string }).id);
    // Input order: the data rows by line number.
    expect(ids).toEqual(Array.from({ length: 40 }, (_, i) => `reviews.tsv:${i + 2}`));
    expect(JSON.parse(one.summary)).toMatchObject({ n: 40, attacked: 27, succeeded: 21, process: { requests: 2185 } });
    expect(four.results).toBe(one.results);
    expect(four.summary).toBe(one.summary);
  });
});
