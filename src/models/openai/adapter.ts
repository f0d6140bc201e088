/**
 * `openai:<model>`: any OpenAI-compatible chat-completions endpoint (OpenAI, Azure, vLLM, Ollama, llama.cpp server,
 * LiteLLM, `textstress serve --openai`) as a classifier, tagger or QA model, through the official `openai` client.
 * One request per input, at most `concurrency` in flight (adapting down when the server pushes back); 429, 5xx,
 * timeouts, connection errors and malformed answers are retried with exponential backoff and seeded jitter,
 * honouring Retry-After; none of them is ever scored as a prediction. Temperature 0 and a fixed seed by default.
 * The API key is read from an environment variable and never appears in a message, a result or the cache.
 */
import OpenAI from 'openai';
import { z } from 'zod';
import { ModelError } from '../../util/errors.ts';
import { Rng } from '../../util/rng.ts';
import { Circuit } from '../circuit.ts';
import { outputsOrPartial } from '../failure.ts';
import { backoffDelay, type RetryOptions } from '../retry.ts';
import type { ModelAdapter, ModelInfo, ModelInput, ModelOutput, ModelTask, TokenUsage } from '../types.ts';
import { answerSchema, mapClassAnswer, mapQaAnswer, mapTagAnswer, type ChatAnswer, type LabelMapping } from './mapping.ts';
import { AdaptiveLimiter, BudgetError, CostMeter, type Prices } from './meter.ts';
import { ChatShape, classifyFailure, type Failure } from './response.ts';
import { checkTemplate, DEFAULT_TEMPLATES, readTemplate, renderPrompt, type PromptTemplate } from './templates.ts';

/**
 * Options of {@link createOpenAiModel}; defaults in brackets. Retry defaults: concurrency 8 (the cap; it adapts down
 * on 429s), timeoutMs 60 000, retries 6, backoffMs 500, maxBackoffMs 30 000, maxRetryAfterMs 120 000.
 */
export interface OpenAiModelOptions extends RetryOptions {
  /** The endpoint's base URL, …/v1 [OPENAI_BASE_URL, else https://api.openai.com/v1]. */
  baseUrl?: string;
  /** Environment variable holding the API key [OPENAI_API_KEY]. */
  authEnv?: string;
  /** [text-classification] */
  task?: ModelTask;
  /** Label names (classification; required) or the tag set (tagging; optional). */
  labels?: string[];
  /** A prompt template file, or a template [the default for the input kind]. */
  template?: string | PromptTemplate;
  /** How a classifier's answer becomes a label [logprobs]. */
  mapping?: LabelMapping;
  /** With mapping "regex": the pattern; its first group (else the whole match) names the label. */
  regex?: string;
  /** Ask for JSON by schema (response_format json_schema) for the json mapping, tagging and QA [true]. */
  structured?: boolean;
  /** [0] */
  temperature?: number;
  /** Sent as the request's `seed` [0]. */
  seed?: number;
  /** Most tokens of one answer [classification 8, QA 128, tagging 1024]. */
  maxTokens?: number;
  /** Alternatives per token asked for with the logprobs mapping [20, the API's maximum]. */
  topLogprobs?: number;
  /** Prices per million tokens, for the cost meter. */
  prices?: Prices;
  /** Stop (resumably) before spending more than this many dollars; needs `prices`. */
  maxCost?: number;
  /** Extra request headers (e.g. for a proxy). */
  headers?: Record<string, string>;
  /** A dry run (a stand-in answers, nothing is sent): no API key is needed. */
  dryRun?: boolean;
}

const DEFAULT_BASE = 'https://api.openai.com/v1';

/** The adapter's counters beyond the meter: retries, rate-limit answers, and the concurrency it came down to. */
export interface OpenAiStats {
  retries: number;
  rate_limited: number;
  lowest_concurrency: number;
}

