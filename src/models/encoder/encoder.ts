/**
 * An encoder opened for inspection: every layer's hidden states (layer 0 = embeddings) and every head's attention
 * weights, and the masked-LM logits of a fill-mask model, from a transformers.js folder or hub id. The graph is
 * run with onnxruntime directly, with the inner tensors added as outputs (see graph.ts) when the folder does not
 * export them.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { AutoConfig, AutoModel, AutoTokenizer, env, type PreTrainedTokenizer } from '@huggingface/transformers';
import * as ort from 'onnxruntime-node';
import { ModelError } from '../../util/errors.ts';
import { checkLocalFolder, isLocalSpec, modelLengthLimit, readJson } from '../transformers/folder.ts';
import { pieceEncoderFor, type PieceEncoder } from '../transformers/pieces.ts';
import { assemble, parseTemplate, specialCount, type Template } from '../transformers/template.ts';
import { decodeModel, findEncoderTaps, readModelBytes, withExtraOutputs, type EncoderTaps } from './graph.ts';

/** One sentence as the encoder sees it, with where each word's pieces sit. */
export interface EncodedSentence {
  ids: number[];
  /** Token positions [start, end) of each word kept (a sentence too long for the model loses its last words). */
  wordSpans: [number, number][];
}

/** What one run returns; arrays are row-major over the batch, right-padded to `width`. */
export interface EncoderOutputs {
  width: number;
  /** Per layer 0…L: [batch, width, hidden]. */
  hidden?: Float32Array[];
  /** Per layer 0…L−1: [batch, heads, width, width]. */
  attentions?: Float32Array[];
  /** Masked-LM logits [batch, width, vocab]. */
  logits?: Float32Array;
}

export interface RunRequest {
  hidden?: boolean;
  attentions?: boolean;
  logits?: boolean;
}

export interface EncoderInfo {
  id: string;
  layers: number;
  heads: number;
  hiddenSize: number;
  vocabSize: number;
  maxLength: number;
  architecture: string;
  /** Whether the graph exported its inner tensors itself (else they were exposed from the graph). */
  exported: boolean;
}

export class Encoder {
  private queue: Promise<unknown> = Promise.resolve();
  private vocab?: string[];

  constructor(
    readonly info: EncoderInfo,
    private readonly session: ort.InferenceSession,
    /** Undefined when opened for the masked-LM logits only (EncoderOptions.internals false). */
    private readonly taps: EncoderTaps | undefined,
    private readonly tok: PreTrainedTokenizer,
    private readonly pieces: PieceEncoder,
    private readonly template: Template,
    private readonly padId: number,
  ) {}

  /** The [MASK] token's id, or a ModelError for a tokenizer without one. */
  get maskId(): number {
    const id = (this.tok as unknown as { mask_token_id?: number }).mask_token_id;
    if (typeof id !== 'number') throw new ModelError(`the tokenizer of ${this.info.id} has no mask token: it is not a fill-mask model.`);
    return id;
  }

  /** Vocabulary entries for ids (for showing tokens in reports). */
  tokens(ids: readonly number[]): string[] {
    if (!this.vocab) {
      this.vocab = [];
      for (const [t, i] of this.tok.get_vocab()) this.vocab[i] = t;
    }
    return ids.map((i) => this.vocab![i] ?? `[${i}]`);
  }

  /**
   * Encodes a text given as words and the gaps between them (gaps[0] before the first word), one word's pieces at
   * a time so that every word's token positions are known exactly.
   */
  encodeWords(words: readonly string[], gaps: readonly string[]): EncodedSentence {
    const budget = this.info.maxLength - specialCount(this.template.single);
    const ids: number[] = [];
    const spans: [number, number][] = [];
    const push = (piece: number[]): boolean => {
      if (ids.length + piece.length > budget) return false;
      ids.push(...piece);
      return true;
    };
    if (!push(this.gapIds(gaps[0] ?? ''))) return this.finish(ids, spans);
    for (let i = 0; i < words.length; i++) {
      const start = ids.length;
      const prefixSpace = i > 0 || (gaps[0] ?? '').length > 0;
      if (!push(this.pieces.word(words[i]!, { prefixSpace }).ids)) break;
      spans.push([start, ids.length]);
      if (!push(this.gapIds(gaps[i + 1] ?? ''))) break;
    }
    return this.finish(ids, spans);
  }

