/**
 * The model interface: every adapter answers *batches* of inputs and knows nothing about attacks.
 * Inputs and outputs are plain JSON so they cross HTTP unchanged (see docs/http-model-api.md).
 */

/** What a model does: classify a text or pair, tag each word, or extract an answer span. */
/** `fill-mask`: a masked LM, which answers no attack queries; textstress reads it for `probe cloze|layers|heads`. */
export type ModelTask = 'text-classification' | 'token-classification' | 'question-answering' | 'fill-mask';

/** One input: a text, a sentence pair, pre-split words (taggers), or a question with its context. */
export type ModelInput =
  | { kind: 'text'; text: string }
  | { kind: 'pair'; textA: string; textB: string }
  /** Pre-split words (NER): the model returns one tag per word. */
  | { kind: 'tokens'; tokens: string[] }
  | { kind: 'qa'; question: string; context: string };

/** Tokens a metered model (an LLM endpoint) billed for one answer. */
export interface TokenUsage {
  input: number;
  output: number;
}

/**
 * What any output may carry besides its answer. `unmappable`: the model answered, but the answer could not be
 * read as the task's output (an LLM that wrote "It is hard to say"): the raw answer, shortened; the output's
 * numbers are then placeholders that goals never score (see unmappableStatus). `usage`: the tokens it cost.
 */
export interface OutputMeta {
  unmappable?: string;
  usage?: TokenUsage;
  /**
   * A dry run's stand-in answer (no model was asked), with a pseudo-random score in [0, 1) drawn from the input:
   * goals treat it as right and the goal unreached, searches rank by the score; never cached.
   */
  standIn?: number;
}

/** Class probabilities, aligned with `labels` (the model's own label names). */
export interface ClassOutput extends OutputMeta {
  kind: 'classes';
  labels: string[];
  probs: number[];
}

/** One IOB2 tag per input word, with the model's confidence in it. */
export interface TagOutput extends OutputMeta {
  kind: 'tags';
  tags: string[];
  scores: number[];
}

/** An answer a QA model extracted from the context. */
export interface AnswerSpan {
  text: string;
  /** Character offsets into the context, end exclusive. */
  start: number;
  end: number;
  score: number;
}

/** Best answer spans, best first. */
export interface SpanOutput extends OutputMeta {
  kind: 'spans';
  spans: AnswerSpan[];
}

/** One output, of the kind the model's task gives. */
export type ModelOutput = ClassOutput | TagOutput | SpanOutput;

/** Prices in US dollars per million tokens. */
export interface Prices {
  input: number;
  output: number;
}

/** What a metered endpoint has spent: requests sent, tokens billed, and their cost (null without prices). */
export interface UsageMeter {
  readonly requests: number;
  readonly tokens: TokenUsage;
  readonly cost: number | null;
  readonly prices?: Prices;
  /** Attempts repeated after a retryable failure, and of those failures the rate-limit answers (429). */
  readonly retries?: number;
  readonly rateLimited?: number;
  /** The lowest concurrency the adapter came down to after pushback. */
  readonly lowestConcurrency?: number;
}

/**
 * Which subword piece of a word a tagger's tag is read from: its first piece, or its first piece that holds a
 * character of the word (`first-nonempty`: a bare `▁` or `Ġ` piece, which SentencePiece and byte-level BPE split
 * off some words, holds none). Taggers are trained either way (docs/compatibility.md).
 */
export const WORD_PIECES = ['first', 'first-nonempty'] as const;
/** One of {@link WORD_PIECES}. */
export type WordPiece = (typeof WORD_PIECES)[number];

/** What a model is: where it came from, its task and its labels. */
export interface ModelInfo {
  /** Where the model came from: a folder, a hub id, a URL, or "function:<name>". */
  id: string;
  task: ModelTask;
  /** Label names for classifiers / tag set for taggers, when known. */
  labels?: string[];
}

/** A model that answers batches of inputs; knows nothing of attacks (the query engine batches and caches for it). */
export interface ModelAdapter {
  readonly info: ModelInfo;
  /** Answers one batch; output i belongs to input i. Must reject, not resolve partially, on failure. */
  predict(inputs: ModelInput[]): Promise<ModelOutput[]>;
  /** The model tokenizer's subword pieces of a text (for the subword view), when available. */
  tokenize?(text: string): Promise<string[]>;
  /** Largest batch the adapter wants at once. */
  readonly maxBatchSize?: number;
  /**
   * predict() calls worth having in flight at once (default 1): 1 for an in-process model that runs one
   * batch at a time, more for a remote endpoint that answers requests in parallel.
   */
  readonly concurrency?: number;
  /**
   * Everything besides the input that decides an answer (endpoint, model name, prompt template, parameters,
   * answer mapping), when answers may be kept in the persistent query cache; absent = never cached on disk.
   */
  readonly cacheIdentity?: string;
  /** Tokens and cost spent so far, for a metered endpoint. */
  readonly meter?: UsageMeter;
  /** What one input would cost, without sending it (a dry run's estimate): prompt tokens and at most how many out. */
  estimate?(input: ModelInput): TokenUsage;
  close?(): Promise<void>;
}

/** Characters of a model input, all its fields together (tokens counted with one separator each): what padding and batch sizes depend on. */
export function inputChars(input: ModelInput): number {
  switch (input.kind) {
    case 'text':
      return input.text.length;
    case 'pair':
      return input.textA.length + input.textB.length;
    case 'tokens':
      return input.tokens.reduce((n, t) => n + t.length + 1, 0);
    case 'qa':
      return input.question.length + input.context.length;
  }
}

/** Stable cache key of an input. */
export function inputKey(input: ModelInput): string {
  switch (input.kind) {
    case 'text':
      return `t\u0000${input.text}`;
    case 'pair':
      return `p\u0000${input.textA}\u0000${input.textB}`;
    case 'tokens':
      return `k\u0000${input.tokens.join('\u0001')}`;
    case 'qa':
      return `q\u0000${input.question}\u0000${input.context}`;
  }
}
