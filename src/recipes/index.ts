export * from './registry/define.ts';
export { createRegistry, assertDerivable, isTopLevel, commandOf, RESERVED_SETTING_KEYS, type Registry } from './registry/registry.ts';
export { settingFields, showDefault, type SettingField, type FieldShape } from './registry/fields.ts';
export { kebab, snake, camelFromSnake, camelKeys } from './registry/casing.ts';
export { BUILTIN_RECIPES, builtinRegistry } from './builtin.ts';
export { goalFor, taskKindOf, checkRecipeTask } from './context.ts';
export { typoAttack, typoTransformation, ALL_TYPO_SOURCES, type TypoAttackOptions } from './typos/attack.ts';
export { typosRecipe } from './typos/recipe.ts';
export { typosSettings } from './typos/settings.ts';
export { typosCurveRecipe, curveTables, type TyposCurve, type CurveRow } from './typos/curve.ts';
export { noiseAttack, type NoiseAttackOptions } from './noise/attack.ts';
export { noiseRecipe } from './noise/recipe.ts';
export {
  grammarAttack,
  grammarSearch,
  grammarTransformation,
  GRAMMAR_SEARCHES,
  type GrammarAttackOptions,
  type GrammarSearchName,
} from './grammar/attack.ts';
export { grammarRecipe } from './grammar/recipe.ts';
export { grammarBudgetCurveRecipe, type BudgetPoint } from './grammar/budget-curve.ts';
export { augmentRecipe, type AugmentManifest } from './grammar/augment.ts';
export { table3, table4, type GrammarRunSummary } from './grammar/tables.ts';
export { parseErrorTypes, type ParsedErrorTypes } from './grammar/error-types.ts';
export type * from './report/types.ts';
export * from './report/charts.ts';
export { stressGateMetrics } from './stress/metrics.ts';
export { accuracyPerTestChart, stressTestsTable, accuracyWithReduction, reductionText } from './stress/charts.ts';
export { entitiesRecipe } from './entities/recipe.ts';
export { namesFiles, annotatorName } from './entities/sources.ts';
export { entitiesSettings, type EntitiesSettings } from './entities/settings.ts';
export { entityProbe, noEntityReason, type EntityProbeOptions } from './entities/probe.ts';
export { entityDigest, type DigestOptions, type EntityDetails, type Table3Row, type BinRow, type ProbeMeasure } from './entities/table3.ts';
export { table3 as entitiesTable3, analysisTable, worstNamesTable, entitiesText, entityDetailsOf } from './entities/tables.ts';
export { TrainCounts, readTrainData, wordsOf, frequencyBin, subwordBin, FREQUENCY_BINS, SUBWORD_BINS } from './entities/train.ts';
