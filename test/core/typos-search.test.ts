import { describe, expect, it } from 'vitest';
import { attackExample } from '../../src/core/attack.ts';
import { UntargetedClassification } from '../../src/core/goals/index.ts';
import { LabelAligner } from '../../src/core/labels.ts';
import type { ExampleResult } from '../../src/core/result.ts';
import type { TextExample } from '../../src/data/types.ts';
import { insertionTypos, typoCandidates, TYPO_SOURCE_NAMES } from '../../src/perturb/index.ts';
import { QueryEngine } from '../../src/query/engine.ts';
import { typoAttack, type TypoAttackOptions } from '../../src/families/typos/attack.ts';
import { accuracyByWords } from '../../src/families/typos/curve.ts';
import { WordSeq } from '../../src/text/word-seq.ts';
import { Rng } from '../../src/util/rng.ts';
import { lexiconModel } from './helpers.ts';

const goal = new UntargetedClassification(new LabelAligner(['negative', 'positive'], ['negative', 'positive']));
const example: TextExample = { kind: 'text', id: 'e1', text: 'a good and nice film', label: 'positive' };

async function run(opts: Partial<TypoAttackOptions>, seed = 0): Promise<ExampleResult> {
  const engine = new QueryEngine(lexiconModel);
  return attackExample(typoAttack({ goal, target: 'max', k: 1, ...opts }), example, engine.session(), new Rng(seed));
}

const edits = (r: ExampleResult): string[][] => r.edits.map((e) => [e.before, e.after, e.type]);
const trace = (r: ExampleResult): [number, boolean][] => r.trace.map((t) => [t.edits, t.correct]);

describe('typos recipe: the paper-exact switches (Adv-BERT Algorithm 1)', () => {
  it('exhaustive tries every candidate of every source at the word, so the seed no longer matters', async () => {
    // "good": 72 distinct typos from the six sources; the default caps sample 34 of them
    const word = (opts?: { maxCandidates: number }) => typoCandidates(WordSeq.parse(example.text), 1, TYPO_SOURCE_NAMES, new Rng(0), opts);
    expect([word().length, word({ maxCandidates: Infinity }).length]).toEqual([34, 72]);
    for (const seed of [0, 5]) {
      const r = await run({ exhaustive: true }, seed);
      // 1 clean + 4 occlusions + all 72 candidates of "good"; every typo of "good" scores the same, the first wins
      expect(r.queries).toBe(77);
      expect(edits(r)).toEqual([['good', 'fgood', 'typo:insertion']]);
    }
    // default: 34 sampled candidates, and which insertion comes first depends on the seed
    expect([(await run({}, 0)).queries, edits(await run({}, 0)), edits(await run({}, 5))]).toEqual([
      39,
      [['good', 'glood', 'typo:insertion']],
      [['good', 'fgood', 'typo:insertion']],
    ]);
    expect(insertionTypos('good', new Rng(0), { maxCandidates: Infinity })[0]).toBe('fgood');
    expect(() => typoAttack({ goal, target: 'max', k: 1, exhaustive: true, maxCandidates: 4 })).toThrow(
      /cannot be combined with maxCandidates/,
    );
  });

  it('skipUneditable: false makes K the top-K words: a word without typos uses up its place', async () => {
    // pronounce has nothing for "good" (the most important word), "nicce"/"nise" for "nice", "philm" for "film"
    const today = await run({ sources: ['pronounce'] });
    expect(edits(today)).toEqual([['nice', 'nicce', 'typo:pronounce']]);
    expect(trace(today)).toEqual([[1, true]]);

    const top1 = await run({ sources: ['pronounce'], skipUneditable: false });
    expect(edits(top1)).toEqual([]);
    expect(trace(top1)).toEqual([[0, true]]);
    expect(top1.queries).toBe(5); // clean + 4 occlusions, nothing to try at "good"

    const top2 = await run({ sources: ['pronounce'], skipUneditable: false, k: 2 });
    expect(edits(top2)).toEqual([['nice', 'nicce', 'typo:pronounce']]);
    expect(trace(top2)).toEqual([
      [0, true],
      [1, true],
    ]);
  });
});

describe('typos-curve in top-K mode: accuracy after the top K words, from the traces', () => {
  const result = (original_correct: boolean, points: boolean[]): ExampleResult =>
    ({
      original_correct,
      trace: points.map((correct, k) => ({ edits: k, correct, done: !correct, score: 0, label: '' })),
    }) as ExampleResult;
  async function* stream(rs: ExampleResult[]): AsyncIterable<ExampleResult> {
    yield* rs;
  }

  it('reads trace point K − 1 for K, the last point when the search stopped early, and counts wrong originals as wrong', async () => {
    const rs = [
      result(true, [true, true, false]), // flipped at the third word
      result(true, [false]), // flipped at once
      result(true, [true]), // one word only
      result(true, []), // nothing visited
      result(false, []), // already wrong
    ];
    expect(await accuracyByWords(stream(rs), 4)).toEqual([4 / 5, 3 / 5, 3 / 5, 2 / 5, 2 / 5]);
    expect(await accuracyByWords(stream([]), 2)).toEqual([0, 0, 0]);
  });
});
