import type { Transformation } from '../../src/core/transformation.ts';
import type { ModelAdapter, ModelOutput } from '../../src/models/types.ts';

/**
 * A transparent scoring model for search tests: P(positive) = (1 + #"good" + 0.5·#"nice") / (2 + #words),
 * so the effect of every edit on the score can be worked out by hand.
 */
export const lexiconModel: ModelAdapter = {
  info: { id: 'lexicon', task: 'text-classification', labels: ['negative', 'positive'] },
  async predict(inputs): Promise<ModelOutput[]> {
    return inputs.map((input) => {
      const text = input.kind === 'text' ? input.text : input.kind === 'pair' ? input.textB : '';
      const words = text.split(/\s+/).filter(Boolean);
      const good = words.filter((w) => w === 'good').length + 0.5 * words.filter((w) => w === 'nice').length;
      const p = (1 + 2 * good) / (2 + 2 * good + words.length * 0.1);
      return { kind: 'classes', labels: ['negative', 'positive'], probs: [1 - p, p] };
    });
  },
};

/** Proposes two misspellings per word: drop the last letter, or double the first. */
export const twoTypos: Transformation = {
  name: 'two-typos',
  candidates: (state, indices) =>
    indices.flatMap((i) => {
      const w = state.seq.words[i]!;
      return [
        { wordIndex: i, after: w.slice(0, -1), type: 'typo:drop-last' },
        { wordIndex: i, after: w[0] + w, type: 'typo:double-first' },
      ];
    }),
};

/** At every word: delete it, replace it by "okay", or insert "meh" before it. */
export const toyEdits: Transformation = {
  name: 'toy',
  candidates: (_state, indices) =>
    indices.flatMap((i) => [
      { wordIndex: i, after: '', type: 'toy:delete', op: 'delete' as const },
      { wordIndex: i, after: 'okay', type: 'toy:replace' },
      { wordIndex: i, after: 'meh', type: 'toy:insert', op: 'insert' as const },
    ]),
};
