/**
 * `textstress/internal`: the machinery under the public API, for tools that build on textstress's own loops and
 * families. **Unstable**: anything here may change or go in any release, without notice; semver covers only the
 * main entry point (src/index.ts). What was public before the API was made explicit (issue 37) and is not public
 * now lives here (all but eight string helpers that had leaked through `export *`): a program that used such a
 * name imports it from `textstress/internal` instead.
 */

// The loops every run is made of (per example, step by step, in bounded order), and their files.
export {
  runAttack,
  attackResult,
  compactResult,
  type RunOptions as AttackRunOptions,
  type RunSettings,
  type ExampleWork,
} from './kinds/attack/run.ts';
export { runStress, type StressRunOptions } from './kinds/stress/run.ts';
export { runGenerator, STEPS_FILE, type GenerateOptions, type GenerateSettings } from './kinds/generate/run.ts';
export { runPerExample, STATE_FILE, type PerExampleOptions, type FinishContext } from './runner/per-example.ts';
export { prepareRecipe, type PrepareOptions } from './kinds/prepare.ts';
export { appendResult, spacedPositions } from './runner/checkpoint.ts';
export { writeProbeSets, type ProbeSetFiles } from './kinds/probe/sets.ts';
export { orderedPool } from './runner/pool.ts';
export { shardOf } from './runner/shard.ts';
export { parseShard, type Shard } from './options/shard.ts';
export { ALL_OPTIONS, savedOptions, identityOptions, loadOptionsOf, type NamedOption } from './options/derive.ts';
export { SHARED_OPTIONS, MODEL_OPTIONS, DATA_OPTIONS, RUN_OPTIONS } from './options/shared.ts';

// The families' domain logic, as their recipes and reports use it.
export * from './families/stress/nli/index.ts';
export * from './families/stress/qa/index.ts';
export { QA_STRESS_TESTS, type QaStressTest } from './families/stress/qa/settings.ts';
export { qaStressSuite, type QaSuiteOptions } from './families/stress/qa/suite.ts';
export { table4Rows, type QaDetails, type Table4Row } from './families/stress/qa/tables.ts';
export { curveTables } from './families/typos/curve.ts';
export { table3, table4, type GrammarRunSummary } from './families/grammar/tables.ts';
export { namesFiles, annotatorName } from './families/entities/sources.ts';
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
export { fitResemble, sampleCandidates, TEMPERATURE_GRID, type FitOptions } from './families/entities/resemble/fit.ts';
export {
  prepare as prepareResembleData,
  type Applicable as ResembleItem,
  type Prepared as ResembleData,
} from './families/entities/resemble/data.ts';
export { formatTable5, table5, type Table5, type Table5Options, type Table5Row } from './families/entities/resemble/table5.ts';

// Running recipes: what each kind supports, and the modes it refuses.
export { headlineMetrics } from './kinds/attack/headline.ts';
export { exampleLines } from './kinds/attack/print.ts';
export { KINDS, MODES, kindOf, supports, refusal, commandOf } from './kinds/index.ts';
export { stressTable } from './kinds/stress/print.ts';
export {
  RUN_MODES,
  defineKind,
  isOutcomeOf,
  type KindRuntime,
  type OutcomeOf,
  type GroupVerb,
  type RunMode,
  type Refusal,
} from './kinds/types.ts';

// The registry's own machinery and the parts of a recipe declaration that `defineRecipe` types contextually.
export { RESERVED_SETTING_KEYS } from './options/derive.ts';
export { type ModelSpec, type DataSpec, type RunOptions } from './options/shared.ts';
export { goalFor, taskKindOf, checkRecipeTask } from './recipes/context.ts';
export {
  metricRange,
  // The built-in families' define helpers (a plugin states the kind in defineRecipe, which types `build` by it too).
  defineAttack,
  defineProbe,
  defineStress,
  defineGenerator,
  defineExperiment,
  builtAs,
  isBuiltOf,
  type BuiltOf,
  type KindRecipe,
  type RecipeFields,
  TASK_KINDS,
  RECIPE_KINDS,
  type SubRun,
  type SubRunOutcome,
  type CombineContext,
  type ExperimentOutput,
  type BuiltStress,
  type BuiltAttack,
  type BuiltExperiment,
  type BuiltGenerate,
  type BuiltProbe,
  type ResultsDigest,
} from './recipes/registry/define.ts';
export { settingFields } from './recipes/registry/fields.ts';
export { createRegistry, assertDerivable } from './recipes/registry/registry.ts';
export { type VerbArgument } from './recipes/registry/verbs.ts';

