export {
  loadEncoder,
  Encoder,
  type EncodedSentence,
  type EncoderInfo,
  type EncoderOptions,
  type EncoderOutputs,
  type RunRequest,
} from './encoder.ts';
export { decodeModel, findEncoderTaps, withExtraOutputs, type EncoderTaps } from './graph.ts';
