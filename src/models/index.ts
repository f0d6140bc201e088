export * from './types.ts';
export { loadModel, isHttpSpec, ADAPTER_FACTORIES, type AdapterFactory, type LoadModelOptions } from './load.ts';
export {
  loadTransformersModel,
  isLocalSpec,
  longestFirst,
  alignPieces,
  type TransformersModelOptions,
  type EncodedRow,
  DTYPES,
  dtypeFile,
  type Dtype,
  parseOnnxOptions,
  type OnnxOptions,
} from './transformers/index.ts';
export { createHttpModel, parseRetryAfter, type HttpModelAdapter, type HttpModelOptions } from './http-adapter.ts';
export { createFunctionModel, type FunctionModelOptions, type ModelFunction } from './function-adapter.ts';
export { startModelServer, type ModelServer, type ModelServerOptions } from './serve.ts';
export { Limiter } from './limiter.ts';
export {
  ModelInputSchema,
  ModelOutputSchema,
  InfoResponseSchema,
  PredictRequestSchema,
  PredictResponseSchema,
  checkOutputs,
  checkInputKind,
  MODEL_TASKS,
} from './schema.ts';
