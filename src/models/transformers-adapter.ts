/**
 * Runs a local (or Hugging Face hub) ONNX model with transformers.js.
 *
 * Only the tokenizer's vocabulary work (normalise, pre-tokenise, WordPiece/BPE) and the ONNX session come
 * from transformers.js; textstress builds the model inputs itself, because the library's own paths go wrong
 * in ways that are silent (see /work/shared/README.md "transformers.js pitfalls" and docs/http-model-api.md):
 *  - its truncation cuts the tail of the joined sequence, so the final [SEP] and, for pairs, the whole second
 *    text disappear; we truncate each text like Hugging Face's Python tokenizers do (`longest_first`) and keep
 *    the special tokens;
 *  - it emits token_type_ids only for some tokenizer classes; we take the segment ids from the
 *    post-processor template in tokenizer.json and feed them whenever the ONNX graph has that input;
 *  - its token-classification pipeline drops words past the length limit; we split long sentences into
 *    chunks so every word gets a tag.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import {
  AutoConfig,
  AutoModelForQuestionAnswering,
  AutoModelForSequenceClassification,
  AutoModelForTokenClassification,
  AutoTokenizer,
  Tensor,
  type DataType,
  type DeviceType,
  type PreTrainedModel,
  type PreTrainedTokenizer,
} from '@huggingface/transformers';
import { ModelError } from '../util/errors.ts';
import { checkInputKind } from './schema.ts';
import type { AnswerSpan, ModelAdapter, ModelInfo, ModelInput, ModelOutput, ModelTask } from './types.ts';

export interface TransformersModelOptions {
  /** Overrides the task read from config.json `architectures`. */
  task?: ModelTask;
  /** onnxruntime device, e.g. 'cpu' (default) or 'cuda'. */
  device?: DeviceType;
  /** Weight type for hub models (local folders always load onnx/model.onnx as fp32). */
  dtype?: DataType;
  /** Rows per ONNX run (default 64). */
  maxBatchSize?: number;
  /** Tokens per row, special tokens included (default: the model's limit, tokenizer_config or config.json). */
  maxLength?: number;
  /** Question answering: spans returned per question (default 3). */
  topK?: number;
  /** Question answering: longest answer, in tokens (default 30). */
  maxAnswerTokens?: number;
  /** Question answering: tokens shared by consecutive windows over a long context (default 128, at most half a window). */
  docStride?: number;
}

/** Model inputs of one row, before padding. */
export interface EncodedRow {
  inputIds: number[];
  tokenTypeIds: number[];
}

type Nested = number | Nested[];

/** The transformers.js adapter, with two extra views used by tests and diagnostics. */
export interface TransformersAdapter extends ModelAdapter {
  readonly info: ModelInfo;
  readonly maxBatchSize: number;
  /** Longest row fed to the model, special tokens included. */
  readonly maxLength: number;
  /** Whether the ONNX graph takes token_type_ids. */
  readonly usesTokenTypeIds: boolean;
  /** The rows the model sees for an input (several for long NER sentences and long QA contexts). */
  encode(input: ModelInput): EncodedRow[];
  /** Raw model outputs (e.g. `logits`, `start_logits`) for hand-made ids; rows are right-padded. */
  forward(inputIds: number[][], attentionMask?: number[][], tokenTypeIds?: number[][]): Promise<Record<string, Nested>>;
  tokenize(text: string): Promise<string[]>;
  close(): Promise<void>;
}

const DEFAULT_BATCH = 64;
const HUB_ID = /^[A-Za-z0-9][\w.-]*(\/[\w.-]+)?$/;

const ARCH_TASKS: [RegExp, ModelTask][] = [
  [/ForSequenceClassification$/, 'text-classification'],
  [/ForTokenClassification$/, 'token-classification'],
  [/ForQuestionAnswering$/, 'question-answering'],
];

const EXPORT_HINT =
  'Export a fine-tuned checkpoint with `optimum-cli export onnx --model <checkpoint> <folder>` ' +
  '(then move model.onnx into <folder>/onnx/), or use a hub model that ships ONNX weights (e.g. the Xenova/* models).';

// ------------------------------------------------------------------------------------------------ loading

/** Is `spec` a local folder (existing, or clearly meant as a path) rather than a Hugging Face hub id? */
export function isLocalSpec(spec: string): boolean {
  if (existsSync(spec)) return true;
  if (path.isAbsolute(spec) || spec.startsWith('.') || spec.startsWith('~') || spec.includes('\\')) return true;
  if (spec.split('/').length > 2) return true;
  return !HUB_ID.test(spec);
}

function readJson(file: string, what: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new ModelError(`cannot read ${what} ${file}: ${(err as Error).message}`, { cause: err });
  }
  try {
    const v: unknown = JSON.parse(text);
    if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new Error('it is not a JSON object');
    return v as Record<string, unknown>;
  } catch (err) {
    throw new ModelError(`${what} ${file} is not valid JSON: ${(err as Error).message}`, { cause: err });
  }
}

