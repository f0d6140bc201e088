/**
 * textstress as a library: load data and models, compose or pick an attack, run it.
 *
 *   import { loadModel, openDataset, QueryEngine, typoAttack, goalFor, runAttack } from 'textstress';
 */
export * from './data/index.ts';
export * from './models/index.ts';
export * from './perturb/index.ts';
export { QueryEngine, QuerySession, type QueryEngineOptions, type QueryEngineStats } from './query/engine.ts';
export { attackExample, type Attack } from './attack/attack.ts';
export * from './attack/constraints.ts';
export type { Edit, WordCandidate } from './attack/edit.ts';
export { EntityF1Drop, UntargetedClassification, type Goal, type GoalFactory, type GoalStatus, type Prediction } from './attack/goal.ts';
export { LabelAligner, parseLabelMap } from './attack/labels.ts';
export type { ExampleResult, AttackStatus, TracePoint } from './attack/result.ts';
export { GreedyWordSearch } from './attack/search/greedy-word.ts';
export { OneShotSearch, type WholeTextTransform } from './attack/search/one-shot.ts';
export type { SearchContext, SearchMethod, SearchOutcome } from './attack/search/types.ts';
export { rankWords, type WordTarget } from './attack/search/word-importance.ts';
export { applyCandidate, initialState, type AttackState, type Scored } from './attack/state.ts';
export { makeSubject, type AttackSubject, type EditableField } from './attack/subject.ts';
export type { Transformation } from './attack/transformation.ts';
export { typoAttack, typoTransformation, ALL_TYPO_SOURCES } from './recipes/typos.ts';
export { noiseAttack } from './recipes/noise.ts';
export { goalFor } from './recipes/goal-for.ts';
export { runAttack, type RunOptions, type RunSettings, type RunSummary } from './runner/runner.ts';
export { summarize, correctWithin, type RunMetrics } from './metrics/summary.ts';
export { evaluateClean, type CleanMetrics } from './metrics/clean.ts';
export { WordSeq } from './text/word-seq.ts';
export { Rng } from './util/rng.ts';
export { TextstressError, DataError, ModelError } from './util/errors.ts';
