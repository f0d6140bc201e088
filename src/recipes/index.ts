export * from './registry/define.ts';
export { createRegistry, assertDerivable, RESERVED_SETTING_KEYS, type Registry } from './registry/registry.ts';
export { settingFields, showDefault, type SettingField, type FieldShape } from './registry/fields.ts';
export { kebab, snake, camelFromSnake, camelKeys } from '../util/casing.ts';
export { goalFor, taskKindOf, checkRecipeTask } from './context.ts';
export type * from './report/types.ts';
export * from './report/charts.ts';
export { stressGateMetrics } from './stress-gate-metrics.ts';
export { accuracyPerTestChart, stressTestsTable, accuracyWithReduction, reductionText } from './report/stress-per-test.ts';