/** Checks a local model folder up front, so that a missing file is named instead of failing deep in the library. */
function checkLocalFolder(dir: string): { config: Record<string, unknown>; externalData: boolean } {
  if (!existsSync(dir)) {
    throw new ModelError(`the model folder ${dir} does not exist.`, {
      hint: 'Give the folder that holds config.json, tokenizer.json and onnx/model.onnx, or a Hugging Face hub id such as Xenova/distilbert-base-uncased-finetuned-sst-2-english.',
    });
  }
  if (!statSync(dir).isDirectory()) {
    const hint = dir.endsWith('.onnx')
      ? `Give the model folder instead (the one whose onnx/ subfolder holds ${path.basename(dir)}).`
      : 'Give the folder that holds config.json, tokenizer.json and onnx/model.onnx.';
    throw new ModelError(`${dir} is a file, not a model folder.`, { hint });
  }
  const configFile = path.join(dir, 'config.json');
  if (!existsSync(configFile)) {
    const inside = readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isDirectory() && existsSync(path.join(dir, d.name, 'config.json')))
      .map((d) => path.join(dir, d.name));
    const hint = inside.length
      ? `It holds model folders itself: did you mean ${inside.slice(0, 3).join(' or ')}?`
      : 'Save it next to the weights (in Python: `model.config.save_pretrained(folder)`). ' + EXPORT_HINT;
    throw new ModelError(`the model folder ${dir} has no config.json, so textstress cannot tell the model type, task or labels.`, {
      hint,
    });
  }
  const config = readJson(configFile, 'model config');
  if (!existsSync(path.join(dir, 'tokenizer.json'))) {
    const has = ['vocab.txt', 'vocab.json', 'sentencepiece.bpe.model', 'spiece.model'].filter((f) => existsSync(path.join(dir, f)));
    const found = has.length ? ` (found ${has.join(', ')}, but ${has.length > 1 ? 'they are' : 'it is'} not enough)` : '';
    throw new ModelError(
      `the model folder ${dir} has no tokenizer.json${found}: transformers.js needs tokenizer.json; vocab.txt alone is not enough.`,
      {
        hint: `Export it with Python: \`from transformers import AutoTokenizer; AutoTokenizer.from_pretrained("${dir}").save_pretrained("${dir}")\` (a fast tokenizer writes tokenizer.json), or export the whole model with optimum-cli.`,
      },
    );
  }
  const onnxDir = path.join(dir, 'onnx');
  const modelFile = path.join(onnxDir, 'model.onnx');
  if (!existsSync(modelFile)) {
    const others = existsSync(onnxDir) && statSync(onnxDir).isDirectory() ? readdirSync(onnxDir).filter((f) => f.endsWith('.onnx')) : [];
    let hint: string;
    if (existsSync(path.join(dir, 'model.onnx'))) {
      hint = `Found ${path.join(dir, 'model.onnx')}: transformers.js looks in the onnx/ subfolder, so move it (and any model.onnx_data) to ${modelFile}.`;
    } else if (others.length) {
      hint = `Found ${others.join(', ')} in ${onnxDir}, but textstress loads the full-precision model.onnx; export or copy the fp32 graph as ${modelFile}.`;
    } else {
      hint = EXPORT_HINT;
    }
    throw new ModelError(`the model folder ${dir} has no onnx/model.onnx (the ONNX weights).`, { hint });
  }
  return { config, externalData: existsSync(path.join(onnxDir, 'model.onnx_data')) };
}

function detectTask(config: Record<string, unknown>, where: string, asked?: ModelTask): ModelTask {
  const archs = Array.isArray(config.architectures) ? config.architectures.filter((a): a is string => typeof a === 'string') : [];
  let detected: { task: ModelTask; arch: string } | undefined;
  for (const arch of archs) {
    const hit = ARCH_TASKS.find(([re]) => re.test(arch));
    if (hit) {
      detected = { task: hit[1], arch };
      break;
    }
  }
  if (asked) {
    if (detected && detected.task !== asked) {
      throw new ModelError(
        `${where} describes a ${detected.arch}, which is a ${detected.task} model, but the task ${asked} was asked for.`,
        { hint: `Drop the task option or give a ${asked} model.` },
      );
    }
    return asked;
  }
  if (!detected) {
    const list = archs.length ? `architectures [${archs.join(', ')}]` : 'no architectures';
    throw new ModelError(
      `${where} lists ${list}, so textstress cannot tell the task: it needs a *ForSequenceClassification, *ForTokenClassification or *ForQuestionAnswering model.`,
      { hint: 'If the model is one of those, pass the task explicitly (--task text-classification | token-classification | question-answering).' },
    );
  }
  return detected.task;
}

