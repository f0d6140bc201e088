/**
 * TextAttack's sentence-encoder constraint (textattack/constraints/semantics/sentence_encoders/sentence_encoder.py),
 * with the user's encoder in place of the Universal Sentence Encoder: the edited text is kept when the similarity of
 * its encoding to the reference's reaches the threshold. The reference is the original text or the text the step
 * started from; with a window, both are cut to the `window` words around the word just edited
 * (AttackedText.text_window_around_index); a text with fewer words than the window scores 1 when
 * `skipShorterThanWindow`. Encodings are batched per step and cached by text; the texts each example asks for are
 * counted, apart from the target model's queries.
 */
import type { WordSeq } from '../text/word-seq.ts';
import type { Constraint, ConstraintVerdict } from './constraints.ts';
import type { AttackState } from './state.ts';
import type { AttackSubject } from './subject.ts';

/** What the constraint needs of a sentence encoder (models/lm/sentence-encoder.ts's SentenceEncoder). */
export interface SentenceEmbedder {
  readonly id: string;
  embed(texts: readonly string[]): Promise<Float32Array[]>;
}

/** TextAttack's sentence-encoder metrics: cosine, or angular similarity 1 − arccos(cos)/π. */
export type SimilarityMetric = 'cosine' | 'angular';

/** One recipe's use of the constraint, as its TextAttack recipe file sets it. */
export interface SimilarityOptions {
  threshold: number;
  metric: SimilarityMetric;
  /** Compare with the original text (BAE, TextBugger) or with the text the step started from (TextFooler). */
  compareAgainst: 'original' | 'previous';
  /** Words around the edited one that both texts are cut to; null: the whole texts. */
  window: number | null;
  /** A text of fewer words than the window passes with similarity 1 (TextAttack's skip_text_shorter_than_window). */
  skipShorterThanWindow: boolean;
}

/** Encodings kept in memory (a window's text is asked for again and again within an example). */
const CACHE = 20_000;

/** The text of `window` words around word `index` of `seq`, exactly as TextAttack's text_window_around_index cuts it. */
export function textWindow(seq: WordSeq, index: number, window: number): string {
  const length = seq.length;
  if (length === 0) return '';
  const half = (window - 1) / 2;
  let start: number;
  let end: number;
  if (index - half < 0) {
    start = 0;
    end = Math.min(window - 1, length - 1);
  } else if (index + half >= length) {
    start = Math.max(0, length - window);
    end = length - 1;
  } else {
    start = index - Math.ceil(half);
    end = index + Math.floor(half);
  }
  return seq.toString().slice(seq.offsetOf(start), seq.offsetOf(end) + seq.words[end]!.length);
}

/** Cosine similarity, or TextAttack's angular similarity 1 − arccos(cos)/π. */
export function similarity(a: Float32Array, b: Float32Array, metric: SimilarityMetric): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let k = 0; k < a.length; k++) {
    dot += a[k]! * b[k]!;
    na += a[k]! * a[k]!;
    nb += b[k]! * b[k]!;
  }
  // torch's CosineSimilarity divides by max(‖a‖·‖b‖, 1e-8).
  const cos = Math.max(-1, Math.min(1, dot / Math.max(Math.sqrt(na) * Math.sqrt(nb), 1e-8)));
  return metric === 'cosine' ? cos : 1 - Math.acos(cos) / Math.PI;
}

/**
 * What an example asked of the encoder: distinct texts, and all texts asked (repeats included). Whether a text was
 * answered from the run's shared cache depends on which example asked first, so it is not counted per example.
 */
export interface EncoderCount {
  texts: number;
  requests: number;
}

/** The constraint and its encoder's bookkeeping (cache and per-example counts). */
export class SentenceSimilarity {
  private readonly cache = new Map<string, Float32Array>();
  private readonly asked = new WeakMap<AttackSubject, { texts: Set<string>; requests: number }>();

  constructor(
    readonly encoder: SentenceEmbedder,
    readonly opts: SimilarityOptions,
  ) {}

  /** What an example asked of the encoder. */
  countFor(subject: AttackSubject): EncoderCount {
    const a = this.asked.get(subject);
    return { texts: a?.texts.size ?? 0, requests: a?.requests ?? 0 };
  }

  /** The constraint, named with its settings. */
  constraint(): Constraint {
    const o = this.opts;
    return {
      name: `sentence-similarity(${o.metric} ≥ ${o.threshold}, ${o.compareAgainst}, window ${o.window ?? 'none'})`,
      acceptsAll: (next, subject, from) => this.verdicts(next, subject, from),
    };
  }

  /** The similarity of each version to its reference, and whether it reaches the threshold. */
  async verdicts(next: readonly AttackState[], subject: AttackSubject, from: AttackState): Promise<ConstraintVerdict[]> {
    const o = this.opts;
    const reference = o.compareAgainst === 'original' ? subject.original : from.seq;
    const suffixWords = subject.totalWords - subject.original.length;
    const pairs = next.map((state) => {
      if (o.window !== null && o.skipShorterThanWindow && state.seq.length + suffixWords < o.window) return undefined;
      if (o.window === null) return [fieldText(subject, reference), fieldText(subject, state.seq)] as const;
      const index = state.edits.at(-1)?.wordIndex ?? 0;
      return [textWindow(reference, Math.min(index, reference.length - 1), o.window), textWindow(state.seq, index, o.window)] as const;
    });
    const vectors = await this.encode(
      pairs.flatMap((p) => (p ? [p[0], p[1]] : [])),
      subject,
    );
    return pairs.map((p) => {
      const score = p ? similarity(vectors.get(p[0])!, vectors.get(p[1])!, o.metric) : 1;
      return { ok: score >= o.threshold, similarity: score };
    });
  }

  /** Encodings of the texts, the ones not cached sent to the encoder in one batch. */
  private async encode(texts: readonly string[], subject: AttackSubject): Promise<Map<string, Float32Array>> {
    const out = new Map<string, Float32Array>();
    const wanted = new Set<string>();
    const asked = this.asked.get(subject) ?? { texts: new Set<string>(), requests: 0 };
    this.asked.set(subject, asked);
    asked.requests += texts.length;
    for (const t of texts) {
      asked.texts.add(t);
      if (out.has(t) || wanted.has(t)) continue;
      const hit = this.cache.get(t);
      if (hit) out.set(t, hit);
      else wanted.add(t);
    }
    const missing = [...wanted];
    if (missing.length) {
      const vs = await this.encoder.embed(missing);
      missing.forEach((t, k) => {
        out.set(t, vs[k]!);
        this.cache.set(t, vs[k]!);
        if (this.cache.size > CACHE) this.cache.delete(this.cache.keys().next().value!);
      });
    }
    return out;
  }
}

/** The whole edited field with `seq` in it (the attack window's words and the text after them). */
function fieldText(subject: AttackSubject, seq: WordSeq): string {
  const v = subject.fields(seq)[subject.field];
  return Array.isArray(v) ? v.join(' ') : String(v);
}
