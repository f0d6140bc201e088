/** RESEMBLE, the entity defence: Eq. (2), the defended adapter and its config file. */
export {
  DEFAULT_TEMPERATURE,
  parseResembleConfig,
  readResembleConfig,
  resembleConfigSchema,
  writeResembleConfig,
  type AnnotatorSpec,
  type ResembleConfig,
} from './config.ts';
export { geometricMean, resembleCombine, temper } from './eq2.ts';
export { checkAnnotatorDestination, openAnnotator, openResemble, type OpenAnnotatorModel, type RemotePolicy } from './open.ts';
export {
  defenceStats,
  resembleModel,
  type ResembleModel,
  type ResembleModelOptions,
  type ResembleSettings,
  type ResembleStats,
} from './resemble.ts';
