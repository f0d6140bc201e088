/**
 * zod schemas for the JSON that crosses the HTTP model API (docs/http-model-api.md), and the checks every
 * adapter applies to a model's answers (right count, right kind for the task, one tag per word, …).
 */
import { z } from 'zod';
import { ModelError } from '../util/errors.ts';
import type { ModelInfo, ModelInput, ModelOutput, ModelTask } from './types.ts';

/** The tasks a model adapter can declare. */
export const MODEL_TASKS = ['text-classification', 'token-classification', 'question-answering'] as const;

/** {@link MODEL_TASKS} as a zod enum. */
export const ModelTaskSchema = z.enum(MODEL_TASKS);

/** A model input as JSON (what POST /predict carries), checked. */
export const ModelInputSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('text'), text: z.string() }),
  z.object({ kind: z.literal('pair'), textA: z.string(), textB: z.string() }),
  z.object({ kind: z.literal('tokens'), tokens: z.array(z.string()) }),
  z.object({ kind: z.literal('qa'), question: z.string(), context: z.string() }),
]);

const finite = z.number();

/** A model output as JSON, checked for shape (values are checked by checkOutputs). */
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
  'fill-mask': [],
};

const TASK_OUTPUT_KIND: Record<Exclude<ModelTask, 'fill-mask'>, ModelOutput['kind']> = {
  'text-classification': 'classes',
  'token-classification': 'tags',
  'question-answering': 'spans',
};

/** Why an input cannot go to a model of this task, or null. */
export function checkInputKind(task: ModelTask, input: ModelInput, index: number): string | null {
  if (task === 'fill-mask')
    return 'a fill-mask (masked language) model answers no attack queries; use it with `textstress probe cloze|layers|heads`';
  const kinds = TASK_INPUT_KINDS[task];
  if (kinds.includes(input.kind)) return null;
  return `input ${index} is a '${input.kind}' input, but a ${task} model takes only ${kinds.map((k) => `'${k}'`).join(' or ')} inputs`;
}

/** Tolerances of the probability checks: rounding in JSON and float32 softmax stays well inside them. */
const PROB_EPS = 1e-6;
const SUM_EPS = 1e-3;

export type OutputCheck =
  | { ok: true; outputs: ModelOutput[] }
  /** `index`: the output at fault, if one is; `modelWide`: the answer's shape is wrong whatever the input. */
  | { ok: false; problem: string; index?: number; modelWide: boolean };

/**
 * Refuses a label (or tag) set that names a label twice, in any case: labels are matched case-insensitively, so
 * "Positive" and "positive" could not be told apart. `whose`: what gave the labels, e.g. "GET http://…/info".
 */
export function checkLabelSet(labels: readonly string[] | undefined, whose: string): void {
  const seen = new Map<string, string>();
  for (const l of labels ?? []) {
    const twin = seen.get(l.toLowerCase());
    if (twin !== undefined) {
      const twice = twin === l ? `"${l}" twice` : `"${twin}" and "${l}", which differ only in case`;
      throw new ModelError(`the labels of ${whose} [${labels!.join(', ')}] name ${twice}.`, {
        hint: 'Name each label once: probabilities are read by label name, so a repeated name makes them ambiguous.',
      });
    }
    seen.set(l.toLowerCase(), l);
  }
}

/**
 * Checks a model's answers against its inputs and its declared labels: one output per input, each of the task's
 * kind and well formed. Class outputs are aligned by their own label names (case-insensitive, as gold labels are
 * matched) onto the model's label order (an endpoint may list them in any order, as the API says probs follow the
 * output's labels), or, for a model that declares no labels, onto the first output's: an unknown, missing or
 * repeated label, or probabilities that are not finite, not in [0, 1] or do not sum to 1, are refused. Tags must
 * come from the model's tag set, with scores in [0, 1]; answer spans must lie inside the context and their text
 * must be what the offsets select. `raw` may be anything (parsed JSON); returns the typed outputs or the first
 * problem in one line (`modelWide`: the answer's shape is wrong for every input, not just this one).
 */
