/**
 * TextFooler (Jin et al. 2020, "Is BERT Really Robust? A Strong Baseline for Natural Language Attack on Text
 * Classification and Entailment"), as TextAttack's textfooler_jin_2019.py composes it: each word swapped for one of
 * its 50 nearest embedding neighbours with cosine ≥ 0.5, no word modified twice, none of TextFooler's stopwords
 * modified, the same part of speech (nouns and verbs interchangeable), sentence similarity ≥ 0.840845057 (angular,
 * 15-word window, against the text before the swap; texts under 15 words pass), untargeted classification, greedy
 * search by deletion importance.
 */
import { z } from 'zod';
import type { Attack } from '../../core/attack.ts';
import { editZone, noRepeatEdits, type Constraint } from '../../core/constraints.ts';
import { wordEmbeddingDistance } from '../../core/embedding-distance.ts';
import { partOfSpeech } from '../../core/part-of-speech.ts';
import type { SimilarityOptions } from '../../core/sentence-similarity.ts';
import { stopwords } from '../../core/text-constraints.ts';
import { defineAttack } from '../../recipes/registry/define.ts';
import { TEXTFOOLER_STOPWORDS } from '../../text/textfooler-stopwords.ts';
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

/** Neighbours per word (TextAttack's WordSwapEmbedding(max_candidates=50)). */
export const TEXTFOOLER_NEIGHBOURS = 50;

/**
 * The recipe's sentence-similarity constraint: the paper's ε = 0.5 on 1 − arccos(cos) without the division by π that
 * TextFooler's code leaves out, i.e. angular similarity ≥ 1 − 0.5/π = 0.840845057 (TextAttack's re-derivation).
 */
export const TEXTFOOLER_SIMILARITY: SimilarityOptions = {
  threshold: 0.840845057,
  metric: 'angular',
  compareAgainst: 'previous',
  window: 15,
  skipShorterThanWindow: true,
};

/** Settings of the `textfooler` recipe: its resources (word vectors, sentence encoder, masked LM) and TextAttack's thresholds. */
export const textFoolerSettings = z.strictObject({
  ...classicSettings,
  ...wordVectorRecipeSettings(TEXTFOOLER_SIMILARITY.threshold, 'angular, 15-word window, against the text before the swap'),
  minCosine: z
    .number()
    .min(-1)
    .max(1)
    .default(0.5)
    .describe('lowest cosine between a word’s vector and its replacement’s (the released code’s 0.5; the paper says 0.7)'),
  wir: wirSetting('delete'),
  unkToken: unkTokenSetting,
});

/** What textFoolerAttack needs. */
export interface TextFoolerOptions extends LmAttackOptions {
  minCosine: number;
  mlmSubwords: 'strip' | 'drop';
}

/** TextFooler composed (see the file comment); WordNet (+ the masked LM) and no cosine bound without word vectors. */
export function textFoolerAttack(o: TextFoolerOptions): Attack {
  const r = o.resources;
  const constraints: Constraint[] = [editZone(), noRepeatEdits, stopwords(TEXTFOOLER_STOPWORDS, 'textfooler-stopwords')];
  if (r.embeddings) constraints.push(wordEmbeddingDistance(r.embeddings, o.minCosine));
  constraints.push(partOfSpeech({ allowVerbNounSwap: true }));
  if (r.similarity) constraints.push(r.similarity.constraint());
  return lmAttack('textfooler', neighbourSwap(r, TEXTFOOLER_NEIGHBOURS, 'textfooler', o.mlmSubwords), constraints, o);
}

/** The `textfooler` attack recipe (TextFooler, as TextAttack composes it). */
export const textFoolerRecipe = defineAttack({
  name: 'textfooler',
  summary:
    'TextFooler: ranks words by the drop in the true class when each is deleted, then swaps each for the best of its 50 ' +
    'nearest embedding neighbours (cosine ≥ 0.5, same part of speech, the text still similar to the one before the swap), ' +
    'keeping the swap while it helps, until the label flips',
  paper: 'Jin et al. 2020 (TextFooler); TextAttack textfooler_jin_2019',
  resources: [
    'word vectors: --embeddings FILE (GloVe text format, counter-fitted as published; optional: WordNet synonyms, + --mlm words, and no cosine bound without)',
    'a sentence encoder: --sentence-encoder FOLDER|HUB_ID (optional: the similarity constraint is off without)',
    "TextFooler's stopword list (bundled); part-of-speech tags from wink-nlp (bundled)",
  ],
  tasks: ['text-classification', 'pair-classification'],
  settings: textFoolerSettings,
  build: async (s, ctx) => {
    const similarity = { ...TEXTFOOLER_SIMILARITY, threshold: s.similarityThreshold };
    const resources = await openLmResources(ctx, { embeddings: s.embeddings, sentenceEncoder: s.sentenceEncoder, mlm: s.mlm, similarity });
    return {
      attack: textFoolerAttack({ ...lmAttackOptions(s, ctx, resources), minCosine: s.minCosine, mlmSubwords: s.mlmSubwords }),
      details: lmDetails(ctx.seed, {
        word_swaps: wordSwapsRecord(resources, TEXTFOOLER_NEIGHBOURS),
        word_embedding_cosine: resources.embeddings
          ? { used: true, min: s.minCosine }
          : { used: false, min: s.minCosine, why: 'no --embeddings' },
        part_of_speech: { used: true, tagger: 'wink-nlp (wink-eng-lite-web-model), universal tagset', allow_verb_noun_swap: true },
        sentence_similarity: similarityRecord(resources.similarity, similarity),
      }),
      close: () => resources.close(),
    };
  },
  report: classicFamily,
});
