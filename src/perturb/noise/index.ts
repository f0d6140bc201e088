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
} from './noise.ts';
export { applyNoise, type NoiseChange, type NoiseOptions } from './apply.ts';