function labelsFrom(config: Record<string, unknown>): string[] | undefined {
  const raw = config.id2label;
  if (!raw || typeof raw !== 'object') return undefined;
  const map = raw as Record<string, unknown>;
  const ids = Object.keys(map)
    .map(Number)
    .filter((n) => Number.isInteger(n) && n >= 0);
  if (!ids.length) return undefined;
  const n = Math.max(...ids) + 1;
  return Array.from({ length: n }, (_, i) => {
    const v = map[String(i)];
    return typeof v === 'string' ? v : `LABEL_${i}`;
  });
}

// ------------------------------------------------------------------------------------------------ template

type TemplatePart = { special: number[]; type: number } | { seq: 'A' | 'B'; type: number };
interface Template {
  single: TemplatePart[];
  pair: TemplatePart[];
}

function tokenId(tok: PreTrainedTokenizer, token: unknown, fallback: unknown): number {
  if (typeof fallback === 'number') return fallback;
  const id = tok.convert_tokens_to_ids(String(token));
  if (typeof id !== 'number') throw new Error(`unknown special token ${String(token)}`);
  return id;
}

/** The special tokens and segment ids around one or two texts, read from tokenizer.json's post_processor. */
function parseTemplate(pp: unknown, tok: PreTrainedTokenizer, where: string): Template {
  if (pp === null || pp === undefined) {
    return { single: [{ seq: 'A', type: 0 }], pair: [{ seq: 'A', type: 0 }, { seq: 'B', type: 1 }] };
  }
  const p = pp as Record<string, unknown>;
  switch (p.type) {
    case 'TemplateProcessing': {
      const specials = (p.special_tokens ?? {}) as Record<string, { ids?: number[] }>;
      const conv = (items: unknown): TemplatePart[] =>
        (items as Record<string, { id: string; type_id?: number }>[]).map((item) => {
          if (item.SpecialToken) {
            const s = item.SpecialToken;
            const ids = specials[s.id]?.ids ?? [tokenId(tok, s.id, undefined)];
            return { special: ids, type: s.type_id ?? 0 };
          }
          if (item.Sequence) return { seq: item.Sequence.id === 'B' ? 'B' : 'A', type: item.Sequence.type_id ?? 0 };
          throw new Error(`unknown template item ${JSON.stringify(item)}`);
        });
      return { single: conv(p.single), pair: conv(p.pair) };
    }
    case 'BertProcessing':
    case 'RobertaProcessing': {
      const [sepTok, sepId] = p.sep as [string, number];
      const [clsTok, clsId] = p.cls as [string, number];
      const cls = tokenId(tok, clsTok, clsId);
      const sep = tokenId(tok, sepTok, sepId);
      if (p.type === 'BertProcessing') {
        return {
          single: [{ special: [cls], type: 0 }, { seq: 'A', type: 0 }, { special: [sep], type: 0 }],
          pair: [
            { special: [cls], type: 0 },
            { seq: 'A', type: 0 },
            { special: [sep], type: 0 },
            { seq: 'B', type: 1 },
            { special: [sep], type: 1 },
          ],
        };
      }
      return {
        single: [{ special: [cls], type: 0 }, { seq: 'A', type: 0 }, { special: [sep], type: 0 }],
        pair: [
          { special: [cls], type: 0 },
          { seq: 'A', type: 0 },
          { special: [sep, sep], type: 0 },
          { seq: 'B', type: 0 },
          { special: [sep], type: 0 },
        ],
      };
    }
    case 'Sequence': {
      const procs = Array.isArray(p.processors) ? p.processors : [];
      const known = procs.find((q) =>
        ['TemplateProcessing', 'BertProcessing', 'RobertaProcessing'].includes((q as Record<string, unknown>)?.type as string),
      );
      return parseTemplate(known ?? null, tok, where);
    }
    case 'ByteLevel':
      return parseTemplate(null, tok, where);
    default:
      throw new ModelError(`${where}: tokenizer.json has a post_processor of type ${String(p.type)}, which textstress cannot handle.`, {
        hint: 'Supported: TemplateProcessing, BertProcessing, RobertaProcessing (what BERT, RoBERTa, DistilBERT, ELECTRA and DeBERTa export).',
      });
  }
}

function specialCount(parts: TemplatePart[]): number {
  return parts.reduce((n, part) => n + ('special' in part ? part.special.length : 0), 0);
}

function assemble(parts: TemplatePart[], a: number[], b: number[] = []): EncodedRow & { seqStart: { A: number; B: number } } {
  const inputIds: number[] = [];
  const tokenTypeIds: number[] = [];
  const seqStart = { A: 0, B: 0 };
  for (const part of parts) {
    const ids = 'special' in part ? part.special : part.seq === 'A' ? a : b;
    if ('seq' in part) seqStart[part.seq] = inputIds.length;
    for (const id of ids) {
      inputIds.push(id);
      tokenTypeIds.push(part.type);
    }
  }
  return { inputIds, tokenTypeIds, seqStart };
}

