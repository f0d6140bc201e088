/**
 * textstress as a library. This file is the public API (semver applies), every name listed on purpose: what
 * programs call to load models and data, run recipes into folders or in memory, declare recipes and families of
 * their own, gate runs with a suite, and read the results and the report. Everything else — the runner's loops,
 * the families' own builders and tables, perturbations, loaders of named data sets, the query engine — is exported,
 * unstable, from `textstress/internal` (src/internal.ts); deeper paths are not exported.
 * `test/package/tsdoc.test.ts` snapshots both lists (test/package/api/), so a change to either is a reviewed decision.
 *
 *   import { attackInMemory } from 'textstress';
 *   const run = attackInMemory({ recipe: 'typos', model: 'demo-sst2', examples });
 *   for await (const r of run) console.log(r.status, r.perturbed);
 *
 *   import { builtinRegistry, runRecipe, writeHtmlReport } from 'textstress';
 *   await runRecipe({ registry: builtinRegistry(), recipe: 'grammar', settings: {}, model: 'demo-sst2',
 *                     data: 'reviews.tsv', out: 'out/grammar', seed: 0 });
 *   await writeHtmlReport(['out'], 'out/report.html');
 */

// Running recipes: into a resumable folder, or in memory.
export { runRecipe, runRecipeAs } from './kinds/run.ts';
export type { RunRequest, RecipeOutcome, ProgressSink } from './kinds/types.ts';
export { attackInMemory, type InMemoryRequest, type InMemoryRun, type InMemorySummary } from './kinds/in-memory.ts';

// The registry, and declaring recipes and commands of your own (docs/adding-a-recipe.md).
export { builtinRegistry, BUILTIN_RECIPES, BUILTIN_VERBS } from './families/index.ts';
export type { Registry } from './recipes/registry/registry.ts';
export type { FamilyManifest } from './recipes/registry/family.ts';
export {
  defineRecipe,
  type RecipeDef,
  type AnyRecipe,
  type RecipeKind,
  type TaskKind,
  type BuildContext,
  type Built,
  type RecipeMetric,
} from './recipes/registry/define.ts';
export { defineVerb, type VerbDef, type VerbContext, type AnyVerb } from './recipes/registry/verbs.ts';

// What a recipe's `build` composes: an attack (transformation, constraints, goal, search), a probe, a stress suite
// or a generator.
export type { Attack } from './core/attack.ts';
export { composite, type Transformation } from './core/transformation.ts';
export {
  maxEdits,
  editBudget,
  maxEditRate,
  editZone,
  protectWords,
  minWordLength,
  noRepeatEdits,
  type Constraint,
} from './core/constraints.ts';
export { stopwords, maxLevenshtein } from './core/text-constraints.ts';
export { partOfSpeech } from './core/part-of-speech.ts';
export { wordEmbeddingDistance } from './core/embedding-distance.ts';
export { SentenceSimilarity } from './core/sentence-similarity.ts';
export type { Goal, GoalFactory, GoalStatus } from './core/goals/types.ts';
export { UntargetedClassification, TargetConfidence } from './core/goals/classification.ts';
export { EntityF1Drop } from './core/goals/entity.ts';
export { QaF1Drop } from './core/goals/qa.ts';
export { Invariance } from './core/goals/invariance.ts';
export { LabelAligner } from './core/labels.ts';
export type { SearchMethod, SearchContext, SearchOutcome } from './core/search/types.ts';
export { GreedyWordSearch } from './core/search/greedy-word.ts';
export { GreedyWordSwapWIR } from './core/search/greedy-wir.ts';
export { BeamSearch } from './core/search/beam.ts';
export { GeneticSearch } from './core/search/genetic.ts';
export { RandomEditsSearch } from './core/search/random-edits.ts';
export { OneShotSearch } from './core/search/one-shot.ts';
export { WORD_TARGETS, type WordTarget } from './core/search/word-importance.ts';
export type { Probe, Variant } from './core/probe.ts';
export type { StressSuite, StressTest, StressCase, StressScore, AdaptiveContext } from './core/stress-suite.ts';
export type { Generator, GenerateContext, GeneratorStep } from './core/generate.ts';
export type { Edit } from './text/edits.ts';
export { rewriteExample } from './data/rewrite.ts';
export { WordSeq } from './text/word-seq.ts';
export { Rng } from './util/rng.ts';

// Models: every adapter, and what an adapter answers.
export { loadModel, type LoadModelOptions } from './models/load.ts';
export { createHttpModel, type HttpModelOptions } from './models/http-adapter.ts';
export { createFunctionModel, type FunctionModelOptions, type ModelFunction } from './models/function-adapter.ts';
export { startModelServer, type ModelServerOptions } from './models/serve.ts';
export type {
  ModelAdapter,
  ModelInfo,
  ModelTask,
  ModelInput,
  ModelOutput,
  ClassOutput,
  TagOutput,
  SpanOutput,
  AnswerSpan,
} from './models/types.ts';

// Data: any supported file or hub data set, and the examples it yields.
export { openDataset } from './data/open.ts';
export { collect } from './data/rows.ts';
export type {
  OpenDatasetOptions,
  Dataset,
  DatasetInfo,
  Example,
  TextExample,
  PairExample,
  TokenExample,
  QaExample,
  QaAnswer,
} from './data/types.ts';

// Results, as results.jsonl and summary.json hold them.
export { readResults } from './runner/checkpoint.ts';
export { RESULTS_FILE, SUMMARY_FILE } from './runner/per-example.ts';
export type { ExampleResult, AttackStatus, ProbeRecord } from './core/result.ts';
export type { RunSummary } from './metrics/summary.ts';
export type { GenerateSummary } from './metrics/generate-summary.ts';
export type { StressSummary } from './metrics/stress-summary.ts';

// Suites and the CI gate.
export { loadSuite, SuiteError, type LoadedSuite } from './suite/load.ts';
export { runSuite, type SuiteRunOptions, type SuiteOutcome } from './suite/run.ts';
export { checkTest } from './suite/gate.ts';
export type { Suite } from './suite/schema.ts';
export { GATE_METRICS } from './metrics/names.ts';
export type { GateMetric } from './kinds/attack/gate.ts';

// Reports: the HTML report card, the terminal tables, and what a family's report section is made of.
export { writeHtmlReport } from './report/html/index.ts';
export type { HtmlReportOptions } from './report/html/render.ts';
export type { CheckResult, Verdict } from './report/html/types.ts';
export { summaryTable } from './kinds/attack/print.ts';
export type { ReportFamily, LoadedRun, RunGroup, ReportTable, ChartSpec, FamilySectionContent } from './recipes/report/types.ts';
export { runLabel, cleanVsAttackedChart, editTypeChart, groupedBarsChart } from './recipes/report/charts.ts';
export { stressGateMetrics } from './recipes/stress-gate-metrics.ts';

// The 95% intervals a recipe's gate metric declares (RecipeMetric.interval): shares, clustered shares, means and F1.
export { wilson, clusteredWilson, bootstrap, bootstrapMean, sameValueBounds, type Interval } from './stats/index.ts';

// Errors: every failure textstress reports is one of these, with the file/line or cause and a hint.
export { TextstressError, DataError, ModelError } from './util/errors.ts';
