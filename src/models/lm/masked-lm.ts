/**
 * A masked language model that proposes words (`--mlm FOLDER|HUB_ID`, BAE's candidates): any transformers.js
 * fill-mask model. It answers, for texts holding its mask token once, the probability of every vocabulary entry at
 * the mask (softmax of the logits there); which entries make words is the caller's business (perturb/masked-lm.ts).
 */
import { AutoModelForMaskedLM } from '@huggingface/transformers';
import { ModelError } from '../../util/errors.ts';
import { openPretrained, runTexts, type Pretrained } from './open.ts';

/** How a tokenizer marks pieces: a prefix on continuations (WordPiece "##"), or a marker on word starts (Ġ, ▁). */
export type PieceScheme = { kind: 'continuation'; prefix: string } | { kind: 'word-start'; marker: string; byteLevel: boolean };

/** The model's answer for one masked text. */
export interface MaskPrediction {
  /** Token position of the mask (1 = right after the start token), or -1 when truncation cut it off. */
  position: number;
  /** Probability of each vocabulary id at the mask. */
  probs: Float32Array;
}

/** Masked texts per graph run (TextAttack's batch_size for BAE). */
const BATCH = 16;

/** A fill-mask model opened for its predictions at a mask (`--mlm`); `open` it, `predict`, then `close`. */
export class MaskedLm {
  /** Masked texts run through the model. */
  predicted = 0;
  private vocab?: string[];

  private constructor(
    private readonly p: Pretrained,
    readonly maskToken: string,
    private readonly maskId: number,
    readonly scheme: PieceScheme,
  ) {}

  get id(): string {
    return this.p.id;
  }

  /** Opens the model and fills one mask, so that a model without logits is refused before any work. */
  static async open(spec: string): Promise<MaskedLm> {
    const p = await openPretrained(spec, AutoModelForMaskedLM as never, 'masked language model');
    const tok = p.tok as unknown as { mask_token?: string; mask_token_id?: number; get_vocab(): Map<string, number> };
    if (typeof tok.mask_token !== 'string' || typeof tok.mask_token_id !== 'number') {
      throw new ModelError(`the tokenizer of ${p.id} has no mask token: it is not a fill-mask model.`, {
        hint: 'Give --mlm a masked language model (BERT, RoBERTa, DistilBERT … ForMaskedLM), e.g. models/demo-mlm.',
      });
    }
    const lm = new MaskedLm(p, tok.mask_token, tok.mask_token_id, schemeOf(tok.get_vocab()));
    // One prediction now, so that a model without logits over its vocabulary is refused before any work.
    try {
      await lm.predict([`a ${tok.mask_token} sentence`]);
    } catch (err) {
      await lm.close();
      throw err;
    }
    lm.predicted = 0;
    return lm;
  }

  /** Entries of the tokenizer's vocabulary (the width of the logits). */
  private vocabSize(): number {
    this.token(0);
    return this.vocab!.length;
  }

  /** The vocabulary entry of each id, as the tokenizer writes it ("##ing", "Ġfilm"). */
  token(id: number): string {
    if (!this.vocab) {
      this.vocab = [];
      for (const [t, i] of (this.p.tok as unknown as { get_vocab(): Map<string, number> }).get_vocab()) this.vocab[i] = t;
    }
    return this.vocab[id] ?? '';
  }

  /** Predictions at the mask of each text (each holds `maskToken` once), in order. */
  async predict(texts: readonly string[]): Promise<MaskPrediction[]> {
    const out: MaskPrediction[] = [];
    for (let from = 0; from < texts.length; from += BATCH) {
      const batch = texts.slice(from, from + BATCH);
      const { outputs, ids } = await runTexts(this.p, batch, 'masked language model');
      const logits = outputs.logits;
      const vocabSize = this.vocabSize();
      if (!logits?.dims || logits.dims.length !== 3 || logits.dims[2]! < vocabSize) {
        const graph = (this.p.model as unknown as { sessions?: Record<string, { outputNames?: string[] }> }).sessions;
        const names = Object.values(graph ?? {}).flatMap((x) => x.outputNames ?? []);
        throw new ModelError(
          `the masked language model ${this.p.id} gives no logits [texts, tokens, ${vocabSize} vocabulary entries] ` +
            `(its graph's outputs: ${names.join(', ') || 'unknown'}${logits?.dims ? `; logits [${logits.dims.join(', ')}]` : ''}).`,
          { hint: 'Give --mlm a fill-mask model (…ForMaskedLM), e.g. models/demo-mlm.' },
        );
      }
      const [, width, vocab] = logits.dims as [number, number, number];
      this.predicted += batch.length;
      batch.forEach((_, b) => {
        const position = ids[b]!.indexOf(this.maskId);
        if (position < 0) {
          out.push({ position, probs: new Float32Array(0) });
          return;
        }
        const row = logits.data.subarray((b * width + position) * vocab, (b * width + position + 1) * vocab);
        out.push({ position, probs: softmax(row) });
      });
    }
    return out;
  }

  async close(): Promise<void> {
    await (this.p.model as unknown as { dispose?: () => Promise<unknown> }).dispose?.();
  }
}

function softmax(row: Float32Array): Float32Array {
  let max = -Infinity;
  for (const x of row) if (x > max) max = x;
  const out = new Float32Array(row.length);
  let sum = 0;
  for (let i = 0; i < row.length; i++) sum += out[i] = Math.exp(row[i]! - max);
  for (let i = 0; i < row.length; i++) out[i]! /= sum;
  return out;
}

/** How the vocabulary marks pieces: WordPiece's "##" continuations, else byte-level BPE's Ġ or SentencePiece's ▁ word starts. */
function schemeOf(vocab: Map<string, number>): PieceScheme {
  let hashes = 0;
  let g = 0;
  let u = 0;
  for (const t of vocab.keys()) {
    if (t.startsWith('##')) hashes++;
    else if (t.startsWith('Ġ')) g++;
    else if (t.startsWith('▁')) u++;
  }
  if (g > hashes && g >= u) return { kind: 'word-start', marker: 'Ġ', byteLevel: true };
  if (u > hashes) return { kind: 'word-start', marker: '▁', byteLevel: false };
  return { kind: 'continuation', prefix: '##' };
}