/** How many tokens of A and B survive Hugging Face's `longest_first` truncation to `budget` tokens. */
export function longestFirst(a: number, b: number, budget: number): [number, number] {
  if (a + b <= budget) return [a, b];
  const nB = Math.min(b, Math.max(Math.floor(budget / 2), budget - a));
  const nA = Math.min(a, budget - nB);
  return [nA, nB];
}

// ------------------------------------------------------------------------------------------------ maths

function softmax(xs: ArrayLike<number>, from = 0, to = xs.length): number[] {
  let max = -Infinity;
  for (let i = from; i < to; i++) max = Math.max(max, xs[i]!);
  const out: number[] = [];
  let sum = 0;
  for (let i = from; i < to; i++) {
    const e = Math.exp(xs[i]! - max);
    out.push(e);
    sum += e;
  }
  return out.map((e) => e / sum);
}

function argmax(xs: readonly number[]): number {
  let best = 0;
  for (let i = 1; i < xs.length; i++) if (xs[i]! > xs[best]!) best = i;
  return best;
}

/** Lower-case and strip accents one UTF-16 unit at a time, keeping the length (for offset alignment). */
function fold(s: string): string {
  let out = '';
  for (const c of s.split('')) {
    const lower = c.toLowerCase();
    const l = lower.length === 1 ? lower : c;
    const bare = l.normalize('NFD').replace(/\p{Mn}/gu, '');
    out += bare.length === 1 ? bare : l;
  }
  return out;
}

/** Character offsets of a word's pieces inside the word; a piece that cannot be found spans to the word's end. */
export function alignPieces(word: string, pieces: readonly string[], prefix = '##'): [number, number][] {
  const folded = fold(word);
  let cursor = 0;
  return pieces.map((piece, k) => {
    const bare = fold(k > 0 && prefix && piece.startsWith(prefix) ? piece.slice(prefix.length) : piece);
    const idx = bare ? folded.indexOf(bare, cursor) : -1;
    if (idx < 0) return [Math.min(cursor, word.length), word.length];
    cursor = idx + bare.length;
    return [idx, cursor];
  });
}

// ------------------------------------------------------------------------------------------------ adapter

interface Piece {
  ids: number[];
  pieces: string[];
}

/** Where a row's outputs go. */
type RowJob =
  | { kind: 'class'; input: number }
  | { kind: 'tags'; input: number; firstPiece: number[]; wordOffset: number }
  | { kind: 'qa'; input: number; ctxStart: number; offsets: [number, number][] };

type QaCandidate = AnswerSpan;

class TransformersModel implements TransformersAdapter {
  readonly info: ModelInfo;
  readonly maxBatchSize: number;
  readonly maxLength: number;
  readonly usesTokenTypeIds: boolean;
  private readonly inputNames: string[];
  private readonly template: Template;
  private readonly pieceCache = new Map<string, Piece>();
  private readonly chunkCache = new Map<string, number[]>();
  private readonly chunkable: boolean;
  private readonly unkId: number;
  private readonly padId: number;
  private readonly subwordPrefix: string;
  private readonly topK: number;
  private readonly maxAnswerTokens: number;
  private readonly docStride: number;
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;

  constructor(
    info: ModelInfo,
    private readonly tok: PreTrainedTokenizer,
    private readonly model: PreTrainedModel,
    opts: {
      maxLength: number;
      maxBatchSize: number;
      template: Template;
      subwordPrefix: string;
      padId: number;
      topK: number;
      maxAnswerTokens: number;
      docStride: number;
      chunkable: boolean;
    },
  ) {
    this.info = info;
    this.maxLength = opts.maxLength;
    this.maxBatchSize = opts.maxBatchSize;
    this.template = opts.template;
    this.subwordPrefix = opts.subwordPrefix;
    this.padId = opts.padId;
    this.topK = opts.topK;
    this.maxAnswerTokens = opts.maxAnswerTokens;
    this.docStride = opts.docStride;
    this.chunkable = opts.chunkable;
    const sessions = (model as unknown as { sessions?: Record<string, { inputNames?: string[] }> }).sessions;
    this.inputNames = sessions?.model?.inputNames ?? ['input_ids', 'attention_mask', 'token_type_ids'];
    this.usesTokenTypeIds = this.inputNames.includes('token_type_ids');
    const unk = (tok as unknown as { unk_token_id?: number }).unk_token_id;
    this.unkId = typeof unk === 'number' ? unk : 0;
  }

  async tokenize(text: string): Promise<string[]> {
    return this.tok.tokenize(text);
  }

