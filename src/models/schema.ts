/**
 * zod schemas for the JSON that crosses the HTTP model API (docs/http-model-api.md), and the checks every
 * adapter applies to a model's answers (right count, right kind for the task, one tag per word, …).
 */
import { z } from 'zod';
import type { ModelInfo, ModelInput, ModelOutput, ModelTask } from './types.ts';

export const MODEL_TASKS = ['text-classification', 'token-classification', 'question-answering'] as const;

export const ModelTaskSchema = z.enum(MODEL_TASKS);

export const ModelInputSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('text'), text: z.string() }),
  z.object({ kind: z.literal('pair'), textA: z.string(), textB: z.string() }),
  z.object({ kind: z.literal('tokens'), tokens: z.array(z.string()) }),
  z.object({ kind: z.literal('qa'), question: z.string(), context: z.string() }),
]);

const finite = z.number();

export const ModelOutputSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('classes'), labels: z.array(z.string()), probs: z.array(finite) }),
  z.object({ kind: z.literal('tags'), tags: z.array(z.string()), scores: z.array(finite) }),
  z.object({
    kind: z.literal('spans'),
    spans: z.array(
      z.object({ text: z.string(), start: z.number().int().nonnegative(), end: z.number().int().nonnegative(), score: finite }),
    ),
  }),
]);

/** Body of POST /predict. */
export const PredictRequestSchema = z.object({ inputs: z.array(ModelInputSchema) });
/** Answer of POST /predict. */
export const PredictResponseSchema = z.object({ outputs: z.array(z.unknown()) });
/** Answer of GET /info. */
export const InfoResponseSchema = z.object({
  task: ModelTaskSchema,
  labels: z.array(z.string()).optional(),
  id: z.string().optional(),
  /** The server answers POST /tokenize. */
  tokenize: z.boolean().optional(),
  maxBatchSize: z.number().int().positive().optional(),
});
/** Body of POST /tokenize and its answer. */
export const TokenizeRequestSchema = z.object({ texts: z.array(z.string()) });
export const TokenizeResponseSchema = z.object({ tokens: z.array(z.array(z.string())) });

export type InfoResponse = z.infer<typeof InfoResponseSchema>;

/** `inputs[3].tokens` style path of a zod issue. */
function issuePath(root: string, path: readonly PropertyKey[]): string {
  let s = root;
  for (const p of path) s += typeof p === 'number' ? `[${p}]` : `.${String(p)}`;
  return s;
}

/** The first few problems of a failed parse, as one line: `inputs[2].kind: Invalid input; …`. */
export function describeZodError(err: z.ZodError, root: string, max = 3): string {
  const parts = err.issues.slice(0, max).map((i) => `${issuePath(root, i.path)}: ${i.message}`);
  if (err.issues.length > max) parts.push(`and ${err.issues.length - max} more problem(s)`);
  return parts.join('; ');
}

/** Input kinds each task answers. */
export const TASK_INPUT_KINDS: Record<ModelTask, readonly ModelInput['kind'][]> = {
  'text-classification': ['text', 'pair'],
  'token-classification': ['tokens'],
  'question-answering': ['qa'],
};

const TASK_OUTPUT_KIND: Record<ModelTask, ModelOutput['kind']> = {
  'text-classification': 'classes',
  'token-classification': 'tags',
  'question-answering': 'spans',
};

/** Why an input cannot go to a model of this task, or null. */
export function checkInputKind(task: ModelTask, input: ModelInput, index: number): string | null {
  const kinds = TASK_INPUT_KINDS[task];
  if (kinds.includes(input.kind)) return null;
  return `input ${index} is a '${input.kind}' input, but a ${task} model takes only ${kinds.map((k) => `'${k}'`).join(' or ')} inputs`;
}

/**
 * Checks a model's answers against its inputs: one output per input, each of the task's kind, well formed.
 * `raw` may be anything (parsed JSON); returns the typed outputs or a one-line description of the first problem.
 */
export function checkOutputs(
  task: ModelTask,
  inputs: readonly ModelInput[],
  raw: unknown,
): { ok: true; outputs: ModelOutput[] } | { ok: false; problem: string } {
  if (!Array.isArray(raw)) return { ok: false, problem: `outputs is ${raw === null ? 'null' : typeof raw}, not a list` };
  if (raw.length !== inputs.length) {
    return { ok: false, problem: `outputs has ${raw.length} item(s) for ${inputs.length} input(s)` };
  }
  const want = TASK_OUTPUT_KIND[task];
  const outputs: ModelOutput[] = [];
  for (let i = 0; i < raw.length; i++) {
    const parsed = ModelOutputSchema.safeParse(raw[i]);
    if (!parsed.success) return { ok: false, problem: describeZodError(parsed.error, `outputs[${i}]`) };
    const out = parsed.data as ModelOutput;
    if (out.kind !== want) {
      return { ok: false, problem: `outputs[${i}] has kind '${out.kind}', but a ${task} model must answer '${want}'` };
    }
    const input = inputs[i]!;
    if (out.kind === 'classes') {
      if (out.labels.length === 0) return { ok: false, problem: `outputs[${i}].labels is empty` };
      if (out.labels.length !== out.probs.length) {
        return { ok: false, problem: `outputs[${i}] has ${out.probs.length} probs for ${out.labels.length} labels` };
      }
    } else if (out.kind === 'tags') {
      if (out.tags.length !== out.scores.length) {
        return { ok: false, problem: `outputs[${i}] has ${out.scores.length} scores for ${out.tags.length} tags` };
      }
      if (input.kind === 'tokens' && out.tags.length !== input.tokens.length) {
        return { ok: false, problem: `outputs[${i}].tags has ${out.tags.length} tag(s) for ${input.tokens.length} word(s)` };
      }
    } else {
      for (let j = 0; j < out.spans.length; j++) {
        const s = out.spans[j]!;
        if (s.end < s.start) return { ok: false, problem: `outputs[${i}].spans[${j}] ends (${s.end}) before it starts (${s.start})` };
        if (input.kind === 'qa' && s.end > input.context.length) {
          return {
            ok: false,
            problem: `outputs[${i}].spans[${j}] ends at ${s.end}, past the end of the ${input.context.length}-character context`,
          };
        }
      }
    }
    outputs.push(out);
  }
  return { ok: true, outputs };
}

/** A ModelInfo as sent by GET /info. */
export function infoToJson(info: ModelInfo, extra: { tokenize?: boolean; maxBatchSize?: number } = {}): InfoResponse {
  return {
    task: info.task,
    ...(info.labels ? { labels: info.labels } : {}),
    id: info.id,
    ...(extra.tokenize ? { tokenize: true } : {}),
    ...(extra.maxBatchSize ? { maxBatchSize: extra.maxBatchSize } : {}),
  };
}
