/**
 * A dry run's model: answers every input at once with a stand-in output (goals count it as right and the goal
 * unreached, so searches run to their end; a pseudo-random score drawn from the input orders their choices), and,
 * for a metered model, the tokens the real request would take as its usage. The
 * persistent cache is still read with the real model's identity, so answers already paid for are not counted.
 */
import { createHash } from 'node:crypto';
import { Rng } from '../util/rng.ts';
import { inputKey, type ModelAdapter, type ModelInput, type ModelOutput, type UsageMeter } from './types.ts';

/** How many of the inputs a dry run asked for it keeps, drawn evenly from the whole run (a reservoir). */
export const STAND_IN_SAMPLE = 256;

/** A dry run's model, with the real one it stands in for and a sample of what the run would send it. */
export interface StandInModel extends ModelAdapter {
  readonly real: ModelAdapter;
  /**
   * Up to STAND_IN_SAMPLE of the inputs the run sent, each equally likely (reservoir sampling, fixed seed): the
   * lengths the real run would send, for timing the real model (src/kinds/dry-run-time.ts).
   */
  sample(): ModelInput[];
}

export function standInModel(real: ModelAdapter): StandInModel {
  const kept: ModelInput[] = [];
  const draw = new Rng(0);
  let seen = 0;
  const keep = (input: ModelInput): void => {
    seen++;
    if (kept.length < STAND_IN_SAMPLE) kept.push(input);
    else {
      const j = draw.int(seen);
      if (j < STAND_IN_SAMPLE) kept[j] = input;
    }
  };
  const labels = real.info.labels ?? [];
  const answer = (input: ModelInput): ModelOutput => {
    const usage = real.estimate?.(input);
    const meta = { standIn: createHash('sha1').update(inputKey(input)).digest().readUInt32BE(0) / 2 ** 32, ...(usage ? { usage } : {}) };
    switch (real.info.task) {
      case 'token-classification': {
        const n = input.kind === 'tokens' ? input.tokens.length : 0;
        return { kind: 'tags', tags: Array.from({ length: n }, () => 'O'), scores: Array.from({ length: n }, () => 0), ...meta };
      }
      case 'question-answering':
        return { kind: 'spans', spans: [], ...meta };
      default:
        return { kind: 'classes', labels: labels.slice(), probs: labels.map(() => 1 / Math.max(1, labels.length)), ...meta };
    }
  };
  // What the real model would be sent and billed: the stand-in's answers, counted as the real meter counts.
  const prices = real.meter?.prices;
  const meter = {
    requests: 0,
    tokens: { input: 0, output: 0 },
    get cost(): number | null {
      return prices ? (meter.tokens.input * prices.input + meter.tokens.output * prices.output) / 1e6 : null;
    },
    ...(prices ? { prices } : {}),
  } satisfies UsageMeter;
  return {
    real,
    sample: () => kept.slice(),
    info: real.info,
    ...(real.cacheIdentity !== undefined ? { cacheIdentity: real.cacheIdentity } : {}),
    ...(real.estimate ? { meter } : {}),
    maxBatchSize: 4096,
    predict: async (inputs) =>
      inputs.map((input) => {
        keep(input);
        const out = answer(input);
        meter.requests++;
        meter.tokens.input += out.usage?.input ?? 0;
        meter.tokens.output += out.usage?.output ?? 0;
        return out;
      }),
    close: async () => real.close?.(),
  };
}