  /** Pieces of one word (never empty: a word the tokenizer drops becomes the unknown token). */
  private word(w: string): Piece {
    let p = this.pieceCache.get(w);
    if (p) return p;
    const pieces = this.tok.tokenize(w);
    p = pieces.length ? { pieces, ids: this.tok.convert_tokens_to_ids(pieces) } : { pieces: [''], ids: [this.unkId] };
    if (this.pieceCache.size > 100_000) this.pieceCache.clear();
    this.pieceCache.set(w, p);
    return p;
  }

  /**
   * Ids of a text without special tokens. For WordPiece tokenizers whose normalizer and pre-tokenizer act
   * per character and split on spaces, encoding space-separated chunks one by one gives exactly the same ids,
   * and attack candidates share all chunks but one with the text they came from: a chunk cache makes
   * tokenization almost free. Other tokenizers (byte-level BPE, SentencePiece) encode the whole text.
   */
  private textIds(text: string): number[] {
    if (!this.chunkable) return this.tok.encode(text, { add_special_tokens: false });
    const ids: number[] = [];
    for (const chunk of text.split(' ')) {
      if (!chunk) continue;
      let chunkIds = this.chunkCache.get(chunk);
      if (!chunkIds) {
        chunkIds = this.tok.encode(chunk, { add_special_tokens: false });
        if (this.chunkCache.size > 200_000) this.chunkCache.clear();
        this.chunkCache.set(chunk, chunkIds);
      }
      for (const id of chunkIds) ids.push(id);
    }
    return ids;
  }

  encode(input: ModelInput): EncodedRow[] {
    return this.plan(input, 0).map(({ row }) => ({ inputIds: row.inputIds, tokenTypeIds: row.tokenTypeIds }));
  }

  /** The rows of one input and what to do with each row's output. */
  private plan(input: ModelInput, index: number): { row: EncodedRow; job: RowJob }[] {
    const { single, pair } = this.template;
    switch (input.kind) {
      case 'text': {
        const ids = this.textIds(input.text).slice(0, this.maxLength - specialCount(single));
        return [{ row: assemble(single, ids), job: { kind: 'class', input: index } }];
      }
      case 'pair': {
        const a = this.textIds(input.textA);
        const b = this.textIds(input.textB);
        const [nA, nB] = longestFirst(a.length, b.length, this.maxLength - specialCount(pair));
        return [{ row: assemble(pair, a.slice(0, nA), b.slice(0, nB)), job: { kind: 'class', input: index } }];
      }
      case 'tokens': {
        const budget = this.maxLength - specialCount(single);
        const out: { row: EncodedRow; job: RowJob }[] = [];
        let ids: number[] = [];
        let first: number[] = [];
        let wordOffset = 0;
        const flush = () => {
          const row = assemble(single, ids);
          out.push({
            row,
            job: { kind: 'tags', input: index, firstPiece: first.map((f) => f + row.seqStart.A), wordOffset },
          });
          wordOffset += first.length;
          ids = [];
          first = [];
        };
        for (const w of input.tokens) {
          const wp = this.word(w).ids.slice(0, budget);
          if (ids.length + wp.length > budget) flush();
          first.push(ids.length);
          ids.push(...wp);
        }
        if (first.length) flush();
        return out;
      }
      case 'qa':
        return this.planQa(input.question, input.context, index);
    }
  }

  private planQa(question: string, context: string, index: number): { row: EncodedRow; job: RowJob }[] {
    const pair = this.template.pair;
    const q = this.textIds(question).slice(0, 64);
    const ids: number[] = [];
    const offsets: [number, number][] = [];
    for (const m of context.matchAll(/\S+/g)) {
      const start = m.index;
      const piece = this.word(m[0]);
      const local = alignPieces(m[0], piece.pieces, this.subwordPrefix);
      piece.ids.forEach((id, k) => {
        ids.push(id);
        const [s, e] = local[k] ?? [0, m[0].length];
        offsets.push([start + s, start + e]);
      });
    }
    if (!ids.length) return [];
    const budget = this.maxLength - specialCount(pair) - q.length;
    if (budget < 8) {
      throw new ModelError(`the question is too long for the model's ${this.maxLength}-token input: ${question.slice(0, 80)}`);
    }
    const stride = Math.min(this.docStride, Math.floor(budget / 2));
    const out: { row: EncodedRow; job: RowJob }[] = [];
    for (let from = 0; ; from += budget - stride) {
      const to = Math.min(ids.length, from + budget);
      const row = assemble(pair, q, ids.slice(from, to));
      out.push({ row, job: { kind: 'qa', input: index, ctxStart: row.seqStart.B, offsets: offsets.slice(from, to) } });
      if (to >= ids.length) break;
    }
    return out;
  }

