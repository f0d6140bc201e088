export * from './vocabulary.ts';
export * from './evolve.ts';
export * from './threshold.ts';
export * from './target.ts';
