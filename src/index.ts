/**
 * textstress as a library: load data and models, pick a recipe from the registry (or compose an attack from its
 * parts), run it.
 *
 *   import { builtinRegistry, runRecipe } from 'textstress';
 */
export * from './data/index.ts';
export * from './models/index.ts';
export * from './perturb/index.ts';
export { QueryEngine, QuerySession, type QueryEngineOptions, type QueryEngineStats } from './query/engine.ts';
export { attackExample, type Attack } from './attack/attack.ts';
export * from './attack/constraints.ts';
export type { Edit, WordCandidate } from './text/edits.ts';
export * from './attack/goals/index.ts';
export { LabelAligner, parseLabelMap } from './attack/labels.ts';
export type { ExampleResult, AttackStatus, TracePoint, ProbeRecord } from './attack/result.ts';
export { probeExample, samePrediction, type Probe, type Variant } from './attack/probe.ts';
export type { Generator, GenerateContext, GeneratorStep } from './attack/generate.ts';
export { GreedyWordSearch } from './attack/search/greedy-word.ts';
export { BeamSearch } from './attack/search/beam.ts';
export { GeneticSearch, type GeneticOptions } from './attack/search/genetic.ts';
export { RandomEditsSearch } from './attack/search/random-edits.ts';
export { OneShotSearch, type WholeTextTransform } from './attack/search/one-shot.ts';
export type { SearchContext, SearchMethod, SearchOutcome } from './attack/search/types.ts';
export { rankWords, WORD_TARGETS, type WordTarget } from './attack/search/word-importance.ts';
export { applyCandidate, initialState, type AttackState, type Scored } from './attack/state.ts';
export { makeSubject, exampleInput, exampleFields, type AttackSubject, type EditableField } from './attack/subject.ts';
export type { Transformation } from './attack/transformation.ts';
export * from './recipes/index.ts';
export { runAttack, type RunOptions, type RunSettings, type ExampleWork } from './runner/runner.ts';
export { runRecipe, type RunRequest, type RecipeOutcome, type ProgressSink } from './runner/recipe-run.ts';
export { runGenerator, type GenerateSummary } from './runner/generate.ts';
export { readResults } from './runner/checkpoint.ts';
export { orderedPool } from './runner/pool.ts';
export { openModel, openData, type ModelSpec, type DataSpec } from './runner/setup.ts';
export { summarize, correctWithin, SummaryAccumulator, type RunMetrics, type RunSummary } from './metrics/summary.ts';
export { evaluateClean, type CleanMetrics } from './metrics/clean.ts';
export { WordSeq } from './text/word-seq.ts';
export { Rng } from './util/rng.ts';
export { TextstressError, DataError, ModelError } from './util/errors.ts';