  /** Runs the ONNX session on padded rows, one run at a time. */
  private async run(rows: EncodedRow[]): Promise<Record<string, { data: Float32Array; dims: number[] }>> {
    const width = Math.max(1, ...rows.map((r) => r.inputIds.length));
    const n = rows.length;
    const ids = new BigInt64Array(n * width).fill(BigInt(this.padId));
    const mask = new BigInt64Array(n * width);
    const types = new BigInt64Array(n * width);
    rows.forEach((r, i) => {
      for (let t = 0; t < r.inputIds.length; t++) {
        ids[i * width + t] = BigInt(r.inputIds[t]!);
        mask[i * width + t] = 1n;
        types[i * width + t] = BigInt(r.tokenTypeIds[t] ?? 0);
      }
    });
    const all: Record<string, Tensor> = {
      input_ids: new Tensor('int64', ids, [n, width]),
      attention_mask: new Tensor('int64', mask, [n, width]),
      token_type_ids: new Tensor('int64', types, [n, width]),
    };
    const feeds: Record<string, Tensor> = {};
    for (const name of this.inputNames) if (all[name]) feeds[name] = all[name];
    const job = this.queue.then(async () => {
      if (this.closed) throw new ModelError(`the model ${this.info.id} was closed.`);
      const result = (await this.model(feeds)) as Record<string, Tensor>;
      const out: Record<string, { data: Float32Array; dims: number[] }> = {};
      for (const [k, v] of Object.entries(result)) {
        if (v instanceof Tensor) out[k] = { data: v.data as Float32Array, dims: v.dims };
      }
      return out;
    });
    this.queue = job.catch(() => undefined);
    try {
      return await job;
    } catch (err) {
      if (err instanceof ModelError) throw err;
      throw new ModelError(`the model ${this.info.id} failed while running: ${(err as Error).message}`, { cause: err });
    }
  }

  async forward(inputIds: number[][], attentionMask?: number[][], tokenTypeIds?: number[][]): Promise<Record<string, Nested>> {
    const rows: EncodedRow[] = inputIds.map((ids, i) => {
      const m = attentionMask?.[i];
      const len = m ? m.reduce((a, b) => a + b, 0) : ids.length;
      return { inputIds: ids.slice(0, len), tokenTypeIds: (tokenTypeIds?.[i] ?? []).slice(0, len) };
    });
    const out = await this.run(rows);
    const result: Record<string, Nested> = {};
    for (const [k, { data, dims }] of Object.entries(out)) result[k] = reshape(data, dims);
    return result;
  }

  async predict(inputs: ModelInput[]): Promise<ModelOutput[]> {
    inputs.forEach((input, i) => {
      const problem = checkInputKind(this.info.task, input, i);
      if (problem) throw new ModelError(`${this.info.id}: ${problem}.`);
    });
    const planned = inputs.flatMap((input, i) => this.plan(input, i));
    // Similar lengths together: less padding per run.
    const order = planned.map((_, i) => i).sort((x, y) => planned[x]!.row.inputIds.length - planned[y]!.row.inputIds.length);

    const classes: (number[] | undefined)[] = new Array(inputs.length);
    const tags = inputs.map((input) => (input.kind === 'tokens' ? { tags: new Array<string>(input.tokens.length), scores: new Array<number>(input.tokens.length) } : undefined));
    const cands: QaCandidate[][] = inputs.map(() => []);
    const labels = this.info.labels ?? [];
    const label = (k: number) => labels[k] ?? `LABEL_${k}`;

    for (let b = 0; b < order.length; b += this.maxBatchSize) {
      const batch = order.slice(b, b + this.maxBatchSize).map((i) => planned[i]!);
      const out = await this.run(batch.map((p) => p.row));
      batch.forEach(({ job }, r) => {
        if (job.kind === 'class') {
          const logits = pick(out, 'logits', this.info.id);
          const c = logits.dims[1]!;
          classes[job.input] = softmax(logits.data.subarray(r * c, (r + 1) * c));
        } else if (job.kind === 'tags') {
          const logits = pick(out, 'logits', this.info.id);
          const [, width, c] = logits.dims as [number, number, number];
          const dest = tags[job.input]!;
          job.firstPiece.forEach((pos, w) => {
            const base = (r * width + pos) * c;
            const probs = softmax(logits.data.subarray(base, base + c));
            const k = argmax(probs);
            dest.tags[job.wordOffset + w] = label(k);
            dest.scores[job.wordOffset + w] = probs[k]!;
          });
        } else {
          const starts = pick(out, 'start_logits', this.info.id);
          const ends = pick(out, 'end_logits', this.info.id);
          const width = starts.dims[1]!;
          const n = job.offsets.length;
          const ps = softmax(starts.data, r * width + job.ctxStart, r * width + job.ctxStart + n);
          const pe = softmax(ends.data, r * width + job.ctxStart, r * width + job.ctxStart + n);
          const context = (inputs[job.input] as { context: string }).context;
          cands[job.input]!.push(...this.bestSpans(ps, pe, job.offsets, context));
        }
      });
    }

    return inputs.map((_, i): ModelOutput => {
      switch (this.info.task) {
        case 'text-classification': {
          const probs = classes[i]!;
          return { kind: 'classes', labels: probs.map((_, k) => label(k)), probs };
        }
        case 'token-classification':
          return { kind: 'tags', tags: tags[i]!.tags, scores: tags[i]!.scores };
        case 'question-answering': {
          const seen = new Map<string, QaCandidate>();
          for (const c of cands[i]!) {
            const key = `${c.start}:${c.end}`;
            const prev = seen.get(key);
            if (!prev || prev.score < c.score) seen.set(key, c);
          }
          const spans = [...seen.values()].sort((x, y) => y.score - x.score || x.start - y.start).slice(0, this.topK);
          return { kind: 'spans', spans };
        }
      }
    });
  }