// Attack internals: the state a search walks, subjects, goal helpers, and the options of each search.
export { attackExample } from './core/attack.ts';
export { isModifiable, isAllowed, nothingToEdit, type ConstraintVerdict } from './core/constraints.ts';
export { type WordSimilarity } from './core/embedding-distance.ts';
export { answerStatus } from './core/goals/qa.ts';
export {
  asClasses,
  asTags,
  asSpans,
  argmax,
  classPrediction,
  unmappableStatus,
  guardUnmappable,
  type Prediction,
  UNMAPPABLE_LABEL,
  UNMAPPABLE_CLEAN,
} from './core/goals/types.ts';
export { parseLabelMap } from './core/labels.ts';
export { canReplacePos } from './core/part-of-speech.ts';
export { probeExample, samePrediction, sameUnderEdits } from './core/probe.ts';
export { type TracePoint } from './core/result.ts';
export { type GeneticOptions } from './core/search/genetic.ts';
export { rankByWir, softmax, WIR_METHODS, UNK_TOKEN, type WirMethod, type WirOptions } from './core/search/greedy-wir.ts';
export { type WholeTextTransform } from './core/search/one-shot.ts';
export { type Expanded } from './core/search/types.ts';
export { rankWords } from './core/search/word-importance.ts';
export {
  textWindow,
  similarity,
  type SentenceEmbedder,
  type SimilarityOptions,
  type SimilarityMetric,
  type EncoderCount,
} from './core/sentence-similarity.ts';
export { applyCandidate, initialState, type AttackState, type Scored } from './core/state.ts';
export {
  stressExample,
  type FixedStressTest,
  type AdaptiveStressTest,
  type ScoredCase,
  type NotApplicable,
  type StressResult,
  type StressCaseResult,
} from './core/stress-suite.ts';
export { makeSubject, exampleInput, exampleFields, type AttackSubject, type EditableField } from './core/subject.ts';

// Perturbations: pure, seeded functions text → candidates that the families share.
export { caseShape, type CaseShape } from './perturb/case.ts';
export { charEdit, CHAR_EDITS, ASCII_LETTERS, type CharEdit, type CharEditOptions } from './perturb/classic/chars.ts';
export { HOMOGLYPHS, homoglyphVariants } from './perturb/classic/homoglyphs.ts';
export { maskedWords, type MaskFiller, type MaskedWordOptions } from './perturb/classic/masked-lm.ts';
export { WordNetSynonyms } from './perturb/classic/wordnet-synonyms.ts';
export { parseErrorTypes, type ParsedErrorTypes } from './perturb/grammar/error-types.ts';
export { keyNeighbours, letterNeighbours, QWERTY_ROWS, QWERTY_SHIFTED_ROWS, QWERTY_ROW_X } from './perturb/keyboard.ts';
export { misspellingsOf, misspellingTable, MISSPELLINGS_LICENSE, MISSPELLINGS_PACKAGE } from './perturb/misspellings.ts';
export { applyNoise, type NoiseChange, type NoiseOptions } from './perturb/noise/apply.ts';
export {
  NOISE_FUNCTIONS,
  NOISE_TYPES,
  fullyRandomNoise,
  isNoiseType,
  keyboardNoise,
  middleRandomNoise,
  naturalNoise,
  swapNoise,
  type NoiseFn,
  type NoiseType,
} from './perturb/noise/noise.ts';
export { deletionTypos } from './perturb/typos/deletion.ts';
export { isTypoSourceName, typoCandidates, TYPO_SOURCES } from './perturb/typos/index.ts';
export { insertionTypos } from './perturb/typos/insertion.ts';
export { mistypeTypos } from './perturb/typos/mistype.ts';
export {
  DEFAULT_MAX_CANDIDATES,
  DEFAULT_MIN_LENGTH,
  TYPO_SOURCE_NAMES,
  type TypoOptions,
  type TypoSource,
  type TypoSourceName,
} from './perturb/typos/options.ts';
export { pronounceTypos, SOUND_RULES, type SoundRule } from './perturb/typos/pronounce.ts';
export { replaceWordTypos } from './perturb/typos/replace-word.ts';
export { swapTypos } from './perturb/typos/swap.ts';

// Text utilities.
export { type WordCandidate } from './text/edits.ts';
export { UniversalTagger, type UniversalTag } from './text/pos.ts';
export { nltkEnglishStopwords, isStopword } from './text/stopwords.ts';

