/**
 * onnxruntime's session settings for transformers.js models (`--threads`, `--onnx-options`), validated here and
 * handed to the session as its SessionOptions. Unset settings keep onnxruntime's defaults (intra-op threads = physical
 * cores, graph optimisation `all`, memory arena and pattern on, sequential execution): BENCHMARKS.md ("BERT-base at
 * the speed of the hardware") found none of the others faster beyond a loaded 2-core machine's noise, and more
 * threads than cores clearly slower.
 */
import type { InferenceSession } from 'onnxruntime-node';
import { z } from 'zod';
import { TextstressError } from '../../util/errors.ts';

export const GRAPH_OPTIMIZATION_LEVELS = ['disabled', 'basic', 'extended', 'all'] as const;
export const EXECUTION_MODES = ['sequential', 'parallel'] as const;

/** The settings `--onnx-options` takes, by their names there. */
export const OnnxOptionsSchema = z
  .object({
    inter_op_threads: z.number().int().min(1).describe('threads that run independent nodes at once (with execution_mode=parallel)'),
    graph_optimization: z.enum(GRAPH_OPTIMIZATION_LEVELS).describe("onnxruntime's graph rewrites (fusions) at load"),
    mem_arena: z.boolean().describe('keep freed memory for later runs (faster; the process holds its peak)'),
    mem_pattern: z.boolean().describe('plan allocations from the previous run of the same shapes'),
    execution_mode: z.enum(EXECUTION_MODES).describe('run independent nodes one after the other, or at once'),
    prepacking: z.boolean().describe("pre-pack constant weights into the matrix kernels' layout (on: onnxruntime's default)"),
  })
  .partial()
  .strict();

/** onnxruntime session settings by their `--onnx-options` names (each optional; unset ones keep onnxruntime's defaults). */
export type OnnxOptions = z.output<typeof OnnxOptionsSchema>;

/** The session settings a transformers.js model is loaded with. */
export interface OnnxSessionSettings extends OnnxOptions {
  /** Threads of one node's kernel (onnxruntime's intra-op threads; default: the physical cores). */
  threads?: number;
}

const BOOLEAN_WORDS: Record<string, boolean> = {
  on: true,
  true: true,
  yes: true,
  '1': true,
  off: false,
  false: false,
  no: false,
  '0': false,
};

/**
 * `--onnx-options` as written on the command line: `key=value` pairs separated by commas, e.g.
 * `graph_optimization=basic,mem_arena=off`. A readable error names the pair at fault and the keys allowed.
 */
export function parseOnnxOptions(raw: string): OnnxOptions {
  const out: Record<string, unknown> = {};
  const keys = Object.keys(OnnxOptionsSchema.shape);
  for (const pair of raw
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const eq = pair.indexOf('=');
    const key = (eq < 0 ? pair : pair.slice(0, eq)).trim().replace(/-/g, '_');
    const value = eq < 0 ? '' : pair.slice(eq + 1).trim();
    if (!keys.includes(key)) {
      throw new TextstressError(`--onnx-options: unknown setting "${key}".`, { hint: `The settings are ${keys.join(', ')}.` });
    }
    if (value === '') throw new TextstressError(`--onnx-options: "${pair}" gives no value (write ${key}=…).`);
    const field = OnnxOptionsSchema.shape[key as keyof OnnxOptions].unwrap();
    out[key] =
      field instanceof z.ZodBoolean ? (BOOLEAN_WORDS[value.toLowerCase()] ?? value) : field instanceof z.ZodNumber ? Number(value) : value;
  }
  return checkOnnxOptions(out, '--onnx-options');
}

/** Settings from a suite file or a library call, checked; `where` names them in the error. */
export function checkOnnxOptions(value: unknown, where = 'onnx options'): OnnxOptions {
  const parsed = OnnxOptionsSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const key = issue.path.join('.');
  throw new TextstressError(`${where}: ${key ? `${key}: ` : ''}${issue.message}.`, {
    hint: `The settings are ${Object.keys(OnnxOptionsSchema.shape).join(', ')}; e.g. graph_optimization=basic,mem_arena=off.`,
  });
}

/** onnxruntime's SessionOptions for the settings: only those set (the rest stay onnxruntime's defaults). */
export function sessionOptionsOf(s: OnnxSessionSettings): InferenceSession.SessionOptions {
  return {
    ...(s.threads !== undefined ? { intraOpNumThreads: s.threads } : {}),
    ...(s.inter_op_threads !== undefined ? { interOpNumThreads: s.inter_op_threads } : {}),
    ...(s.graph_optimization !== undefined ? { graphOptimizationLevel: s.graph_optimization } : {}),
    ...(s.mem_arena !== undefined ? { enableCpuMemArena: s.mem_arena } : {}),
    ...(s.mem_pattern !== undefined ? { enableMemPattern: s.mem_pattern } : {}),
    ...(s.execution_mode !== undefined ? { executionMode: s.execution_mode } : {}),
    // onnxruntime-node passes session config entries through `extra` (onnxruntime's session.disable_prepacking).
    ...(s.prepacking === false ? { extra: { session: { disable_prepacking: '1' } } } : {}),
  };
}