  /** Best start/end pairs of one window (start ≤ end, at most maxAnswerTokens long). */
  private bestSpans(ps: number[], pe: number[], offsets: [number, number][], context: string): QaCandidate[] {
    const nBest = 20;
    const top = (xs: number[]) =>
      xs
        .map((p, i) => [p, i] as const)
        .sort((x, y) => y[0] - x[0])
        .slice(0, nBest)
        .map(([, i]) => i);
    const out: QaCandidate[] = [];
    for (const s of top(ps)) {
      for (const e of top(pe)) {
        if (e < s || e - s + 1 > this.maxAnswerTokens) continue;
        const start = offsets[s]![0];
        const end = offsets[e]![1];
        out.push({ text: context.slice(start, end), start, end, score: ps[s]! * pe[e]! });
      }
    }
    return out.sort((x, y) => y.score - x.score).slice(0, Math.max(this.topK, 1) * 2);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.queue;
    this.closed = true;
    await (this.model as unknown as { dispose?: () => Promise<unknown> }).dispose?.();
  }
}

function pick(out: Record<string, { data: Float32Array; dims: number[] }>, name: string, id: string) {
  const t = out[name];
  if (!t) {
    throw new ModelError(`the model ${id} has no '${name}' output (it has ${Object.keys(out).join(', ') || 'none'}).`, {
      hint: 'Was it exported for the right task (optimum-cli export onnx --task …)?',
    });
  }
  return t;
}

function reshape(data: Float32Array, dims: readonly number[]): Nested {
  if (dims.length <= 1) return Array.from(data);
  const [d, ...rest] = dims as [number, ...number[]];
  const step = data.length / d;
  return Array.from({ length: d }, (_, i) => reshape(data.subarray(i * step, (i + 1) * step), rest));
}

const ROBERTA_LIKE = new Set(['roberta', 'xlm-roberta', 'camembert', 'longformer', 'bart', 'mpnet']);

/**
 * Loads a model folder (config.json, tokenizer.json, onnx/model.onnx) or a Hugging Face hub id.
 * Every failure the user can cause (missing folder or file, unknown task, download failure) is a ModelError.
 */
