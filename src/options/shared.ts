/**
 * The options every run shares — the model, the data and the run itself — declared once: each one's schema (type,
 * bounds, default, description) and where it appears: its flag, its key in a suite file, whether run.json keeps it
 * (how merge and queue workers reopen a run), whether a resume must match it, and which loadModel option it feeds.
 * The CLI's flags, the suite schema, the reserved setting names, run.json's request and the model's load options
 * are all derived from this table (src/options/derive.ts); one spelling per option everywhere.
 */
import { z } from 'zod';
import { LABEL_MAPPINGS, type LabelMapping } from '../models/openai/mapping.ts';
import { MODEL_TASKS } from '../models/schema.ts';
import { DTYPES, type Dtype } from '../models/transformers/dtype.ts';
import { OnnxOptionsSchema, parseOnnxOptions, type OnnxOptions } from '../models/transformers/runtime.ts';
import { WORD_PIECES, type WordPiece } from '../models/types.ts';
import { parseShard, type Shard } from './shard.ts';
import { int, load, option } from './meta.ts';

import type { SharedOption } from './meta.ts';
export type { OptionMeta, SharedOption, SuiteEntry } from './meta.ts';
import { DATA_OPTIONS } from './data.ts';
export { DATA_OPTIONS } from './data.ts';