export class OpenAiModel implements ModelAdapter {
  readonly info: ModelInfo;
  readonly maxBatchSize: number;
  readonly concurrency = 2;
  readonly cacheIdentity: string;
  readonly meter: CostMeter;
  readonly baseUrl: string;
  private readonly client: OpenAI;
  private readonly limiter: AdaptiveLimiter;
  /** Opens on the first failure for good that is not an input's own: no request starts after it (see circuit.ts). */
  private readonly circuit = new Circuit();
  private readonly rng: Rng;
  private readonly secret: string | undefined;
  private readonly templates = new Map<ModelInput['kind'], PromptTemplate>();
  private readonly regex: RegExp | undefined;
  private readonly o: Required<
    Pick<
      OpenAiModelOptions,
      | 'temperature'
      | 'seed'
      | 'maxTokens'
      | 'topLogprobs'
      | 'timeoutMs'
      | 'retries'
      | 'backoffMs'
      | 'maxBackoffMs'
      | 'maxRetryAfterMs'
      | 'mapping'
      | 'structured'
    >
  >;
  private readonly userTemplate: PromptTemplate | undefined;

  constructor(
    readonly modelName: string,
    opts: OpenAiModelOptions = {},
  ) {
    const task = opts.task ?? 'text-classification';
    if (task === 'fill-mask') throw new ModelError('openai: models answer classification, tagging or QA here, not fill-mask.');
    if (task === 'text-classification' && !opts.labels?.length) {
      throw new ModelError(`openai:${modelName} needs its label names: the prompt lists them and the answer is mapped onto them.`, {
        hint: 'Pass --labels, e.g. --labels negative,positive (and --label-map if the data names them otherwise, e.g. "0=negative,1=positive").',
      });
    }
    this.baseUrl = (opts.baseUrl ?? process.env.OPENAI_BASE_URL ?? DEFAULT_BASE).replace(/\/+$/, '');
    const authEnv = opts.authEnv ?? 'OPENAI_API_KEY';
    this.secret = process.env[authEnv] || undefined;
    if (!this.secret && this.baseUrl === DEFAULT_BASE && !opts.dryRun) {
      throw new ModelError(`openai:${modelName}: the environment variable ${authEnv} holds no API key.`, {
        hint: `Export ${authEnv}, name another variable with --auth-env, or point --base-url at a server that needs no key.`,
      });
    }
    if (opts.maxCost !== undefined && !opts.prices) {
      throw new ModelError('--max-cost needs prices to count with.', {
        hint: 'Give --price-input and --price-output (dollars per million tokens).',
      });
    }
    const mapping = opts.mapping ?? 'logprobs';
    if (mapping === 'regex') {
      if (!opts.regex) throw new ModelError('the regex mapping needs --label-regex.');
      try {
        this.regex = new RegExp(opts.regex, 'i');
      } catch (err) {
        throw new ModelError(`--label-regex is not a valid regular expression: ${(err as Error).message}`);
      }
    }
    const defaultMax = task === 'question-answering' ? 128 : task === 'token-classification' ? 1024 : 8;
    this.o = {
      temperature: opts.temperature ?? 0,
      seed: opts.seed ?? 0,
      maxTokens: opts.maxTokens ?? defaultMax,
      topLogprobs: opts.topLogprobs ?? 20,
      timeoutMs: opts.timeoutMs ?? 60_000,
      retries: opts.retries ?? 6,
      backoffMs: opts.backoffMs ?? 500,
      maxBackoffMs: opts.maxBackoffMs ?? 30_000,
      maxRetryAfterMs: opts.maxRetryAfterMs ?? 120_000,
      mapping,
      structured: opts.structured ?? true,
    };
    this.userTemplate = typeof opts.template === 'string' ? readTemplate(opts.template) : opts.template;
    const cap = opts.concurrency ?? 8;
    this.limiter = new AdaptiveLimiter(cap);
    this.maxBatchSize = cap * 4;
    this.rng = new Rng(`openai-backoff\u0001${this.o.seed}`);
    this.meter = new CostMeter(opts.prices, opts.maxCost);
    this.info = { id: `openai:${modelName}`, task, ...(opts.labels?.length ? { labels: opts.labels.slice() } : {}) };
    // The key goes to the client only; without one (a local server), a placeholder the client insists on.
    this.client = new OpenAI({
      apiKey: this.secret ?? 'no-key',
      baseURL: this.baseUrl,
      maxRetries: 0,
      timeout: this.o.timeoutMs,
      ...(opts.headers ? { defaultHeaders: opts.headers } : {}),
    });
    this.cacheIdentity = JSON.stringify({
      adapter: 'openai-chat',
      base: this.baseUrl,
      model: modelName,
      task,
      labels: opts.labels ?? [],
      template: this.userTemplate ? { system: this.userTemplate.system, user: this.userTemplate.user } : 'default',
      ...this.o,
      regex: opts.regex ?? null,
      timeoutMs: undefined,
      retries: undefined,
      backoffMs: undefined,
      maxBackoffMs: undefined,
      maxRetryAfterMs: undefined,
    });
  }

