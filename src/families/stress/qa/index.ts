/**
 * QA stress tests (Aspillaga et al. 2020, "Stress Test Evaluation of Transformer-based Models in Natural
 * Language Understanding Tasks", SQuAD v1.1): context noise with gold spans re-mapped, and Jia & Liang's
 * adversarial SQuAD scoring; Jia & Liang's AddAny / AddCommon generators, which query the model through the
 * query engine. Seeded where they choose.
 */
export { qaContextNoise, type QaNoised, type QaNoiseOptions } from './noise.ts';
export * from './adversarial-squad.ts';
export * from './add-any.ts';
export { runAddAny, summarizeAddAny, type AddAnySummary, type RunAddAnyOptions } from './add-any-run.ts';
export { COMMON_WORD_COUNT, COMMON_WORD_EXCLUSIONS, commonWords } from './common-words.ts';
