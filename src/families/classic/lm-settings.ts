/**
 * The settings of the resources TextBugger, BAE and TextFooler need and textstress cannot ship (word vectors, a
 * sentence encoder, a masked LM): each names a file, folder or hub id, and each recipe says what it does without it.
 */
import { z } from 'zod';

/** `--embeddings FILE`: word vectors in GloVe's text format; without them, WordNet (+ the masked LM) instead. */
export const embeddingsSetting = z
  .string()
  .min(1)
  .nullable()
  .default(null)
  .describe(
    'word vectors in GloVe text format ("word v1 … vd" per line, optionally after a word2vec "count dim" line; TextAttack ' +
      'uses counter-fitted PARAGRAM vectors), indexed once into FILE.tsidx; none = WordNet synonyms, then the --mlm ' +
      "model's words, instead of embedding neighbours",
  );

/** `--sentence-encoder FOLDER|HUB_ID`: any transformers.js feature-extraction model; none = the constraint is off. */
export const sentenceEncoderSetting = z
  .string()
  .min(1)
  .nullable()
  .default(null)
  .describe(
    'sentence encoder for the sentence-similarity constraint (a transformers.js feature-extraction folder or hub id, ' +
      'mean-pooled; TextAttack uses the Universal Sentence Encoder); none = the constraint is off',
  );

/** `--mlm FOLDER|HUB_ID` for recipes where it is optional (candidates beside WordNet when there are no word vectors). */
export const optionalMlmSetting = z
  .string()
  .min(1)
  .nullable()
  .default(null)
  .describe(
    'masked language model (a transformers.js fill-mask folder or hub id, e.g. models/demo-mlm) whose words at the masked ' +
      'position add to the WordNet synonyms when there are no --embeddings',
  );

/** Whether a masked LM's sub-word predictions become words (TextAttack's code) or are dropped (the BAE paper). */
export const mlmSubwordsSetting = z
  .enum(['strip', 'drop'])
  .default('strip')
  .describe(
    'a masked-LM prediction that continues a word ("##ing"): strip = keep it without its marker, as TextAttack\'s code does; ' +
      'drop = leave it out, as the BAE paper says',
  );

/** A similarity threshold with the recipe's published value as its default. */
export const similarityThresholdSetting = (published: number, what: string) =>
  z.number().min(-1).max(1).default(published).describe(`sentence-similarity threshold (${what})`);

/**
 * The settings of the word-vector recipes (TextBugger, TextFooler): the vectors, the sentence encoder and its
 * threshold (the recipe's published one as the default), and the masked LM that stands in for missing vectors.
 */
export const wordVectorRecipeSettings = (threshold: number, what: string) => ({
  embeddings: embeddingsSetting,
  sentenceEncoder: sentenceEncoderSetting,
  similarityThreshold: similarityThresholdSetting(threshold, what),
  mlm: optionalMlmSetting,
  mlmSubwords: mlmSubwordsSetting,
});
