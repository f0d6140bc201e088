/**
 * One entry point for every model spec: an ordered list of adapter factories, the first whose `test` accepts
 * the spec opens it (promptfoo's provider registry). Heavy adapters are imported on demand: transformers.js
 * and onnxruntime take about a second to import, which `--help` and HTTP models should not pay.
 *   http://… or https://…   → the HTTP adapter (task from GET /info unless given)
 *   openai:<model>          → an OpenAI-compatible chat-completions endpoint (--base-url), as classifier/tagger/QA
 *   anything else           → transformers.js: a local folder, or a Hugging Face hub id
 */
import type { HttpModelOptions } from './http-adapter.ts';
import type { OpenAiModelOptions } from './openai/adapter.ts';
import type { TransformersModelOptions } from './transformers/load.ts';
import type { ModelAdapter } from './types.ts';

/** Options of {@link loadModel}: each adapter reads the ones it knows. */
export type LoadModelOptions = TransformersModelOptions &
  Omit<HttpModelOptions, 'task'> &
  Pick<
    OpenAiModelOptions,
    'baseUrl' | 'template' | 'mapping' | 'regex' | 'structured' | 'temperature' | 'maxTokens' | 'prices' | 'maxCost' | 'dryRun'
  >;

/** Opens the model kinds whose spec it recognises. */
export interface AdapterFactory {
  /** Short name for messages ("http", "transformers.js"). */
  name: string;
  test(spec: string): boolean;
  open(spec: string, opts: LoadModelOptions): Promise<ModelAdapter>;
}

/** Whether a model spec is an http:// or https:// URL. */
export function isHttpSpec(spec: string): boolean {
  return /^https?:\/\//i.test(spec.trim());
}

/** Whether a model spec names an OpenAI-compatible chat model (openai:<model>). */
export function isOpenAiSpec(spec: string): boolean {
  return /^openai:/i.test(spec.trim());
}

/** Keeps only the options that are set, so adapters see their own defaults for the rest. */
function defined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** The built-in adapter factories, tried in order: HTTP for URLs, else transformers.js. */
export const ADAPTER_FACTORIES: readonly AdapterFactory[] = [
  {
    name: 'http',
    test: isHttpSpec,
    async open(spec, o) {
      const { createHttpModel } = await import('./http-adapter.ts');
      const { task, labels, batchSize, concurrency, timeoutMs, retries, backoffMs, maxBackoffMs, maxRetryAfterMs, authEnv, headers, seed } =
        o;
      return createHttpModel(
        spec.trim(),
        defined({
          task,
          labels,
          batchSize,
          concurrency,
          timeoutMs,
          retries,
          backoffMs,
          maxBackoffMs,
          maxRetryAfterMs,
          authEnv: authEnv || undefined,
          headers,
          seed,
        }),
      );
    },
  },
  {
    name: 'openai',
    test: isOpenAiSpec,
    async open(spec, o) {
      const { createOpenAiModel } = await import('./openai/adapter.ts');
      const {
        task,
        labels,
        concurrency,
        timeoutMs,
        retries,
        authEnv,
        headers,
        seed,
        baseUrl,
        template,
        mapping,
        regex,
        structured,
        temperature,
        maxTokens,
        prices,
        maxCost,
        dryRun,
      } = o;
      return createOpenAiModel(
        spec.trim().slice('openai:'.length),
        defined({
          task,
          labels,
          concurrency,
          timeoutMs,
          retries,
          authEnv: authEnv || undefined,
          headers,
          seed: typeof seed === 'number' ? seed : undefined,
          baseUrl,
          template,
          mapping,
          regex,
          structured,
          temperature,
          maxTokens,
          prices,
          maxCost,
          dryRun,
        }),
      );
    },
  },
  {
    name: 'transformers.js',
    test: () => true,
    async open(spec, o) {
      const { loadTransformersModel } = await import('./transformers/load.ts');
      // Two halves so that each fits a line: the options a transformers.js model takes, picked from the loader's.
      const { task, device, dtype, threads, onnxOptions, maxBatchSize, maxBatchTokens } = o;
      const { maxLength, topK, maxAnswerTokens, docStride, wordPiece, firstWordSpace } = o;
      const runtime = { task, device, dtype, threads, onnxOptions, maxBatchSize, maxBatchTokens };
      return loadTransformersModel(spec, defined({ ...runtime, maxLength, topK, maxAnswerTokens, docStride, wordPiece, firstWordSpace }));
    },
  },
];

/** Opens a model with the first factory whose `test` accepts the spec (the last built-in one accepts anything). */
export async function loadModel(
  spec: string,
  opts: LoadModelOptions = {},
  factories: readonly AdapterFactory[] = ADAPTER_FACTORIES,
): Promise<ModelAdapter> {
  const factory = factories.find((f) => f.test(spec))!;
  return factory.open(spec, opts);
}
