/**
 * QA stress tests (Aspillaga et al. 2020, "Stress Test Evaluation of Transformer-based Models in Natural
 * Language Understanding Tasks", SQuAD v1.1): pure functions, seeded where they choose.
 */
export { qaContextNoise, type QaNoised, type QaNoiseOptions } from './noise.ts';
