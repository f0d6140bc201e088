/**
 * The probing sentences a layer probe is trained and tested on, in either design:
 * - `sentences` (the paper, §5): per error type, distinct sentences of 10–60 words where the type applies; half of
 *   them (alternately, in a seeded order) carry one or two errors of that type, the other half stay clean. A sentence
 *   may serve several types (each type draws its own labels and errors).
 * - `pairs`: minimal pairs (pairs.ts), a clean sentence and its one-error twin, both in the same split.
 * Either way a probe sees labelled sentences; `group` ties the two sides of a pair so they are kept or left out together.
 */
import { GRAMMAR_ERROR_TYPES, grammarCandidates, sampleGrammarError, type GrammarErrorType } from '../../perturb/grammar/index.ts';
import type { WordCandidate } from '../../text/edits.ts';
import { WordSeq } from '../../text/word-seq.ts';
import { Rng } from '../../util/rng.ts';
import { applyError, type MinimalPair, type Split, type Words } from './pairs.ts';

/** The probing designs: the paper's independent sentences, or minimal pairs. */
export const PROBE_DESIGNS = ['sentences', 'pairs'] as const;
export type ProbeDesign = (typeof PROBE_DESIGNS)[number];

export interface ProbeSentence {
  id: string;
  /** Sentences of one group (a minimal pair) are kept or left out together. */
  group: string;
  type: GrammarErrorType;
  split: Split;
  words: Words;
  /** 1: carries errors of `type`; 0: clean. */
  label: 0 | 1;
  /** Word indices that carry an error (empty when clean). */
  errorWords: number[];
  /** The edits made, in text order (empty when clean). */
  edits: { op: NonNullable<WordCandidate['op']>; before: string; after: string }[];
}

export interface SentenceSetOptions {
  types: readonly GrammarErrorType[];
  /** Sentences per error type (fewer when the source runs out; the shortfall is reported). */
  perType: number;
  seed: number;
  trainShare?: number;
  devShare?: number;
}

export interface ProbeSentenceSet {
  sentences: ProbeSentence[];
  /** Sentences made per type, and how many of them carry errors. */
  made: Record<string, number>;
  withErrors: Record<string, number>;
  sentencesTried: number;
}

const words = (s: WordSeq): Words => ({ words: [...s.words], gaps: [...s.gaps] });

/** A pair as its two labelled sentences, clean first (the order the pair design has always used). */
export function pairsToSentences(pairs: readonly MinimalPair[]): ProbeSentence[] {
  return pairs.flatMap((p): ProbeSentence[] => [
    { id: `${p.id}:clean`, group: p.id, type: p.type, split: p.split, words: p.clean, label: 0, errorWords: [], edits: [] },
    {
      id: `${p.id}:error`,
      group: p.id,
      type: p.type,
      split: p.split,
      words: p.error,
      label: 1,
      errorWords: p.errorWords,
      edits: [{ op: p.op, before: p.before, after: p.after }],
    },
  ]);
}

/** How many words an edit adds at its position (insert +1, delete −1, else 0). */
const shiftOf = (c: WordCandidate): number => (c.op === 'insert' ? 1 : c.op === 'delete' ? -1 : 0);

/**
 * One or two errors of one type, at positions at least two words apart (so a swap's two words and a deletion's
 * following word never overlap). The later error is applied first, so the earlier one's position still holds; the
 * later error's words then move by what the earlier edit added or removed.
 */
function placeErrors(
  seq: WordSeq,
  type: GrammarErrorType,
  ofType: readonly WordCandidate[],
  count: number,
  rng: Rng,
): Pick<ProbeSentence, 'errorWords' | 'edits'> & { seq: WordSeq } {
  const chosen: WordCandidate[] = [];
  let pool = [...ofType];
  while (chosen.length < count && pool.length > 0) {
    const c = pool[sampleGrammarError(pool, rng, { [type]: 1 })]!;
    chosen.push(c);
    pool = pool.filter((o) => Math.abs(o.wordIndex - c.wordIndex) >= 2);
  }
  chosen.sort((a, b) => b.wordIndex - a.wordIndex);
  let cur = seq;
  let errorWords: number[] = [];
  const edits: ProbeSentence['edits'] = [];
  for (const c of chosen) {
    const before = cur;
    const made = applyError(cur, c);
    const shift = shiftOf(c);
    errorWords = [...made.errorWords, ...errorWords.map((w) => (w >= c.wordIndex ? w + shift : w))];
    const after = c.op === 'delete' ? '' : c.op === 'swap' ? `${before.words[c.wordIndex + 1]} ${before.words[c.wordIndex]}` : c.after;
    edits.unshift({ op: c.op ?? 'replace', before: made.before, after });
    cur = made.seq;
  }
  return { seq: cur, errorWords: [...new Set(errorWords)].sort((a, b) => a - b), edits };
}

/**
 * The paper's design: sentences in one seeded order; each joins every type still short of `perType` that applies to
 * it; within a type, every second sentence gets one or two errors (even odds), placed as the probabilistic
 * transformation places them. Each type's sentences are split 80/10/10 in that order.
 */
export function buildErrorSentences(source: readonly string[], opts: SentenceSetOptions): ProbeSentenceSet {
  const rng = Rng.derive(opts.seed, 'probe-sentences');
  const order = rng.shuffle(source.map((_, i) => i));
  const byType = new Map<GrammarErrorType, ProbeSentence[]>(opts.types.map((t) => [t, []]));
  let tried = 0;
  for (const k of order) {
    const open = opts.types.filter((t) => byType.get(t)!.length < opts.perType);
    if (open.length === 0) break;
    tried++;
    const seq = WordSeq.parse(source[k]!);
    const all = grammarCandidates(
      seq,
      Array.from({ length: seq.length }, (_, i) => i),
      { types: open },
    );
    for (const type of open) {
      const ofType = all.filter((c) => c.type === `grammar:${type}`);
      if (ofType.length === 0) continue;
      const list = byType.get(type)!;
      const base = { id: `s${k}`, group: `${type}:s${k}`, type, split: 'train' as Split };
      if (list.length % 2 === 0) {
        list.push({ ...base, words: words(seq), label: 0, errorWords: [], edits: [] });
        continue;
      }
      const r = Rng.derive(opts.seed, 'probe-sentence-errors', type, k);
      const placed = placeErrors(seq, type, ofType, r.next() < 0.5 ? 1 : 2, r);
      if (placed.seq.toString() === seq.toString()) continue;
      list.push({ ...base, words: words(placed.seq), label: 1, errorWords: placed.errorWords, edits: placed.edits });
    }
  }
  const trainShare = opts.trainShare ?? 0.8;
  const devShare = opts.devShare ?? 0.1;
  const sentences: ProbeSentence[] = [];
  const made: Record<string, number> = {};
  const withErrors: Record<string, number> = {};
  for (const type of GRAMMAR_ERROR_TYPES) {
    const got = byType.get(type);
    if (!got) continue;
    made[type] = got.length;
    withErrors[type] = got.filter((s) => s.label === 1).length;
    const nTrain = Math.round(got.length * trainShare);
    const nDev = Math.round(got.length * devShare);
    got.forEach((s, i) => sentences.push({ ...s, split: i < nTrain ? 'train' : i < nTrain + nDev ? 'dev' : 'test' }));
  }
  return { sentences, made, withErrors, sentencesTried: tried };
}
