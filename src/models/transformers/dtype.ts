/**
 * Weight types (`--dtype`) and the ONNX files that hold them, named as transformers.js names them
 * (@huggingface/transformers src/utils/dtypes.js, DEFAULT_DTYPE_SUFFIX_MAPPING): onnx/model.onnx is fp32,
 * onnx/model_fp16.onnx fp16, onnx/model_quantized.onnx q8, and so on (folder.ts checks a local folder holds the one asked for).
 */
/** File-name suffix of each weight type (transformers.js 4's table; a test checks it against the library's). */
export const DTYPE_SUFFIXES = {
  fp32: '',
  fp16: '_fp16',
  q8: '_quantized',
  int8: '_int8',
  uint8: '_uint8',
  q4: '_q4',
  q4f16: '_q4f16',
  bnb4: '_bnb4',
  q2: '_q2',
  q2f16: '_q2f16',
  q1: '_q1',
  q1f16: '_q1f16',
} as const;

/** A weight type transformers.js knows: fp32, fp16, q8 (int8 dynamic quantisation), q4 (4-bit blocks) … */
export type Dtype = keyof typeof DTYPE_SUFFIXES;
/** Every weight type, in transformers.js's order. */
export const DTYPES = Object.keys(DTYPE_SUFFIXES) as [Dtype, ...Dtype[]];

/** The graph file of a weight type: model.onnx, model_fp16.onnx, model_quantized.onnx … */
export function dtypeFile(dtype: Dtype): string {
  return `model${DTYPE_SUFFIXES[dtype]}.onnx`;
}

/** The weight type a graph file name stands for, or undefined for a name transformers.js would not load. */
export function dtypeOfFile(file: string): Dtype | undefined {
  return DTYPES.find((d) => dtypeFile(d) === file);
}