  /** Counters for summary.json: retries, rate-limit answers, the lowest concurrency the adapter came down to. */
  get stats(): OpenAiStats {
    return { retries: this.meter.retries, rate_limited: this.meter.rateLimited, lowest_concurrency: this.limiter.lowest };
  }

  /** The request's prompt tokens at about 4 bytes a token (English text, GPT-style tokenizers), and max_tokens out. */
  estimate(input: ModelInput): TokenUsage {
    return { input: Math.ceil(Buffer.byteLength(JSON.stringify(this.body(input).messages)) / 4), output: this.o.maxTokens };
  }

  /** One request per input; a spending-limit stop is told once those in flight settle, counting what the server answered. */
  async predict(inputs: ModelInput[]): Promise<ModelOutput[]> {
    const settled = await Promise.allSettled(inputs.map((input) => this.one(input)));
    if (settled.some((s) => s.status === 'rejected' && s.reason instanceof BudgetError)) await this.meter.settled();
    const stop = this.meter.stopped ? this.meter.budgetError() : undefined;
    return outputsOrPartial(settled, (e) => (e instanceof BudgetError ? stop : e));
  }

  private template(kind: ModelInput['kind']): PromptTemplate {
    let t = this.templates.get(kind);
    if (!t) {
      t = this.userTemplate ?? DEFAULT_TEMPLATES[kind];
      checkTemplate(t, kind);
      this.templates.set(kind, t);
    }
    return t;
  }

  private body(input: ModelInput): OpenAI.Chat.ChatCompletionCreateParamsNonStreaming {
    const labels = this.info.labels ?? [];
    const out = this.info.task === 'text-classification' ? 'classes' : this.info.task === 'token-classification' ? 'tags' : 'spans';
    const json = out !== 'classes' || this.o.mapping === 'json';
    return {
      model: this.modelName,
      messages: renderPrompt(this.template(input.kind), input, labels),
      temperature: this.o.temperature,
      seed: this.o.seed,
      max_tokens: this.o.maxTokens,
      ...(out === 'classes' && this.o.mapping === 'logprobs' ? { logprobs: true, top_logprobs: this.o.topLogprobs } : {}),
      ...(json && this.o.structured
        ? {
            response_format: {
              type: 'json_schema' as const,
              json_schema: { name: 'answer', strict: true, schema: answerSchema(out, labels) },
            },
          }
        : {}),
    };
  }

  /** One input's request, retried; a failure for good that is not the input's own opens the circuit. */
  private async one(input: ModelInput): Promise<ModelOutput> {
    try {
      return await this.attempts(input);
    } catch (err) {
      if (!(err instanceof BudgetError) && !(err instanceof ModelError && err.inputSpecific)) this.circuit.trip(err);
      throw err;
    }
  }

  private async attempts(input: ModelInput): Promise<ModelOutput> {
    const body = this.body(input);
    const bytes = Buffer.byteLength(JSON.stringify(body.messages));
    for (let attempt = 1; ; attempt++) {
      // Reserved once a slot is free, just before sending: only requests in flight hold a reservation.
      let reservation = 0;
      const result = await this.limiter.run(async ({ epoch }) => {
        // The circuit opened while this request waited for a slot or out a backoff: it is not sent.
        if (this.circuit.open) throw this.circuit.error;
        reservation = this.meter.reserve(bytes, this.o.maxTokens);
        try {
          const value = await this.client.chat.completions.create(body);
          this.circuit.heard();
          return { ok: true as const, value };
        } catch (err) {
          if (err instanceof OpenAI.APIError && err.status !== undefined) this.circuit.heard();
          const failure = this.classify(err);
          // A failure for good opens the circuit before this slot is freed: a request queued for it must not start.
          const final = this.finalError(attempt, failure);
          if (final !== undefined && !(final instanceof BudgetError) && !(final instanceof ModelError && final.inputSpecific))
            this.circuit.trip(final);
          return { ok: false as const, failure, epoch };
        }
      });
      if (result.ok) {
        const parsed = ChatShape.safeParse(result.value);
        if (parsed.success) {
          this.limiter.success();
          const usage = { input: parsed.data.usage?.prompt_tokens ?? 0, output: parsed.data.usage?.completion_tokens ?? 0 };
          this.meter.record(reservation, usage, bytes);
          return { ...this.map(input, parsed.data), usage };
        }
        this.meter.release(reservation);
        await this.retryOrThrow(attempt, {
          retry: true,
          why: `a malformed answer (${parsed.error.issues[0]?.path.join('.') || 'body'}: ${parsed.error.issues[0]?.message})`,
          rateLimited: false,
        });
        continue;
      }
      this.meter.release(reservation);
      if (result.failure.retry && result.failure.rateLimited) {
        this.limiter.pushback(result.epoch);
        this.meter.lowestConcurrency = this.limiter.lowest;
      }
      await this.retryOrThrow(attempt, result.failure);
    }
  }

