/**
 * textstress as a library: load data and models, pick a recipe from the registry (or compose an attack from its
 * parts), run it into a folder or in memory, gate it with a suite and write the report card.
 *
 *   import { attackInMemory } from 'textstress';
 *   const run = attackInMemory({ recipe: 'typos', model: 'demo-sst2', examples });
 *   for await (const r of run) console.log(r.status, r.perturbed);
 *
 *   import { builtinRegistry, runRecipe, writeHtmlReport } from 'textstress';
 *   await runRecipe({ registry: builtinRegistry(), recipe: 'grammar', settings: {}, model: 'demo-sst2',
 *                     data: 'reviews.tsv', out: 'out/grammar', seed: 0 });
 *   await writeHtmlReport(['out'], 'out/report.html');
 *
 * Everything exported here is the public API (semver applies); deeper paths are not exported.
 */
export * from './data/index.ts';
export * from './models/index.ts';
export * from './perturb/index.ts';
export * from './families/stress/nli/index.ts';
export * from './families/stress/qa/index.ts';
/** The QA stress suite (`stress qa`): its test names, and how its summary.json `details` (Table 4) read. */
export { QA_STRESS_TESTS, type QaStressTest } from './families/stress/qa/settings.ts';
export { qaStressSuite, type QaSuiteOptions } from './families/stress/qa/suite.ts';
export { table4Rows, type QaDetails, type Table4Row } from './families/stress/qa/tables.ts';
/** RESEMBLE, the entity defence: a model adapter (Eq. (2)), its config file, and fitting + Table 5. */
export * from './defence/index.ts';
export { fitResemble, sampleCandidates, TEMPERATURE_GRID, type FitOptions } from './families/entities/resemble/fit.ts';
export {
  prepare as prepareResembleData,
  type Applicable as ResembleItem,
  type Prepared as ResembleData,
} from './families/entities/resemble/data.ts';
export { formatTable5, table5, type Table5, type Table5Options, type Table5Row } from './families/entities/resemble/table5.ts';
export { QueryEngine, QuerySession, type QueryEngineOptions, type QueryEngineStats } from './query/engine.ts';
export { attackExample, type Attack } from './attack/attack.ts';
export * from './attack/constraints.ts';
export type { Edit, WordCandidate } from './text/edits.ts';
export * from './attack/goals/index.ts';
export { LabelAligner, parseLabelMap } from './attack/labels.ts';
export type { ExampleResult, AttackStatus, TracePoint, ProbeRecord } from './attack/result.ts';
export { probeExample, samePrediction, sameUnderEdits, type Probe, type Variant } from './attack/probe.ts';
export type { Generator, GenerateContext, GeneratorStep } from './attack/generate.ts';
export {
  stressExample,
  type StressSuite,
  type StressTest,
  type FixedStressTest,
  type AdaptiveStressTest,
  type AdaptiveContext,
  type StressCase,
  type StressScore,
  type ScoredCase,
  type NotApplicable,
  type StressResult,
  type StressCaseResult,
} from './attack/stress.ts';
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
export { BUILTIN_RECIPES, builtinRegistry } from './families/index.ts';
export { typoAttack, typoTransformation, ALL_TYPO_SOURCES, type TypoAttackOptions } from './families/typos/attack.ts';
export { typosRecipe } from './families/typos/recipe.ts';
export { typosSettings } from './families/typos/settings.ts';
export { typosCurveRecipe, curveTables, type TyposCurve, type CurveRow } from './families/typos/curve.ts';
export { noiseAttack, type NoiseAttackOptions } from './families/noise/attack.ts';
export { noiseRecipe } from './families/noise/recipe.ts';
export {
  grammarAttack,
  grammarSearch,
  grammarTransformation,
  GRAMMAR_SEARCHES,
  type GrammarAttackOptions,
  type GrammarSearchName,
} from './families/grammar/attack.ts';
export { grammarRecipe } from './families/grammar/recipe.ts';
export { grammarBudgetCurveRecipe, type BudgetPoint } from './families/grammar/budget-curve.ts';
export { augmentRecipe, type AugmentManifest } from './families/grammar/augment.ts';
export { table3, table4, type GrammarRunSummary } from './families/grammar/tables.ts';
export { parseErrorTypes, type ParsedErrorTypes } from './perturb/grammar/error-types.ts';
export { entitiesRecipe } from './families/entities/recipe.ts';
export { namesFiles, annotatorName } from './families/entities/sources.ts';
export { entitiesSettings, type EntitiesSettings } from './families/entities/settings.ts';
export { entityProbe, noEntityReason, type EntityProbeOptions } from './families/entities/probe.ts';
export {
  entityDigest,
  type DigestOptions,
  type EntityDetails,
  type Table3Row,
  type BinRow,
  type ProbeMeasure,
} from './families/entities/table3.ts';
export { table3 as entitiesTable3, analysisTable, worstNamesTable, entitiesText, entityDetailsOf } from './families/entities/tables.ts';
export { TrainCounts, readTrainData, wordsOf, frequencyBin, subwordBin, FREQUENCY_BINS, SUBWORD_BINS } from './families/entities/train.ts';
export { runAttack, type RunOptions, type RunSettings, type ExampleWork } from './kinds/attack/run.ts';
export { runRecipe, type RunRequest, type RecipeOutcome, type ProgressSink } from './kinds/run.ts';
export { runGenerator, type GenerateSummary } from './kinds/generate/run.ts';
export { runStress, type StressRunOptions } from './kinds/stress/run.ts';
export { runPerExample, type PerExampleOptions, type FinishContext } from './runner/per-example.ts';
export { attackInMemory, type InMemoryRequest, type InMemoryRun, type InMemorySummary } from './kinds/in-memory.ts';
export { prepareRecipe, type PrepareOptions } from './kinds/prepare.ts';
export { readResults } from './runner/checkpoint.ts';
export { writeProbeSets, type ProbeSetFiles } from './kinds/probe/sets.ts';
export { orderedPool } from './runner/pool.ts';
export { openModel, openData, type ModelSpec, type DataSpec } from './runner/open.ts';
export { summarize, SummaryAccumulator, type RunMetrics, type RunSummary, type SummaryOptions } from './metrics/summary.ts';
export { evaluateClean, type CleanMetrics } from './metrics/clean.ts';
export {
  StressTally,
  reduction,
  type StressCell,
  type StressMetrics,
  type StressSummary,
  type StressTestSummary,
} from './metrics/stress.ts';
export { WordSeq } from './text/word-seq.ts';
export { Rng } from './util/rng.ts';
export { loadSuite, parseSuite, SuiteError, type LoadedSuite } from './suite/load.ts';
export { runSuite, suiteTable, type SuiteRunOptions, type SuiteOutcome } from './suite/run.ts';
export { checkTest, verdictOf, verdictText, parseThreshold, type Threshold } from './suite/gate.ts';
export {
  suiteSchemaFor,
  suiteJsonSchema,
  gateMetricNames,
  type Suite,
  type SuiteTest,
  type ModelEntry,
  type DatasetEntry,
} from './suite/schema.ts';
export { GATE_METRICS, type GateMetric } from './kinds/attack/gate.ts';
export { STARTER_SUITE } from './suite/starter.ts';
export {
  writeHtmlReport,
  renderReport,
  loadGroups,
  headlineRun,
  headlineMetrics,
  assignFamilies,
  VERDICT_FILE,
  type HtmlReportOptions,
} from './report/html/index.ts';
export type { CheckResult, Verdict } from './report/html/types.ts';
export { summaryTable, exampleLines } from './kinds/attack/print.ts';
export { stressTable } from './kinds/stress/print.ts';
export { TextstressError, DataError, ModelError } from './util/errors.ts';
