import { describe, expect, it } from 'vitest';
import { attackExample, type Attack } from '../../src/core/attack.ts';
import { editZone, maxEdits, noRepeatEdits } from '../../src/core/constraints.ts';
import { UntargetedClassification } from '../../src/core/goals/index.ts';
import { LabelAligner } from '../../src/core/labels.ts';
import { BeamSearch } from '../../src/core/search/beam.ts';
import { GeneticSearch } from '../../src/core/search/genetic.ts';
import type { SearchMethod } from '../../src/core/search/types.ts';
import type { TextExample } from '../../src/data/types.ts';
import type { ModelAdapter } from '../../src/models/types.ts';
import { QueryEngine } from '../../src/query/engine.ts';
import { Rng } from '../../src/util/rng.ts';
import { lexiconModel, toyEdits } from './helpers.ts';

const goal = new UntargetedClassification(new LabelAligner(['negative', 'positive'], ['negative', 'positive']));

/** The lexicon model, counting predict() calls and their sizes. */
function counting(): ModelAdapter & { batches: number[] } {
  const batches: number[] = [];
  return {
    info: lexiconModel.info,
    batches,
    predict: (inputs) => {
      batches.push(inputs.length);
      return lexiconModel.predict(inputs);
    },
  };
}

const attack = (search: SearchMethod, k = 2): Attack => ({
  name: 'test',
  transformation: toyEdits,
  constraints: [editZone(), noRepeatEdits, maxEdits(k)],
  goal,
  search,
});

const example: TextExample = { kind: 'text', id: 'e1', text: 'a good and nice film', label: 'positive' };

describe('BeamSearch (grammar paper, Algorithm 2)', () => {
  it('keeps the best states, scores a whole level in one batch, and stops at the first success', async () => {
    const model = counting();
    const r = await attackExample(attack(new BeamSearch(5)), example, new QueryEngine(model).session(), new Rng(0));
    expect(r.status).toBe('succeeded');
    // Taking out the two positive words is the only 2-edit flip; "okay" in their place beats deleting them
    // (a longer text lowers the model's P(positive)).
    expect(r.perturbed.text).toBe('a okay and okay film');
    expect(r.edits.map((e) => [e.type, e.before, e.after])).toEqual([
      ['toy:replace', 'good', 'okay'],
      ['toy:replace', 'nice', 'okay'],
    ]);
    // clean query, then one batch per beam level
    expect(model.batches).toHaveLength(3);
    expect(r.trace.map((t) => t.edits)).toEqual([1, 2]);
  });

  it('fails within the budget when one edit is not enough, returning the best state', async () => {
    const r = await attackExample(attack(new BeamSearch(5), 1), example, new QueryEngine(lexiconModel).session(), new Rng(0));
    expect(r.status).toBe('failed');
    expect(r.perturbed.text).toBe('a okay and nice film');
  });
});

describe('GeneticSearch (grammar paper, Algorithm 3, after Alzantot et al.)', () => {
  const genetic = (): GeneticSearch => new GeneticSearch({ population: 12, generationRate: 0.6 });

  it('finds the flip with a fixed seed, one batch per generation, and is reproducible', async () => {
    const model = counting();
    const run = async (seed: number) => attackExample(attack(genetic()), example, new QueryEngine(model).session(), new Rng(seed));
    const r = await run(3);
    expect(r.status).toBe('succeeded');
    expect(r.edits).toHaveLength(2);
    expect(r.perturbed_prediction.label).toBe('negative');
    // clean query + initial population + at most 3 generations (0.6 × 5 words), each ONE batch
    expect(model.batches.length).toBeLessThanOrEqual(1 + 1 + 3);
    const again = await run(3);
    expect(again.perturbed).toEqual(r.perturbed);
    expect(again.edits).toEqual(r.edits);
  });

  it('never exceeds the budget and never edits a word twice', async () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const r = await attackExample(attack(genetic(), 1), example, new QueryEngine(lexiconModel).session(), new Rng(seed));
      expect(r.edits.length).toBeLessThanOrEqual(1);
      expect(r.status).toBe('failed');
    }
  });
});
