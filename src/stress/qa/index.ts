/**
 * QA stress tests (Aspillaga et al. 2020, "Stress Test Evaluation of Transformer-based Models in Natural
 * Language Understanding Tasks", SQuAD v1.1): context noise with gold spans re-mapped, and Jia & Liang's
 * adversarial SQuAD scoring. Pure functions, seeded where they choose.
 */
export { qaContextNoise, type QaNoised, type QaNoiseOptions } from './noise.ts';
export * from './adversarial-squad.ts';