/** The model options. */
export const MODEL_OPTIONS = {
  model: option(
    z
      .string()
      .min(1)
      .describe(
        'model folder (transformers.js layout), hub id, http(s):// endpoint, openai:<model>, or a built-in name ' +
          '(demo-sst2, demo-ner, demo-sick, demo-squad, demo-qnli, demo-cola)',
      ),
    { flag: { short: 'm', arg: '<spec>' }, suite: { in: 'model', key: 'path' }, saved: true },
  ),
  task: option(z.enum(MODEL_TASKS).describe('model task, when config.json or GET /info cannot tell'), {
    flag: { arg: '<task>' },
    suite: { in: 'model' },
    saved: true,
    load: load((task: (typeof MODEL_TASKS)[number]) => ({ task })),
  }),
  wordPiece: option(
    z
      .enum(WORD_PIECES)
      .describe(
        'taggers (model folders, hub ids): the piece of a word its tag is read from: first, or first-nonempty (default): the first ' +
          'that holds one of its characters (a bare ▁ or Ġ piece holds none)',
      ),
    {
      flag: { arg: '<which>' },
      suite: { in: 'model' },
      saved: true,
      identity: 'run',
      load: load((wordPiece: WordPiece) => ({ wordPiece })),
    },
  ),
  firstWordSpace: option(
    z
      .boolean()
      .describe(
        "taggers with byte-level BPE: encode the sentence's first word after a space like the others (ĠEU, Hugging Face's " +
          'is_split_into_words with add_prefix_space) instead of as a text starts (EU, or ĠEU if the tokenizer adds the space itself)',
      ),
    { flag: {}, suite: { in: 'model' }, saved: true, identity: 'run', load: load((firstWordSpace: boolean) => ({ firstWordSpace })) },
  ),
  authEnv: option(
    z.string().min(1).describe('HTTP and openai: models: environment variable whose value is sent as the Authorization header'),
    {
      flag: { arg: '<VAR>' },
      suite: { in: 'model' },
      saved: true,
      load: load((authEnv: string) => ({ authEnv })),
    },
  ),
  batchSize: option(int(1).describe('inputs per model batch / HTTP request'), {
    flag: { arg: '<n>' },
    suite: { in: 'model' },
    saved: true,
    load: load((n: number) => ({ batchSize: n, maxBatchSize: n })),
  }),
  batchTokens: option(
    int(1).describe(
      'transformers.js models: most tokens per ONNX run, rows × padded length (default 4096): long inputs run in smaller batches',
    ),
    { flag: { arg: '<n>' }, suite: { in: 'model' }, saved: true, load: load((maxBatchTokens: number) => ({ maxBatchTokens })) },
  ),
  dtype: option(
    z
      .enum(DTYPES)
      .describe(
        'transformers.js models: weight type, i.e. which graph file loads (transformers.js names): fp32 onnx/model.onnx (default), ' +
          'fp16 model_fp16.onnx, q8 model_quantized.onnx, int8, uint8, q4 model_q4.onnx, q4f16, bnb4 …',
      ),
    { flag: { arg: '<type>' }, suite: { in: 'model' }, saved: true, identity: 'run', load: load((dtype: Dtype) => ({ dtype })) },
  ),
  threads: option(int(1).describe("transformers.js models: onnxruntime's threads per model run (default: the physical cores)"), {
    flag: { arg: '<n>' },
    suite: { in: 'model' },
    saved: true,
    load: load((threads: number) => ({ threads })),
  }),
  onnxOptions: option(
    OnnxOptionsSchema.describe(
      'transformers.js models: further onnxruntime session settings, key=value,…: inter_op_threads, graph_optimization ' +
        '(disabled|basic|extended|all), mem_arena (on|off), mem_pattern (on|off), execution_mode (sequential|parallel), prepacking (on|off)',
    ),
    {
      flag: { arg: '<k=v,...>', parse: parseOnnxOptions },
      suite: { in: 'model' },
      saved: true,
      load: load((onnxOptions: OnnxOptions) => ({ onnxOptions })),
    },
  ),
  timeout: option(int(1).describe('HTTP models: per-request timeout in ms'), {
    flag: { arg: '<ms>' },
    suite: { in: 'model' },
    saved: true,
    load: load((timeoutMs: number) => ({ timeoutMs })),
  }),
  retries: option(int(0).describe('HTTP models: retries on 5xx/429/timeouts'), {
    flag: { arg: '<n>' },
    suite: { in: 'model' },
    saved: true,
    load: load((retries: number) => ({ retries })),
  }),
  requestConcurrency: option(int(1).describe('HTTP models: requests in flight at once'), {
    flag: { arg: '<n>' },
    suite: { in: 'model' },
    saved: true,
    load: load((concurrency: number) => ({ concurrency })),
  }),
  // LLM endpoints (openai:<model>): docs/llm.md
  baseUrl: option(
    z
      .string()
      .min(1)
      .describe(
        'openai: models: the endpoint, …/v1 (default OPENAI_BASE_URL, else https://api.openai.com/v1); the key comes from --auth-env (default OPENAI_API_KEY)',
      ),
    { flag: { arg: '<url>' }, suite: { in: 'model' }, saved: true, load: load((baseUrl: string) => ({ baseUrl })) },
  ),
  labels: option(
    z
      .array(z.string().min(1))
      .min(1)
      .describe('openai: models: the label names the prompt offers, e.g. negative,positive (taggers: the tag set)'),
    {
      flag: { arg: '<list>' },
      suite: { in: 'model' },
      saved: true,
      load: load((labels: string[]) => ({ labels })),
    },
  ),
  template: option(
    z
      .string()
      .min(1)
      .describe(
        'openai: models: prompt template file ({{text}}, {{text_a}}, {{text_b}}, {{labels}}, {{tokens}}, {{question}}, ' +
          '{{context}}); .txt = user message, .json/.yaml = {system, user}',
      ),
    { flag: { arg: '<file>' }, suite: { in: 'model', path: true }, saved: true, load: load((template: string) => ({ template })) },
  ),
  mapping: option(
    z
      .enum(LABEL_MAPPINGS as [LabelMapping, ...LabelMapping[]])
      .describe('openai: classifiers: how the answer becomes a label (logprobs = a class distribution from the label tokens)'),
    { flag: { arg: '<how>' }, suite: { in: 'model' }, saved: true, load: load((mapping: LabelMapping) => ({ mapping })) },
  ),
  labelRegex: option(z.string().min(1).describe('openai: with --mapping regex: its first group (else the match) names the label'), {
    flag: { arg: '<re>' },
    suite: { in: 'model' },
    saved: true,
    load: load((regex: string) => ({ regex })),
  }),
  structured: option(
    z.boolean().default(true).describe('openai: ask for JSON by schema (response_format) for the json mapping, tagging and QA'),
    {
      flag: {},
      suite: { in: 'model' },
      saved: true,
      load: load((structured: boolean) => ({ structured })),
    },
  ),
  llmTemperature: option(z.number().min(0).describe('openai: sampling temperature (default 0)'), {
    flag: { arg: '<t>' },
    suite: { in: 'model' },
    saved: true,
    load: load((temperature: number) => ({ temperature })),
  }),
  maxTokens: option(int(1).describe('openai: most tokens of one answer (default: 8 classification, 128 QA, 1024 tagging)'), {
    flag: { arg: '<n>' },
    suite: { in: 'model' },
    saved: true,
    load: load((maxTokens: number) => ({ maxTokens })),
  }),
  priceInput: option(z.number().min(0).describe('openai: price per million input tokens, in dollars (for the cost meter)'), {
    flag: { arg: '<usd>' },
    suite: { in: 'model' },
    saved: true,
  }),
  priceOutput: option(z.number().min(0).describe('openai: price per million output tokens, in dollars'), {
    flag: { arg: '<usd>' },
    suite: { in: 'model' },
    saved: true,
  }),
  maxCost: option(
    z
      .number()
      .gt(0)
      .describe(
        'openai: stop (resumably) before this run spends more than this many dollars; needs the prices. A request is sent only ' +
          'while spent + the worst case of those in flight + its own stays within it; none after the first refused',
      ),
    {
      flag: { arg: '<usd>' },
      suite: { in: 'model' },
      saved: true,
      load: load((maxCost: number) => ({ maxCost })),
    },
  ),
  cacheDir: option(
    z
      .string()
      .min(1)
      .describe(
        'persistent query cache folder (default TEXTSTRESS_CACHE_DIR, else ~/.cache/textstress); on by default for openai: models, for HTTP models when given',
      ),
    { flag: { arg: '<dir>' }, suite: { in: 'model', path: true }, saved: true },
  ),
  cache: option(
    z.boolean().default(true).describe('the persistent query cache (on for openai: models, for others when a cache folder is given)'),
    {
      flag: {},
      suite: { in: 'model' },
      saved: true,
    },
  ),
  defence: option(
    z
      .string()
      .min(1)
      .describe('defend the model with RESEMBLE: a config file from `textstress resemble fit` (text classifiers only; not NER or QA)'),
    {
      flag: { arg: '<file>' },
      suite: { in: 'model', path: true },
      saved: true,
      identity: 'run',
    },
  ),
  allowRemote: option(
    z
      .array(z.string().min(1))
      .min(1)
      .describe(
        'URLs a --defence / resemble config may send texts to (its annotator model); a config alone never sends data off this machine',
      ),
    // Not in suite files: a file must not grant itself the right to send data away.
    { flag: { arg: '<url,...>' }, suite: null, saved: true },
  ),
} satisfies Record<string, SharedOption>;