export async function loadTransformersModel(idOrPath: string, opts: TransformersModelOptions = {}): Promise<TransformersAdapter> {
  const local = isLocalSpec(idOrPath);
  const dir = path.resolve(idOrPath);
  const id = local ? dir : idOrPath;
  let config: Record<string, unknown>;
  let externalData = false;
  if (local) {
    ({ config, externalData } = checkLocalFolder(dir));
  } else {
    try {
      config = (await AutoConfig.from_pretrained(idOrPath)) as unknown as Record<string, unknown>;
    } catch (err) {
      throw new ModelError(
        `cannot load the model "${idOrPath}" from the Hugging Face hub: ${(err as Error).message.split('\n')[0]}`,
        {
          cause: err,
          hint: `It is not a local folder either (no ${dir}). Check the name and your internet connection, or give a folder.`,
        },
      );
    }
  }
  const where = local ? path.join(dir, 'config.json') : `the config.json of ${idOrPath}`;
  const task = detectTask(config, where, opts.task);

  const fromOpts = { local_files_only: local };
  let tok: PreTrainedTokenizer;
  try {
    tok = await AutoTokenizer.from_pretrained(id, fromOpts);
  } catch (err) {
    throw new ModelError(`cannot load the tokenizer of ${id}: ${(err as Error).message.split('\n')[0]}`, {
      cause: err,
      hint: 'transformers.js reads tokenizer.json and tokenizer_config.json; re-save them with a fast tokenizer (`tokenizer.save_pretrained(folder)`).',
    });
  }
  const Auto =
    task === 'text-classification'
      ? AutoModelForSequenceClassification
      : task === 'token-classification'
        ? AutoModelForTokenClassification
        : AutoModelForQuestionAnswering;
  let model: PreTrainedModel;
  try {
    model = await Auto.from_pretrained(id, {
      ...fromOpts,
      ...(local ? { dtype: 'fp32' as const } : opts.dtype ? { dtype: opts.dtype } : {}),
      ...(opts.device ? { device: opts.device } : {}),
      ...(externalData ? { use_external_data_format: true } : {}),
    });
  } catch (err) {
    const what = local ? path.join(dir, 'onnx', 'model.onnx') : `the ONNX weights of ${idOrPath}`;
    throw new ModelError(`cannot load ${what} as a ${task} model: ${(err as Error).message.split('\n')[0]}`, {
      cause: err,
      hint: `config.json says model_type "${String(config.model_type)}"; transformers.js must support that type for ${task}. ${EXPORT_HINT}`,
    });
  }

  const tokJson =
    (tok as unknown as { _tokenizerJSON?: Record<string, unknown> })._tokenizerJSON ??
    (local ? readJson(path.join(dir, 'tokenizer.json'), 'tokenizer') : {});
  const template = parseTemplate(tokJson.post_processor, tok, local ? path.join(dir, 'tokenizer.json') : idOrPath);
  const wpModel = (tokJson.model ?? {}) as Record<string, unknown>;
  const subwordPrefix = typeof wpModel.continuing_subword_prefix === 'string' ? wpModel.continuing_subword_prefix : '##';

  const maxPosRaw = typeof config.max_position_embeddings === 'number' ? config.max_position_embeddings : Infinity;
  const maxPos = ROBERTA_LIKE.has(String(config.model_type)) ? maxPosRaw - 2 : maxPosRaw;
  const tokMax = Number.isFinite(tok.model_max_length) && tok.model_max_length > 0 ? tok.model_max_length : Infinity;
  const limit = Math.min(maxPos, tokMax);
  const modelLimit = Number.isFinite(limit) ? limit : 512;
  const maxLength = opts.maxLength ?? modelLimit;
  if (!Number.isInteger(maxLength) || maxLength > modelLimit) {
    throw new ModelError(`maxLength ${opts.maxLength} does not fit the model ${id}, which takes at most ${modelLimit} tokens.`);
  }
  if (maxLength < specialCount(template.pair) + 4) {
    throw new ModelError(`maxLength ${maxLength} is too small: the model's special tokens alone take ${specialCount(template.pair)}.`);
  }
  const maxBatchSize = opts.maxBatchSize ?? DEFAULT_BATCH;
  if (!Number.isInteger(maxBatchSize) || maxBatchSize < 1) throw new ModelError(`maxBatchSize must be a positive integer, got ${opts.maxBatchSize}.`);

  const padRaw = (tok as unknown as { pad_token_id?: number }).pad_token_id;
  const padId = typeof padRaw === 'number' ? padRaw : typeof config.pad_token_id === 'number' ? config.pad_token_id : 0;
  const info: ModelInfo = { id, task, ...(task === 'question-answering' ? {} : withLabels(labelsFrom(config))) };
  return new TransformersModel(info, tok, model, {
    maxLength,
    maxBatchSize,
    template,
    subwordPrefix,
    padId,
    topK: opts.topK ?? 3,
    maxAnswerTokens: opts.maxAnswerTokens ?? 30,
    docStride: opts.docStride ?? 128,
    chunkable: splitsOnSpaces(tokJson),
  });
}

const CHAR_LOCAL_NORMALIZERS = new Set(['BertNormalizer', 'Lowercase', 'StripAccents', 'NFD', 'NFC', 'NFKD', 'NFKC', 'Strip']);
const SPACE_SPLITTING_PRE_TOKENIZERS = new Set(['BertPreTokenizer', 'Whitespace', 'WhitespaceSplit']);

/** True when encoding a text equals concatenating the encodings of its space-separated chunks. */
export function splitsOnSpaces(tokJson: Record<string, unknown>): boolean {
  const type = (x: unknown): string | undefined =>
    x && typeof x === 'object' ? ((x as { type?: unknown }).type as string | undefined) : undefined;
  const model = type(tokJson.model);
  if (model !== 'WordPiece') return false;
  const pre = type(tokJson.pre_tokenizer);
  if (!pre || !SPACE_SPLITTING_PRE_TOKENIZERS.has(pre)) return false;
  const norm = tokJson.normalizer;
  if (norm === null || norm === undefined) return true;
  const kinds =
    type(norm) === 'Sequence'
      ? ((norm as { normalizers?: unknown[] }).normalizers ?? []).map(type)
      : [type(norm)];
  return kinds.every((k) => k !== undefined && CHAR_LOCAL_NORMALIZERS.has(k));
}

function withLabels(labels: string[] | undefined): { labels?: string[] } {
  return labels ? { labels } : {};
}
