/**
 * `textstress/internal`: the machinery under the public API, for tools that build on textstress's own loops and
 * families. **Unstable**: anything here may change or go in any release, without notice; semver covers only the
 * main entry point (src/index.ts).
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
export { runPerExample, RESULTS_FILE, SUMMARY_FILE, STATE_FILE, type PerExampleOptions, type FinishContext } from './runner/per-example.ts';
export { prepareRecipe, type PrepareOptions } from './kinds/prepare.ts';
export { readResults, appendResult, spacedPositions } from './runner/checkpoint.ts';
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