// Every built-in family's recipes and builders (reach them by name through `builtinRegistry()` in the public API).
export { baeRecipe, baeAttack, type BaeOptions } from './families/classic/bae.ts';
export { checklistRecipe, checklistAttack, type ChecklistAttackOptions } from './families/classic/checklist.ts';
export { deepWordBugRecipe, deepWordBugAttack, charEditsTransformation, type DeepWordBugOptions } from './families/classic/deepwordbug.ts';
export { CLASSIC_RECIPES } from './families/classic/index.ts';
export { openLmResources, type LmResources, type ResourceSpecs } from './families/classic/lm-resources.ts';
export { pwwsRecipe, pwwsAttack, wordnetSwap, type PwwsOptions } from './families/classic/pwws.ts';
export { textBuggerRecipe, textBuggerAttack, textBuggerCharBugs, type TextBuggerOptions } from './families/classic/textbugger.ts';
export { textFoolerRecipe, textFoolerAttack, type TextFoolerOptions } from './families/classic/textfooler.ts';
export { probeLayersRecipe, probeHeadsRecipe, clozeRecipe } from './families/encoder/recipe.ts';
export { entityProbe, noEntityReason, type EntityProbeOptions } from './families/entities/probe.ts';
export { entitiesRecipe } from './families/entities/recipe.ts';
export { entitiesSettings, type EntitiesSettings } from './families/entities/settings.ts';
export { universalNamesRecipe } from './families/entities/universal-names/recipe.ts';
export { foolingRecipe } from './families/fooling/recipe.ts';
export { foolingSweepRecipe } from './families/fooling/sweep.ts';
export { grammarAttack, grammarSearch, grammarTransformation, type GrammarAttackOptions } from './families/grammar/attack.ts';
export { augmentRecipe, type AugmentManifest } from './families/grammar/augment.ts';
export { grammarBudgetCurveRecipe, type BudgetPoint } from './families/grammar/budget-curve.ts';
export { grammarRecipe } from './families/grammar/recipe.ts';
export { GRAMMAR_SEARCHES, type GrammarSearchName } from './families/grammar/settings.ts';
export { noiseAttack, type NoiseAttackOptions } from './families/noise/attack.ts';
export { noiseRecipe } from './families/noise/recipe.ts';
export { stressNliRecipe } from './families/stress/nli/recipe.ts';
export { stressQaRecipe } from './families/stress/qa/recipe.ts';
export { typoAttack, typoTransformation, ALL_TYPO_SOURCES, type TypoAttackOptions } from './families/typos/attack.ts';
export { typosCurveRecipe, type TyposCurve, type CurveRow } from './families/typos/curve.ts';
export { typosRecipe } from './families/typos/recipe.ts';
export { typosSettings } from './families/typos/settings.ts';

// Models: adapters' internals, the HTTP protocol's schemas, the language models recipes build with, the query engine.
export { type HttpModelAdapter } from './models/http-adapter.ts';
export { parseRetryAfter } from './models/http-errors.ts';
export { Limiter } from './models/limiter.ts';
export { MaskedLm, type MaskPrediction, type PieceScheme } from './models/lm/masked-lm.ts';
export { SentenceEncoder } from './models/lm/sentence-encoder.ts';
export { isHttpSpec, ADAPTER_FACTORIES, type AdapterFactory } from './models/load.ts';
export {
  ModelInputSchema,
  ModelOutputSchema,
  InfoResponseSchema,
  PredictRequestSchema,
  PredictResponseSchema,
  checkOutputs,
  checkInputKind,
  MODEL_TASKS,
} from './models/schema.ts';
export { type ModelServer } from './models/serve.ts';
export { isLocalSpec } from './models/transformers/folder.ts';
export { loadTransformersModel, type TransformersModelOptions } from './models/transformers/load.ts';
export { alignPieces } from './models/transformers/pieces.ts';
export { longestFirst, type EncodedRow } from './models/transformers/template.ts';
export {
  inputChars,
  inputKey,
  type TokenUsage,
  type OutputMeta,
  type Prices,
  type UsageMeter,
  WORD_PIECES,
  type WordPiece,
} from './models/types.ts';
export { QueryEngine, QuerySession, type QueryEngineOptions, type QueryEngineStats } from './query/engine.ts';
export { openModel, openData } from './runner/open.ts';

