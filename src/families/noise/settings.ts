/** The noise recipe's settings: defaults, bounds and descriptions, for the recipe and noiseAttack alike. */
import { z } from 'zod';
import { NOISE_TYPES } from '../../perturb/index.ts';
import { fieldSetting, minLengthSetting, protectSetting } from '../../recipes/shared.ts';

export const noiseSettings = z.strictObject({
  minLength: minLengthSetting,
  protect: protectSetting,
  field: fieldSetting,
  noise: z.enum(NOISE_TYPES).default('swap').describe('noise applied to every word'),
});
