/**
 * One entry point for every model spec the CLI accepts:
 *   http://… or https://…   → the HTTP adapter (task from GET /info unless given)
 *   anything else           → transformers.js: a local folder, or a Hugging Face hub id
 */
import { createHttpModel, type HttpModelOptions } from './http-adapter.ts';
import type { TransformersModelOptions } from './transformers-adapter.ts';
import type { ModelAdapter } from './types.ts';

export type LoadModelOptions = TransformersModelOptions & Omit<HttpModelOptions, 'task'>;

export function isHttpSpec(spec: string): boolean {
  return /^https?:\/\//i.test(spec.trim());
}

export async function loadModel(spec: string, opts: LoadModelOptions = {}): Promise<ModelAdapter> {
  if (isHttpSpec(spec)) {
    const { task, labels, batchSize, concurrency, timeoutMs, retries, backoffMs, maxBackoffMs, maxRetryAfterMs, authEnv, headers, seed } =
      opts;
    return createHttpModel(spec.trim(), {
      ...(task ? { task } : {}),
      ...(labels ? { labels } : {}),
      ...(batchSize !== undefined ? { batchSize } : {}),
      ...(concurrency !== undefined ? { concurrency } : {}),
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
      ...(retries !== undefined ? { retries } : {}),
      ...(backoffMs !== undefined ? { backoffMs } : {}),
      ...(maxBackoffMs !== undefined ? { maxBackoffMs } : {}),
      ...(maxRetryAfterMs !== undefined ? { maxRetryAfterMs } : {}),
      ...(authEnv ? { authEnv } : {}),
      ...(headers ? { headers } : {}),
      ...(seed !== undefined ? { seed } : {}),
    });
  }
  const { task, device, dtype, maxBatchSize, maxLength, topK, maxAnswerTokens, docStride } = opts;
  // Loaded on demand: transformers.js + onnxruntime take about a second to import, which `--help` and
  // HTTP models should not pay.
  const { loadTransformersModel } = await import('./transformers-adapter.ts');
  return loadTransformersModel(spec, {
    ...(task ? { task } : {}),
    ...(device ? { device } : {}),
    ...(dtype ? { dtype } : {}),
    ...(maxBatchSize !== undefined ? { maxBatchSize } : {}),
    ...(maxLength !== undefined ? { maxLength } : {}),
    ...(topK !== undefined ? { topK } : {}),
    ...(maxAnswerTokens !== undefined ? { maxAnswerTokens } : {}),
    ...(docStride !== undefined ? { docStride } : {}),
  });
}