// Data: the loaders of named data sets and formats (the public `openDataset` picks one), rows, answers, entities.
export { normalizeAnswer, exactMatch, answerF1, bestOverGold } from './data/answers.ts';
export { loadConll } from './data/conll.ts';
export { WordEmbeddings, type Neighbour, type EmbeddingsInfo } from './data/embeddings/index.ts';
export { iob1ToIob2, entitySpans, entityCounts, addCounts, f1, type EntitySpan, type EntityCounts } from './data/entities.ts';
export { fileFingerprint } from './data/fingerprint.ts';
export {
  loadSst2,
  loadMrpc,
  loadCola,
  loadQnli,
  parseSickSplit,
  loadSick,
  nliGoldLabel,
  loadMnli,
  SST2_LABELS,
  MRPC_LABELS,
  COLA_LABELS,
  QNLI_LABELS,
  SICK_LABELS,
  MNLI_LABELS,
  NO_GOLD_LABEL,
  SICK_SPLITS,
  type SickSplit,
} from './data/glue.ts';
export { openHubDataset } from './data/hf/index.ts';
export { hubFingerprint } from './data/hf/resolve.ts';
export { isHubSpec, parseHubSpec, type HubSpec } from './data/hf/spec.ts';
export { parseFormat, detectFormat, FORMAT_DESCRIPTIONS } from './data/open.ts';
export { type TextField, type TextRewrite, type TokenRewrite, type Rewrite, type Rewritten } from './data/rewrite.ts';
export { checkFile, readLines, type Line } from './data/rows.ts';
export { isNliJsonlObject, loadNliJsonl, NLI_JSONL_KEYS } from './data/snli.ts';
export { locationOf, jsonErrorLocation, readJsonFile, stripQa, loadSquad, type TextLocation } from './data/squad.ts';
export {
  resolveColumns,
  sniffDelimiter,
  loadCsv,
  loadTsv,
  parseJsonLine,
  loadJsonl,
  type TabularOptions,
  type ResolvedColumns,
} from './data/tabular.ts';
export {
  type ExampleBase,
  type ExampleKind,
  type SkippedRow,
  type LoadOptions,
  DEFAULT_MAX_CHARS,
  DATA_FORMATS,
  type DataFormat,
  type ColumnMap,
  type OpenOptions,
} from './data/types.ts';

// The RESEMBLE defence as an adapter (the CLI's --defence).
export {
  DEFAULT_TEMPERATURE,
  parseResembleConfig,
  readResembleConfig,
  resembleConfigSchema,
  writeResembleConfig,
  type AnnotatorSpec,
  type ResembleConfig,
} from './defence/config.ts';
export { geometricMean, resembleCombine, temper } from './defence/eq2.ts';
export { checkAnnotatorDestination, openAnnotator, openResemble, type OpenAnnotatorModel, type RemotePolicy } from './defence/open.ts';
export {
  defenceStats,
  resembleModel,
  type ResembleModel,
  type ResembleModelOptions,
  type ResembleSettings,
  type ResembleStats,
} from './defence/resemble.ts';

// Metrics: the accumulators behind summary.json.
export { evaluateClean, type CleanMetrics, type CleanOptions } from './metrics/clean.ts';
export { StressTally, reduction, type StressCell, type StressMetrics, type StressTestSummary } from './metrics/stress-summary.ts';
export { summarize, SummaryAccumulator, type RunMetrics, type SummaryOptions } from './metrics/summary.ts';
export { textAttackSummary, TextAttackTally, textAttackTable, type TextAttackSummary } from './metrics/textattack.ts';

// Reports and suites: the report's loaders and parts, the suite's schema and gate pieces.
export { editTypeCounts, wrapLabel, settingNumber, settingString } from './recipes/report/charts.ts';
export { accuracyPerTestChart, stressTestsTable, accuracyWithReduction, reductionText } from './recipes/report/stress-per-test.ts';
export {
  type RunProfile,
  type StressRun,
  type GeneratedRun,
  type HeadlineMetrics,
  type CardTile,
  type ReportSections,
  type StressSectionContent,
} from './recipes/report/types.ts';
export { assignFamilies } from './report/html/families/index.ts';
export { VERDICT_FILE } from './report/html/index.ts';
export { loadGroups, headlineRun } from './report/html/load.ts';
export { renderReport } from './report/html/render.ts';
export { verdictOf, verdictText, parseThreshold, type Threshold } from './suite/gate.ts';
export { parseSuite } from './suite/load.ts';
export { suiteTable } from './suite/run.ts';
export { suiteSchemaFor, suiteJsonSchema, gateMetricNames, type SuiteTest, type ModelEntry, type DatasetEntry } from './suite/schema.ts';
export { STARTER_SUITE } from './suite/starter.ts';