  private gapIds(gap: string): number[] {
    const t = gap.trim();
    return t ? this.pieces.textIds(t) : [];
  }

  private finish(ids: number[], spans: [number, number][]): EncodedSentence {
    const row = assemble(this.template.single, ids);
    const off = row.seqStart.A;
    return { ids: row.inputIds, wordSpans: spans.map(([s, e]) => [s + off, e + off]) };
  }

  /** Runs the graph on rows of ids (right-padded here), one run at a time. */
  async run(rows: readonly (readonly number[])[], want: RunRequest): Promise<EncoderOutputs> {
    if (rows.length === 0) return { width: 0 };
    const width = Math.max(...rows.map((r) => r.length));
    const n = rows.length;
    const ids = new BigInt64Array(n * width).fill(BigInt(this.padId));
    const mask = new BigInt64Array(n * width);
    rows.forEach((r, i) => {
      r.forEach((id, t) => {
        ids[i * width + t] = BigInt(id);
        mask[i * width + t] = 1n;
      });
    });
    const all: Record<string, ort.Tensor> = {
      input_ids: new ort.Tensor('int64', ids, [n, width]),
      attention_mask: new ort.Tensor('int64', mask, [n, width]),
      token_type_ids: new ort.Tensor('int64', new BigInt64Array(n * width), [n, width]),
    };
    const feeds: Record<string, ort.Tensor> = {};
    for (const name of this.session.inputNames) {
      if (!all[name]) throw new ModelError(`${this.info.id}: the graph wants an input '${name}' textstress does not know.`);
      feeds[name] = all[name];
    }
    const taps = want.hidden || want.attentions ? this.internals() : undefined;
    const fetch = [
      ...(want.hidden ? taps!.hiddenStates : []),
      ...(want.attentions ? taps!.attentions : []),
      ...(want.logits ? [this.logitsName()] : []),
    ];
    const job = this.queue.then(() => this.session.run(feeds, fetch));
    this.queue = job.catch(() => undefined);
    let out: ort.InferenceSession.OnnxValueMapType;
    try {
      out = await job;
    } catch (err) {
      throw new ModelError(`the model ${this.info.id} failed while running: ${(err as Error).message}`, { cause: err });
    }
    const get = (name: string): Float32Array => (out[name] as ort.Tensor).data as Float32Array;
    return {
      width,
      ...(want.hidden ? { hidden: taps!.hiddenStates.map(get) } : {}),
      ...(want.attentions ? { attentions: taps!.attentions.map(get) } : {}),
      ...(want.logits ? { logits: get(this.logitsName()) } : {}),
    };
  }

  private internals(): EncoderTaps {
    if (!this.taps) throw new Error(`${this.info.id} was opened for its masked-LM logits only (internals: false)`);
    return this.taps;
  }

  private logitsName(): string {
    if (!this.session.outputNames.includes('logits')) {
      throw new ModelError(`the model ${this.info.id} has no 'logits' output (it has ${this.session.outputNames.join(', ')}).`);
    }
    return 'logits';
  }

  async close(): Promise<void> {
    await this.queue;
    await this.session.release();
  }
}

/** Where the ONNX weights of a folder or (downloaded) hub model are. */
async function modelFile(spec: string, local: boolean): Promise<string> {
  if (local) return path.join(path.resolve(spec), 'onnx', 'model.onnx');
  // transformers.js downloads and caches the weights; the cache keeps the hub's layout.
  try {
    const m = await AutoModel.from_pretrained(spec, { dtype: 'fp32' });
    await (m as unknown as { dispose?: () => Promise<unknown> }).dispose?.();
  } catch (err) {
    throw new ModelError(`cannot load the model "${spec}" from the Hugging Face hub: ${(err as Error).message.split('\n')[0]}`, {
      cause: err,
    });
  }
  const file = path.join(env.cacheDir ?? '', spec, 'onnx', 'model.onnx');
  if (!existsSync(file)) throw new ModelError(`the ONNX weights of ${spec} are not where transformers.js caches them (${file}).`);
  return file;
}

