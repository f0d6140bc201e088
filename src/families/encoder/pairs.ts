/**
 * Probing data (Yin et al. 2020, §5): minimal pairs of a clean sentence and the same sentence with exactly one
 * simulated error of one type, placed by the grammar family's probabilistic transformation, with the error's
 * word positions recorded. Both sentences of a pair go to the same split, so the classes are balanced in every
 * split and a probe cannot tell them apart by content.
 */
import { GRAMMAR_ERROR_TYPES, grammarCandidates, sampleGrammarError, type GrammarErrorType } from '../../perturb/grammar/index.ts';
import type { WordCandidate } from '../../text/edits.ts';
import { WordSeq } from '../../text/word-seq.ts';
import { Rng } from '../../util/rng.ts';

export type Split = 'train' | 'dev' | 'test';

/** A sentence as words and the gaps between them (gaps[0] before the first word). */
export interface Words {
  words: string[];
  gaps: string[];
}

export interface MinimalPair {
  id: string;
  type: GrammarErrorType;
  split: Split;
  clean: Words;
  error: Words;
  /** Word indices in `error` that carry the error (the changed word; both words of a swap; for a deletion the word after the gap). */
  errorWords: number[];
  /** The edit: replace, insert, delete or swap, and the words before/after. */
  op: NonNullable<WordCandidate['op']>;
  before: string;
  after: string;
}

export interface PairOptions {
  types: readonly GrammarErrorType[];
  /** Pairs per error type (fewer when the sentences run out; the shortfall is reported). */
  perType: number;
  seed: number;
  /** Shares of pairs in train and dev; the rest is test. Default 0.8 / 0.1. */
  trainShare?: number;
  devShare?: number;
}

export interface MinimalPairSet {
  pairs: MinimalPair[];
  /** Pairs made per type (less than perType when too few sentences allow that type). */
  made: Record<string, number>;
  sentencesTried: number;
}

const words = (s: WordSeq): Words => ({ words: [...s.words], gaps: [...s.gaps] });

/** Applies one candidate; returns the new sentence and the word indices that carry the error. */
export function applyError(seq: WordSeq, c: WordCandidate): { seq: WordSeq; errorWords: number[]; before: string } {
  const i = c.wordIndex;
  switch (c.op ?? 'replace') {
    case 'replace':
      return { seq: seq.replace(i, c.after), errorWords: [i], before: seq.words[i]! };
    case 'insert':
      return { seq: seq.insert(i, c.after), errorWords: [i], before: '' };
    case 'delete': {
      const next = seq.delete(i);
      return { seq: next, errorWords: [Math.min(i, next.length - 1)], before: seq.words[i]! };
    }
    case 'swap':
      return {
        seq: seq.replace(i, seq.words[i + 1]!).replace(i + 1, seq.words[i]!),
        errorWords: [i, i + 1],
        before: `${seq.words[i]} ${seq.words[i + 1]}`,
      };
  }
}

/**
 * Builds the pairs: sentences in a seeded order; each goes to the applicable type that has the fewest pairs so far
 * (so that rare types get the sentences they can use), and that type's error is placed as the probabilistic
 * transformation places it (uniform position, candidates by confusion weight).
 */
export function buildMinimalPairs(sentences: readonly string[], opts: PairOptions): MinimalPairSet {
  const rng = Rng.derive(opts.seed, 'probe-pairs');
  const order = rng.shuffle(sentences.map((_, i) => i));
  const byType = new Map<GrammarErrorType, MinimalPair[]>(opts.types.map((t) => [t, []]));
  let tried = 0;
  for (const k of order) {
    const open = opts.types.filter((t) => byType.get(t)!.length < opts.perType);
    if (open.length === 0) break;
    tried++;
    const seq = WordSeq.parse(sentences[k]!);
    const all = grammarCandidates(
      seq,
      Array.from({ length: seq.length }, (_, i) => i),
      { types: open },
    );
    const applicable = open.filter((t) => all.some((c) => c.type === `grammar:${t}`));
    if (applicable.length === 0) continue;
    const fewest = Math.min(...applicable.map((t) => byType.get(t)!.length));
    const type = applicable.find((t) => byType.get(t)!.length === fewest)!;
    const ofType = all.filter((c) => c.type === `grammar:${type}`);
    const pick = sampleGrammarError(ofType, Rng.derive(opts.seed, 'probe-error', k), { [type]: 1 });
    const cand = ofType[pick]!;
    const made = applyError(seq, cand);
    if (made.seq.toString() === seq.toString()) continue;
    byType.get(type)!.push({
      id: `s${k}`,
      type,
      split: 'train',
      clean: words(seq),
      error: words(made.seq),
      errorWords: made.errorWords,
      op: cand.op ?? 'replace',
      before: made.before,
      after: cand.op === 'delete' ? '' : cand.op === 'swap' ? `${seq.words[cand.wordIndex + 1]} ${seq.words[cand.wordIndex]}` : cand.after,
    });
  }
  const trainShare = opts.trainShare ?? 0.8;
  const devShare = opts.devShare ?? 0.1;
  const pairs: MinimalPair[] = [];
  const made: Record<string, number> = {};
  for (const type of GRAMMAR_ERROR_TYPES) {
    const got = byType.get(type);
    if (!got) continue;
    made[type] = got.length;
    const nTrain = Math.round(got.length * trainShare);
    const nDev = Math.round(got.length * devShare);
    got.forEach((p, i) => pairs.push({ ...p, split: i < nTrain ? 'train' : i < nTrain + nDev ? 'dev' : 'test' }));
  }
  return { pairs, made, sentencesTried: tried };
}
