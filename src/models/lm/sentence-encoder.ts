/**
 * A sentence encoder for similarity constraints (`--sentence-encoder FOLDER|HUB_ID`): any transformers.js
 * feature-extraction model, its last hidden state mean-pooled over the real tokens, as sentence-transformers pools.
 * TextAttack's recipes use the Universal Sentence Encoder, which has no transformers.js port; the constraint's
 * thresholds are TextAttack's, the encoder is the user's.
 */
import { AutoModel } from '@huggingface/transformers';
import { ModelError } from '../../util/errors.ts';
import { openPretrained, runTexts, type Pretrained } from './open.ts';

/** Texts encoded per graph run. */
const BATCH = 32;

/** A feature-extraction model opened for mean-pooled sentence vectors (`--sentence-encoder`); `open`, `embed`, `close`. */
export class SentenceEncoder {
  /** Texts run through the model (cached ones are not counted: see the constraint's own cache). */
  encoded = 0;

  /** The graph output read: `last_hidden_state`, else the last `hidden_states.N` a textstress export adds. */
  private output?: string;

  private constructor(private readonly p: Pretrained) {}

  get id(): string {
    return this.p.id;
  }

  /** Opens the model and encodes one text, so that a model without hidden states is refused before any work. */
  static async open(spec: string): Promise<SentenceEncoder> {
    const p = await openPretrained(spec, AutoModel as never, 'sentence encoder');
    const enc = new SentenceEncoder(p);
    try {
      await enc.embed(['a sentence']);
    } catch (err) {
      await enc.close();
      throw err;
    }
    enc.encoded = 0;
    return enc;
  }

  /** One mean-pooled vector per text, in order. */
  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (let from = 0; from < texts.length; from += BATCH) out.push(...(await this.batch(texts.slice(from, from + BATCH))));
    return out;
  }

  private async batch(texts: readonly string[]): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const { outputs, mask } = await runTexts(this.p, texts, 'sentence encoder');
    const name = this.pick(Object.keys(outputs));
    const { data, dims } = outputs[name]!;
    if (dims.length !== 3 || dims[0] !== texts.length) {
      throw new ModelError(
        `the sentence encoder ${this.p.id} answered ${name} with shape [${dims.join(', ')}], not [texts, tokens, hidden].`,
      );
    }
    const [, width, hidden] = dims as [number, number, number];
    this.encoded += texts.length;
    return texts.map((_, b) => {
      const v = new Float32Array(hidden);
      let n = 0;
      for (let t = 0; t < width; t++) {
        if (!mask[b]![t]) continue;
        n++;
        const at = (b * width + t) * hidden;
        for (let h = 0; h < hidden; h++) v[h]! += data[at + h]!;
      }
      for (let h = 0; h < hidden; h++) v[h]! /= Math.max(n, 1);
      return v;
    });
  }

  private pick(names: readonly string[]): string {
    if (this.output) return this.output;
    const hidden = names
      .map((n) => ({ n, m: /^hidden_states[._]?(\d+)$/.exec(n) }))
      .filter((x) => x.m)
      .sort((a, b) => Number(b.m![1]) - Number(a.m![1]));
    const name = names.includes('last_hidden_state') ? 'last_hidden_state' : hidden[0]?.n;
    if (!name) {
      throw new ModelError(
        `${this.p.id} gives no hidden states (its outputs: ${names.join(', ')}): it cannot serve as a sentence encoder.`,
        {
          hint: 'Give a feature-extraction model (one whose graph returns last_hidden_state), e.g. Xenova/all-MiniLM-L6-v2.',
        },
      );
    }
    this.output = name;
    return name;
  }

  async close(): Promise<void> {
    await (this.p.model as unknown as { dispose?: () => Promise<unknown> }).dispose?.();
  }
}