export function checkOutputs(task: ModelTask, inputs: readonly ModelInput[], raw: unknown, labels?: readonly string[]): OutputCheck {
  const fail = (problem: string, modelWide = false, index?: number): OutputCheck => ({
    ok: false,
    problem,
    modelWide,
    ...(index === undefined ? {} : { index }),
  });
  if (!Array.isArray(raw)) return fail(`outputs is ${raw === null ? 'null' : typeof raw}, not a list`, true);
  if (raw.length !== inputs.length) return fail(`outputs has ${raw.length} item(s) for ${inputs.length} input(s)`, true);
  if (task === 'fill-mask') return fail('a fill-mask model answers no attack queries', true);
  const want = TASK_OUTPUT_KIND[task];
  const known = labels && labels.length ? labels : undefined;
  /** The label set every class output must use: the model's, else the first output's. */
  let labelSet = known;
  const outputs: ModelOutput[] = [];
  for (let i = 0; i < raw.length; i++) {
    const bad = (problem: string, modelWide = false): OutputCheck => fail(problem, modelWide, i);
    const parsed = ModelOutputSchema.safeParse(raw[i]);
    if (!parsed.success) return bad(describeZodError(parsed.error, `outputs[${i}]`));
    let out = parsed.data as ModelOutput;
    if (out.kind !== want) return bad(`outputs[${i}] has kind '${out.kind}', but a ${task} model must answer '${want}'`, true);
    const input = inputs[i]!;
    if (out.kind === 'classes') {
      const c = out;
      const lower = c.labels.map((l) => l.toLowerCase());
      if (c.labels.length === 0) return bad(`outputs[${i}].labels is empty`, true);
      if (c.labels.length !== c.probs.length) return bad(`outputs[${i}] has ${c.probs.length} probs for ${c.labels.length} labels`, true);
      if (new Set(lower).size !== lower.length) return bad(`outputs[${i}].labels names a label twice: [${c.labels.join(', ')}]`, true);
      if (labelSet) {
        const set = labelSet;
        const unknown = c.labels.filter((_, k) => !set.some((l) => l.toLowerCase() === lower[k]));
        const missing = set.filter((l) => !lower.includes(l.toLowerCase()));
        if (unknown.length || missing.length) {
          const quoted = (xs: string[]): string => xs.map((l) => `"${l}"`).join(', ');
          return bad(
            `outputs[${i}].labels [${c.labels.join(', ')}] is not ${known ? "the model's label set" : 'the label set of outputs[0]'} [${set.join(', ')}]` +
              `${unknown.length ? `: unknown ${quoted(unknown)}` : ''}${missing.length ? `${unknown.length ? ';' : ':'} missing ${quoted(missing)}` : ''}`,
            true,
          );
        }
      }
      const off = c.probs.findIndex((p) => !Number.isFinite(p) || p < -PROB_EPS || p > 1 + PROB_EPS);
      if (off >= 0) return bad(`outputs[${i}].probs[${off}] = ${c.probs[off]} is not a probability (finite, in [0, 1])`);
      const sum = c.probs.reduce((a, b) => a + b, 0);
      if (Math.abs(sum - 1) > SUM_EPS) return bad(`outputs[${i}].probs sum to ${Number(sum.toPrecision(6))}, not 1`);
      if (labelSet)
        out = { kind: 'classes', labels: labelSet.slice(), probs: labelSet.map((l) => c.probs[lower.indexOf(l.toLowerCase())]!) };
      else labelSet = c.labels;
    } else if (out.kind === 'tags') {
      if (out.tags.length !== out.scores.length)
        return bad(`outputs[${i}] has ${out.scores.length} scores for ${out.tags.length} tags`, true);
      if (input.kind === 'tokens' && out.tags.length !== input.tokens.length) {
        return bad(`outputs[${i}].tags has ${out.tags.length} tag(s) for ${input.tokens.length} word(s)`);
      }
      const unknown = known ? out.tags.find((t) => !known.includes(t)) : undefined;
      if (unknown !== undefined)
        return bad(`outputs[${i}].tags holds "${unknown}", which is not in the model's tag set [${known!.join(', ')}]`, true);
      const off = out.scores.findIndex((p) => !Number.isFinite(p) || p < -PROB_EPS || p > 1 + PROB_EPS);
      if (off >= 0) return bad(`outputs[${i}].scores[${off}] = ${out.scores[off]} is not a probability (finite, in [0, 1])`);
    } else {
      for (let j = 0; j < out.spans.length; j++) {
        const s = out.spans[j]!;
        if (s.end < s.start) return bad(`outputs[${i}].spans[${j}] ends (${s.end}) before it starts (${s.start})`);
        if (!Number.isFinite(s.score)) return bad(`outputs[${i}].spans[${j}].score is ${s.score}, not a finite number`);
        if (input.kind === 'qa' && s.end > input.context.length) {
          return bad(`outputs[${i}].spans[${j}] ends at ${s.end}, past the end of the ${input.context.length}-character context`);
        }
        if (input.kind === 'qa' && input.context.slice(s.start, s.end) !== s.text) {
          return bad(`outputs[${i}].spans[${j}].text "${s.text.slice(0, 40)}" is not the context's text at ${s.start}–${s.end}`);
        }
      }
    }
    outputs.push(out);
  }
  return { ok: true, outputs };
}

/** A ModelInfo as sent by GET /info. */
export function infoToJson(info: ModelInfo, extra: { tokenize?: boolean; maxBatchSize?: number } = {}): InfoResponse {
  if (info.task === 'fill-mask')
    throw new ModelError(`${info.id} is a fill-mask model: it answers no attack queries, so it cannot be served.`);
  return {
    task: info.task,
    ...(info.labels ? { labels: info.labels } : {}),
    id: info.id,
    ...(extra.tokenize ? { tokenize: true } : {}),
    ...(extra.maxBatchSize ? { maxBatchSize: extra.maxBatchSize } : {}),
  };
}
