export { loadTransformersModel, type TransformersModelOptions } from './load.ts';
export { isLocalSpec } from './folder.ts';
export { alignBytePieces, alignPieces, isByteLevel, splitsOnSpaces } from './pieces.ts';
export { longestFirst, type EncodedRow } from './template.ts';
export { transformersInternals, type TransformersInternals } from './internals.ts';
export type { TransformersModel } from './adapter.ts';
export { DTYPES, dtypeFile, type Dtype } from './dtype.ts';
export { parseOnnxOptions, type OnnxOptions } from './runtime.ts';
