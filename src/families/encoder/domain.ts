/**
 * Inside the encoder (Yin et al. 2020, §5–6): probing data of minimal pairs per grammar error type, layer probes with
 * self-attention pooling, per-head localisation and the masked-LM cloze test.
 */
export {
  clozeTest,
  singleDifference,
  type ClozeCell,
  type ClozeOptions,
  type ClozeResult,
  type ClozeTypeResult,
  type ClozeUnit,
} from './cloze.ts';
export { extractFeatures, headProfile, type HeadQuery, type SentenceFeatures } from './features.ts';
export {
  probeLayers,
  randomTop2,
  type AttentionExample,
  type LayerProbeOptions,
  type LayerProbeResult,
  type Share,
  type TypeResult,
} from './layers.ts';
export { applyError, buildMinimalPairs, type PairOptions, type MinimalPair, type MinimalPairSet, type Split, type Words } from './pairs.ts';
export {
  PAPER_LAYER_PROBE,
  topK,
  trainLayerProbe,
  type LayerProbeExample,
  type ProbeSettings,
  type TrainedLayerProbe,
} from './classifier.ts';
export {
  defaultSentenceSources,
  PAIR_WORDS,
  PAPER_WORDS,
  readSentences,
  usableSentence,
  WORDNET_SOURCE,
  type WordRange,
} from './sentences.ts';
export {
  buildErrorSentences,
  pairsToSentences,
  PROBE_DESIGNS,
  type ProbeDesign,
  type ProbeSentence,
  type ProbeSentenceSet,
  type SentenceSetOptions,
} from './layer-probe-sentences.ts';