export interface EncoderOptions {
  /** Tokens per row, special tokens included (default: the model's limit). */
  maxLength?: number;
  /**
   * Whether hidden states and attentions will be read (default true). The cloze test needs only the masked-LM
   * logits: without internals the graph is run as it is, so any fill-mask graph works, fused attention included.
   */
  internals?: boolean;
}

/** Opens an encoder (BERT, RoBERTa, ALBERT, DeBERTa, ModernBERT …) for inspection; a ModelError names what is missing or not understood. */
export async function loadEncoder(spec: string, opts: EncoderOptions = {}): Promise<Encoder> {
  const local = isLocalSpec(spec);
  const id = local ? path.resolve(spec) : spec;
  let config: Record<string, unknown>;
  if (local) {
    const checked = checkLocalFolder(id);
    if (checked.externalData) throw new ModelError(`${id}: models with external ONNX data files are not supported for probing yet.`);
    config = checked.config;
  } else {
    try {
      config = (await AutoConfig.from_pretrained(spec)) as unknown as Record<string, unknown>;
    } catch (err) {
      throw new ModelError(`cannot load the model "${spec}" from the Hugging Face hub: ${(err as Error).message.split('\n')[0]}`, {
        cause: err,
      });
    }
  }
  const num = (k: string, alt?: string): number => {
    const v = config[k] ?? (alt ? config[alt] : undefined);
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) {
      throw new ModelError(`${id}: config.json has no ${k}${alt ? ` (or ${alt})` : ''}, which probing needs.`);
    }
    return v;
  };
  const layers = num('num_hidden_layers', 'n_layers');
  const heads = num('num_attention_heads', 'n_heads');
  const hiddenSize = num('hidden_size', 'dim');
  const vocabSize = num('vocab_size');
  const file = await modelFile(spec, local);
  const where = local ? file : `the ONNX weights of ${spec}`;
  let bytes: Uint8Array;
  try {
    bytes = readModelBytes(file);
  } catch (err) {
    throw new ModelError(`cannot read ${where}: ${(err as Error).message}`, { cause: err });
  }
  const proto = decodeModel(bytes, where);
  const internals = opts.internals ?? true;
  const taps: EncoderTaps | undefined = internals ? findEncoderTaps(proto, layers, where) : undefined;
  let session: ort.InferenceSession;
  try {
    session = await ort.InferenceSession.create(taps ? withExtraOutputs(bytes, proto, [...taps.hiddenStates, ...taps.attentions]) : bytes);
  } catch (err) {
    throw new ModelError(`onnxruntime cannot load ${where} with its hidden states as outputs: ${(err as Error).message}`, { cause: err });
  }
  let tok: PreTrainedTokenizer;
  try {
    tok = await AutoTokenizer.from_pretrained(id, { local_files_only: local });
  } catch (err) {
    throw new ModelError(`cannot load the tokenizer of ${id}: ${(err as Error).message.split('\n')[0]}`, { cause: err });
  }
  const tokJson =
    (tok as unknown as { _tokenizerJSON?: Record<string, unknown> })._tokenizerJSON ??
    (local ? readJson(path.join(id, 'tokenizer.json'), 'tokenizer') : {});
  const template = parseTemplate(tokJson.post_processor, tok, local ? path.join(id, 'tokenizer.json') : spec);
  const limit = modelLengthLimit(config, tok.model_max_length);
  const maxLength = Math.min(opts.maxLength ?? limit, limit);
  const padRaw = (tok as unknown as { pad_token_id?: number }).pad_token_id;
  const padId = typeof padRaw === 'number' ? padRaw : typeof config.pad_token_id === 'number' ? config.pad_token_id : 0;
  const architecture = Array.isArray(config.architectures) ? String(config.architectures[0]) : String(config.model_type ?? 'unknown');
  const info: EncoderInfo = { id, layers, heads, hiddenSize, vocabSize, maxLength, architecture, exported: taps?.exported ?? false };
  return new Encoder(info, session, taps, tok, pieceEncoderFor(tok, tokJson), template, padId);
}