/** The options of a run's output and execution. */
export const RUN_OPTIONS = {
  out: option(z.string().min(1).describe('output folder for summary.json and results.jsonl'), {
    flag: { short: 'o', arg: '<dir>' },
    suite: null,
    saved: false,
  }),
  seed: option(int(0).default(0).describe('seed for every random choice'), {
    flag: { short: 's', arg: '<n>' },
    suite: { in: 'test' },
    saved: true,
  }),
  resume: option(z.boolean().describe('continue an interrupted run in --out'), { flag: {}, suite: null, saved: false }),
  overwrite: option(z.boolean().describe('replace a run already in --out'), { flag: {}, suite: null, saved: false }),
  concurrency: option(int(1).default(32).describe('examples attacked at once (their queries share model batches)'), {
    flag: { arg: '<n>' },
    suite: { in: 'test' },
    saved: true,
  }),
  labelMap: option(z.string().min(1).describe('dataset label → model label, e.g. "0=NEGATIVE,1=POSITIVE"'), {
    flag: { arg: '<pairs>' },
    suite: { in: 'model' },
    saved: true,
    identity: 'data',
  }),
  compact: option(
    z.boolean().describe('compact results.jsonl for very large runs: no search traces or probabilities, texts of successful attacks only'),
    {
      flag: {},
      suite: { in: 'test' },
      saved: true,
    },
  ),
  queue: option(
    z
      .string()
      .min(1)
      .describe(
        'spread the examples over workers through Redis (BullMQ): redis://host:port; start workers with `textstress worker --queue URL`',
      ),
    { flag: { arg: '<url>' }, suite: null, saved: false, secret: true },
  ),
  blockSize: option(int(1).describe('with --queue: examples per job (default 16)'), { flag: { arg: '<n>' }, suite: null, saved: false }),
  shard: option(
    z
      .object({ index: z.number().int().min(0), count: z.number().int().min(1) })
      .describe('only the examples of shard I of N (by a stable hash of their id); join the N output folders with `textstress merge`'),
    {
      flag: { arg: '<I/N>', parse: parseShard },
      suite: null,
      saved: false,
    },
  ),
  maxQueries: option(
    int(1).describe(
      'per-example query budget of an attack: a search that would ask more ends on the best state it reached (marked query_budget_exhausted)',
    ),
    { flag: { arg: '<n>' }, suite: { in: 'test' }, saved: true, identity: 'run' },
  ),
  dryRun: option(
    z
      .boolean()
      .describe(
        'send nothing: the requests, tokens and cost of the run (upper bounds) against a stand-in model; for a local ' +
          'model also its expected wall time (a 20-example pilot) and model time at most',
      ),
    {
      flag: {},
      suite: null,
      saved: false,
    },
  ),
  json: option(z.boolean().describe('print the summary as JSON instead of a table'), { flag: {}, suite: null, saved: false }),
  progress: option(z.boolean().default(true).describe('the progress bar'), { flag: {}, suite: null, saved: false }),
} satisfies Record<string, SharedOption>;

/** Every shared option, by group, in the order flags, docs and saved requests list them. */
export const SHARED_OPTIONS = { model: MODEL_OPTIONS, data: DATA_OPTIONS, run: RUN_OPTIONS } as const;

type Values<G extends Record<string, SharedOption>> = { [K in keyof G]?: z.output<G[K]['schema']> };

/** A model as a run names it: the spec and its options. */
export type ModelSpec = Values<typeof MODEL_OPTIONS> & { model: string };
/** A dataset as a run names it: the file and its options. */
export type DataSpec = Values<typeof DATA_OPTIONS> & { data: string };
/** The options of a run's output and execution. */
export type RunOptions = Values<typeof RUN_OPTIONS> & { shard?: Shard };
