import { describe, expect, it } from 'vitest';
import { attackExample } from '../../src/core/attack.ts';
import { UntargetedClassification } from '../../src/core/goals/index.ts';
import { LabelAligner } from '../../src/core/labels.ts';
import type { TextExample } from '../../src/data/types.ts';
import { DEFAULT_ERROR_DISTRIBUTION, NUCLE_COUNTS, sampleGrammarError } from '../../src/perturb/grammar/index.ts';
import { QueryEngine } from '../../src/query/engine.ts';
import { grammarAttack } from '../../src/families/grammar/attack.ts';
import { Rng } from '../../src/util/rng.ts';
import { lexiconModel } from '../core/helpers.ts';

const goal = new UntargetedClassification(new LabelAligner(['negative', 'positive'], ['negative', 'positive']));
const example: TextExample = {
  kind: 'text',
  id: 'p1',
  text: 'The parents said that the children grow up quickly, and they like the good films in the old town.',
  label: 'positive',
};

async function run(seed: number, opts: Partial<Parameters<typeof grammarAttack>[0]> = {}) {
  const attack = grammarAttack({ goal, search: 'probabilistic', ...opts });
  return attackExample(attack, example, new QueryEngine(lexiconModel).session(), new Rng(seed));
}

describe('probabilistic grammar errors (the average case)', () => {
  it('documents its NUCLE-based default distribution, summing to 1', () => {
    const sum = Object.values(DEFAULT_ERROR_DISTRIBUTION).reduce((s, x) => s + x, 0);
    expect(sum).toBeCloseTo(1, 10);
    expect(DEFAULT_ERROR_DISTRIBUTION.ArtOrDet).toBeCloseTo(6658 / 23543, 10);
    expect(NUCLE_COUNTS.Wchoice).toBe(5300);
  });

  it('is reproducible per seed and puts round(rate × words) errors in, one model query', async () => {
    const a = await run(11);
    const b = await run(11);
    expect(a.perturbed).toEqual(b.perturbed);
    expect(a.edits).toEqual(b.edits);
    // 19 words: the rate asks for round(0.15 × 19) = 3 errors, the 15% budget allows floor(2.85) = 2
    expect(a.edits).toHaveLength(2);
    expect((await run(11, { budget: 0.2 })).edits).toHaveLength(3);
    expect(a.queries).toBe(2);
    const texts = new Set(await Promise.all([1, 2, 3, 4, 5, 6].map(async (s) => (await run(s)).perturbed.text)));
    expect(texts.size).toBeGreaterThan(3);
  });

  it('follows an overridden distribution: only the types given a weight occur', async () => {
    for (const seed of [1, 2, 3]) {
      const r = await run(seed, { distribution: { Nn: 1 } });
      expect(r.edits.map((e) => e.type)).toEqual(['grammar:Nn', 'grammar:Nn']);
    }
    const one = await run(4, { errorRate: 0.05, distribution: { SVA: 1 } });
    expect(one.edits.map((e) => [e.before, e.after])).toEqual([['grow', 'grows']]);
  });

  it('samples an error type in proportion to its weight', () => {
    const cands = [
      { wordIndex: 0, after: 'x', type: 'grammar:Nn', weight: 1 },
      { wordIndex: 1, after: 'y', type: 'grammar:SVA', weight: 1 },
    ];
    const rng = new Rng(5);
    let nn = 0;
    for (let k = 0; k < 2000; k++) if (sampleGrammarError(cands, rng, { Nn: 3, SVA: 1 }) === 0) nn++;
    expect(nn / 2000).toBeGreaterThan(0.7);
    expect(nn / 2000).toBeLessThan(0.8);
    expect(sampleGrammarError([], rng)).toBe(-1);
  });
});