  /** The error to stop with when `f` at this attempt is final (not retried, or the attempts are spent). */
  private finalError(attempt: number, f: Failure): unknown {
    if (!f.retry) return f.error;
    if (attempt <= this.o.retries) return undefined;
    return new ModelError(`openai:${this.modelName} at ${this.baseUrl} failed ${attempt} times; the last time with ${f.why}.`, {
      hint: 'The server may be overloaded or down: lower --request-concurrency, raise --retries or --timeout, then rerun with --resume.',
    });
  }

  /** Waits before the next attempt, or throws when the failure is final or the attempts are spent. */
  private async retryOrThrow(attempt: number, f: Failure): Promise<void> {
    const final = this.finalError(attempt, f);
    if (f.retry && f.rateLimited) this.meter.rateLimited++;
    if (final !== undefined || !f.retry) throw final;
    this.meter.retries++;
    const backoff = backoffDelay(this.o, attempt, this.rng);
    const wait = f.retryAfterMs !== undefined ? Math.min(f.retryAfterMs, this.o.maxRetryAfterMs) + 0.1 * backoff : backoff;
    await this.circuit.wait(wait);
  }

  /** What a failed call means: retry or stop (see classifyFailure). */
  private classify(err: unknown): Failure {
    return classifyFailure(err, {
      where: `openai:${this.modelName} at ${this.baseUrl}`,
      baseUrl: this.baseUrl,
      timeoutMs: this.o.timeoutMs,
      hung: () => this.circuit.silentFor(this.o.timeoutMs / 2),
      redact: (text) => this.redact(text),
    });
  }

  private redact(text: string): string {
    const t = this.secret && this.secret.length >= 4 ? text.split(this.secret).join('[redacted]') : text;
    return t.length > 300 ? `${t.slice(0, 300)}…` : t;
  }

  private map(input: ModelInput, res: z.infer<typeof ChatShape>): ModelOutput {
    const choice = res.choices[0]!;
    const content = choice.message.content ?? '';
    if (this.info.task === 'token-classification') {
      if (input.kind !== 'tokens')
        throw new ModelError(`openai:${this.modelName} is a tagger and takes pre-split words, got a ${input.kind} input.`);
      return mapTagAnswer(content, input.tokens, this.info.labels);
    }
    if (this.info.task === 'question-answering') {
      if (input.kind !== 'qa')
        throw new ModelError(`openai:${this.modelName} answers questions and takes question + context, got a ${input.kind} input.`);
      return mapQaAnswer(content, input.context);
    }
    const labels = this.info.labels!;
    if (this.o.mapping !== 'logprobs') return mapClassAnswer({ content }, labels, this.o.mapping, this.regex);
    const first = choice.logprobs?.content?.[0];
    if (!first) {
      throw new ModelError(`openai:${this.modelName} at ${this.baseUrl} answered without logprobs, which the logprobs mapping reads.`, {
        hint:
          'Not every server gives them (OpenAI chat models and vLLM do; reasoning models and some local servers do not): ' +
          'use --mapping first (or exact, last, regex, json).',
      });
    }
    const answer: ChatAnswer = { content, firstTokenTop: [{ token: first.token, logprob: first.logprob }, ...(first.top_logprobs ?? [])] };
    return mapClassAnswer(answer, labels, 'logprobs');
  }
}

/** Opens `openai:<model>` (the part after the prefix is the model name the server knows). */
export function createOpenAiModel(modelName: string, opts: OpenAiModelOptions = {}): OpenAiModel {
  if (!modelName.trim()) throw new ModelError('openai: name the model, e.g. openai:gpt-4o-mini.');
  return new OpenAiModel(modelName.trim(), opts);
}
