/**
 * textstress as a library. This file is the public API (semver applies): what programs call to load models and
 * data, pick or declare recipes, run them into folders or in memory, gate them with a suite and write the report;
 * and the building blocks recipes of your own are made of. Runner internals are exported, unstable, from
 * `textstress/internal` (src/internal.ts); deeper paths are not exported.
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

// Running recipes: into a resumable folder, or in memory; what each recipe kind supports.
export { runRecipe, type RunRequest, type RecipeOutcome, type ProgressSink } from './kinds/run.ts';
export { attackInMemory, type InMemoryRequest, type InMemoryRun, type InMemorySummary } from './kinds/in-memory.ts';
export {
  KINDS,
  RUN_MODES,
  MODES,
  kindOf,
  supports,
  refusal,
  commandOf,
  type KindRuntime,
  type RunMode,
  type Refusal,
} from './kinds/index.ts';

// Recipes, the registry, and the families' own commands.
export * from './recipes/index.ts';
export { defineVerb, type VerbDef, type VerbContext, type VerbArgument, type AnyVerb } from './recipes/registry/verbs.ts';
export { BUILTIN_RECIPES, BUILTIN_VERBS, builtinRegistry } from './families/index.ts';
export { typosRecipe } from './families/typos/recipe.ts';
export { typosSettings } from './families/typos/settings.ts';
export { typoAttack, typoTransformation, ALL_TYPO_SOURCES, type TypoAttackOptions } from './families/typos/attack.ts';
export { typosCurveRecipe, type TyposCurve, type CurveRow } from './families/typos/curve.ts';
export { noiseRecipe } from './families/noise/recipe.ts';
export { noiseAttack, type NoiseAttackOptions } from './families/noise/attack.ts';
export { grammarRecipe } from './families/grammar/recipe.ts';
export {
  grammarAttack,
  grammarSearch,
  grammarTransformation,
  GRAMMAR_SEARCHES,
  type GrammarAttackOptions,
  type GrammarSearchName,
} from './families/grammar/attack.ts';
export { grammarBudgetCurveRecipe, type BudgetPoint } from './families/grammar/budget-curve.ts';
export { augmentRecipe, type AugmentManifest } from './families/grammar/augment.ts';
export { stressNliRecipe } from './families/stress/nli/recipe.ts';
export { stressQaRecipe } from './families/stress/qa/recipe.ts';
export { entitiesRecipe } from './families/entities/recipe.ts';
export { entitiesSettings, type EntitiesSettings } from './families/entities/settings.ts';
export { entityProbe, noEntityReason, type EntityProbeOptions } from './families/entities/probe.ts';
export { universalNamesRecipe } from './families/entities/universal-names/recipe.ts';
export { foolingRecipe } from './families/fooling/recipe.ts';
export { foolingSweepRecipe } from './families/fooling/sweep.ts';
export { probeLayersRecipe, probeHeadsRecipe, clozeRecipe } from './families/encoder/recipe.ts';
export { CLASSIC_RECIPES } from './families/classic/index.ts';
export { pwwsRecipe, pwwsAttack, wordnetSwap, type PwwsOptions } from './families/classic/pwws.ts';
export { deepWordBugRecipe, deepWordBugAttack, charEditsTransformation, type DeepWordBugOptions } from './families/classic/deepwordbug.ts';
export { checklistRecipe, checklistAttack, type ChecklistAttackOptions } from './families/classic/checklist.ts';
export { textBuggerRecipe, textBuggerAttack, textBuggerCharBugs, type TextBuggerOptions } from './families/classic/textbugger.ts';
export { baeRecipe, baeAttack, type BaeOptions } from './families/classic/bae.ts';
export { textFoolerRecipe, textFoolerAttack, type TextFoolerOptions } from './families/classic/textfooler.ts';
export { openLmResources, type LmResources, type ResourceSpecs } from './families/classic/lm-resources.ts';

// The building blocks of recipes: attacks (transformation, constraints, goal, search), probes, generators and
// stress suites; perturbations; rewriting examples; seeded randomness; the query engine.
export { attackExample, type Attack } from './attack/attack.ts';
export * from './attack/constraints.ts';
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
export {
  GreedyWordSwapWIR,
  rankByWir,
  softmax,
  WIR_METHODS,
  UNK_TOKEN,
  type WirMethod,
  type WirOptions,
} from './attack/search/greedy-wir.ts';
export { stopwords, maxLevenshtein } from './attack/text-constraints.ts';
export {
  SentenceSimilarity,
  textWindow,
  similarity,
  type SentenceEmbedder,
  type SimilarityOptions,
  type SimilarityMetric,
  type EncoderCount,
} from './attack/sentence-similarity.ts';
export { partOfSpeech, canReplacePos } from './attack/part-of-speech.ts';
export { wordEmbeddingDistance, type WordSimilarity } from './attack/embedding-distance.ts';
export { UniversalTagger, type UniversalTag } from './text/pos.ts';
export { HOMOGLYPHS, homoglyphVariants } from './perturb/classic/homoglyphs.ts';
export { maskedWords, type MaskFiller, type MaskedWordOptions } from './perturb/classic/masked-lm.ts';
export { SentenceEncoder } from './models/lm/sentence-encoder.ts';
export { MaskedLm, type MaskPrediction, type PieceScheme } from './models/lm/masked-lm.ts';
export { WordEmbeddings, type Neighbour, type EmbeddingsInfo } from './data/embeddings/index.ts';
export { BeamSearch } from './attack/search/beam.ts';
export { GeneticSearch, type GeneticOptions } from './attack/search/genetic.ts';
export { RandomEditsSearch } from './attack/search/random-edits.ts';
export { OneShotSearch, type WholeTextTransform } from './attack/search/one-shot.ts';
export type { SearchContext, SearchMethod, SearchOutcome, Expanded } from './attack/search/types.ts';
export { rankWords, WORD_TARGETS, type WordTarget } from './attack/search/word-importance.ts';
export { applyCandidate, initialState, type AttackState, type Scored } from './attack/state.ts';
export { makeSubject, exampleInput, exampleFields, type AttackSubject, type EditableField } from './attack/subject.ts';
export { composite, type Transformation } from './attack/transformation.ts';
export { charEdit, CHAR_EDITS, ASCII_LETTERS, type CharEdit, type CharEditOptions } from './perturb/classic/chars.ts';
export { WordNetSynonyms } from './perturb/classic/wordnet-synonyms.ts';
export { nltkEnglishStopwords, isStopword } from './text/stopwords.ts';
export type { Edit, WordCandidate } from './text/edits.ts';
export * from './perturb/index.ts';
export { parseErrorTypes, type ParsedErrorTypes } from './perturb/grammar/error-types.ts';
export { WordSeq } from './text/word-seq.ts';
export { Rng } from './util/rng.ts';
export { QueryEngine, QuerySession, type QueryEngineOptions, type QueryEngineStats } from './query/engine.ts';

// Models and data: every adapter, the spec-level openers the CLI uses, the shared options, RESEMBLE as an adapter.
export * from './models/index.ts';
export * from './data/index.ts';
export { openModel, openData } from './runner/open.ts';
export type { ModelSpec, DataSpec, RunOptions } from './options/shared.ts';
export * from './defence/index.ts';

// Suites and the CI gate.
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

// Reports: the HTML report card and the terminal tables.
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

// Metrics, as summary.json holds them.
export {
  summarize,
  SummaryAccumulator,
  type RunMetrics,
  type RunSummary,
  type SummaryOptions,
  type GenerateSummary,
} from './metrics/summary.ts';
export { evaluateClean, type CleanMetrics, type CleanOptions } from './metrics/clean.ts';
// The 95% intervals a recipe's gate metric declares (RecipeMetric.interval): shares, clustered shares, means and F1.
export { wilson, clusteredWilson, bootstrap, bootstrapMean, sameValueBounds, type Interval } from './stats/index.ts';
export { textAttackSummary, TextAttackTally, textAttackTable, type TextAttackSummary } from './metrics/textattack.ts';
export {
  StressTally,
  reduction,
  type StressCell,
  type StressMetrics,
  type StressSummary,
  type StressTestSummary,
} from './metrics/stress.ts';

export { TextstressError, DataError, ModelError } from './util/errors.ts';
