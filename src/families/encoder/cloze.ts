/**
 * The cloze test of Yin et al. (2020, §6, Figure 4): on minimal pairs whose token sequences differ in exactly one
 * position (the error), mask each token within `window` tokens of the error, one at a time, in both sentences,
 * and compare the masked LM's probability of the true token. The mean drop P(clean) − P(with error) per error
 * type and signed distance shows how far an error's effect reaches.
 */
import type { Encoder } from '../../models/encoder/index.ts';
import type { GrammarErrorType } from '../../perturb/grammar/index.ts';
import type { MinimalPair } from './pairs.ts';

export interface ClozeOptions {
  window?: number;
  /** Rows per model run (default 32). */
  batchSize?: number;
  onProgress?: (done: number, total: number) => void;
}

/** Mean drop at one signed distance (n = 0: no token there). */
export interface ClozeCell {
  distance: number;
  n: number;
  meanDrop: number;
  /** Mean drop of log-probability, which small probabilities do not flatten. */
  meanLogDrop: number;
}

export interface ClozeTypeResult {
  type: GrammarErrorType | 'all';
  pairs: number;
  cells: ClozeCell[];
}

/**
 * One used pair's drops next to the error (|d| = 1) and `window` away (|d| = window): sums and token counts, so that
 * a bootstrap can resample whole pairs.
 */
export type ClozeUnit = [nearSum: number, nearN: number, farSum: number, farN: number];

export interface ClozeResult {
  window: number;
  /** Per used pair (all types), for intervals. */
  units: ClozeUnit[];
  /** Pairs used (token sequences of equal length differing in one position) and left out. */
  used: number;
  skipped: number;
  types: ClozeTypeResult[];
  maskedQueries: number;
  seconds: number;
}

interface Job {
  type: GrammarErrorType;
  /** Index of the used pair. */
  unit: number;
  distance: number;
  clean: number[];
  error: number[];
  position: number;
  truth: number;
}

/** The one position where two equally long id sequences differ, or −1. */
export function singleDifference(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length) return -1;
  let at = -1;
  for (let i = 0; i < a.length; i++) {
    if (a[i] === b[i]) continue;
    if (at >= 0) return -1;
    at = i;
  }
  return at;
}

/** Runs the cloze test; pairs that are not single-token substitutions are counted and left out. */
export async function clozeTest(encoder: Encoder, pairs: readonly MinimalPair[], opts: ClozeOptions = {}): Promise<ClozeResult> {
  const window = opts.window ?? 6;
  const mask = encoder.maskId;
  const started = performance.now();
  const jobs: Job[] = [];
  let used = 0;
  let skipped = 0;
  const pairsPerType = new Map<GrammarErrorType, number>();
  for (const p of pairs) {
    const clean = encoder.encodeWords(p.clean.words, p.clean.gaps).ids;
    const error = encoder.encodeWords(p.error.words, p.error.gaps).ids;
    let at = singleDifference(clean, error);
    // identical sequences (a pair whose error the tokenizer cannot see) have no error position but its own: the
    // recorded word's first token, so that the drop is measured (and is exactly 0)
    if (at < 0 && clean.length === error.length && clean.every((id, i) => id === error[i])) {
      at = encoder.encodeWords(p.error.words, p.error.gaps).wordSpans[p.errorWords[0] ?? 0]?.[0] ?? -1;
    }
    if (at < 0) {
      skipped++;
      continue;
    }
    used++;
    pairsPerType.set(p.type, (pairsPerType.get(p.type) ?? 0) + 1);
    for (let d = -window; d <= window; d++) {
      const q = at + d;
      if (d === 0 || q < 1 || q >= clean.length - 1) continue; // not the error, not [CLS]/[SEP]
      jobs.push({ type: p.type, unit: used - 1, distance: d, clean, error, position: q, truth: clean[q]! });
    }
  }
  // identical masked inputs get one model answer: an identical pair's drop is exactly 0
  const answers = new Map<string, number>();
  const keyOf = (ids: readonly number[], q: number): string => `${q}:${ids.join(',')}`;
  const rows: { key: string; ids: number[]; q: number; truth: number }[] = [];
  for (const j of jobs) {
    for (const ids of [j.clean, j.error]) {
      const key = keyOf(ids, j.position);
      if (answers.has(key)) continue;
      answers.set(key, Number.NaN);
      const masked = ids.slice();
      masked[j.position] = mask;
      rows.push({ key, ids: masked, q: j.position, truth: j.truth });
    }
  }
  const batch = opts.batchSize ?? 32;
  for (let s = 0; s < rows.length; s += batch) {
    const chunk = rows.slice(s, s + batch);
    const out = await encoder.run(
      chunk.map((r) => r.ids),
      { logits: true },
    );
    const logits = out.logits!;
    const vocab = logits.length / (chunk.length * out.width);
    chunk.forEach((r, i) => {
      const base = (i * out.width + r.q) * vocab;
      let max = -Infinity;
      for (let v = 0; v < vocab; v++) max = Math.max(max, logits[base + v]!);
      let sum = 0;
      for (let v = 0; v < vocab; v++) sum += Math.exp(logits[base + v]! - max);
      answers.set(r.key, Math.exp(logits[base + r.truth]! - max) / sum);
    });
    opts.onProgress?.(Math.min(s + batch, rows.length), rows.length);
  }
  const types = [...pairsPerType.keys()];
  const cellsFor = (sel: readonly Job[]): ClozeCell[] => {
    const cells: ClozeCell[] = [];
    for (let d = -window; d <= window; d++) {
      if (d === 0) continue;
      const here = sel.filter((j) => j.distance === d);
      let drop = 0;
      let logDrop = 0;
      for (const j of here) {
        const pc = answers.get(keyOf(j.clean, j.position))!;
        const pe = answers.get(keyOf(j.error, j.position))!;
        drop += pc - pe;
        logDrop += Math.log(Math.max(pc, 1e-30)) - Math.log(Math.max(pe, 1e-30));
      }
      cells.push({
        distance: d,
        n: here.length,
        meanDrop: here.length ? drop / here.length : Number.NaN,
        meanLogDrop: here.length ? logDrop / here.length : Number.NaN,
      });
    }
    return cells;
  };
  const units: ClozeUnit[] = Array.from({ length: used }, () => [0, 0, 0, 0]);
  for (const j of jobs) {
    const far = Math.abs(j.distance) === window;
    if (Math.abs(j.distance) !== 1 && !far) continue;
    const u = units[j.unit]!;
    const drop = answers.get(keyOf(j.clean, j.position))! - answers.get(keyOf(j.error, j.position))!;
    // window 1: a token is both next to the error and the farthest measured
    if (Math.abs(j.distance) === 1) {
      u[0] += drop;
      u[1]++;
    }
    if (far) {
      u[2] += drop;
      u[3]++;
    }
  }
  return {
    window,
    units,
    used,
    skipped,
    types: [
      ...types.map((t) => ({ type: t, pairs: pairsPerType.get(t)!, cells: cellsFor(jobs.filter((j) => j.type === t)) })),
      { type: 'all' as const, pairs: used, cells: cellsFor(jobs) },
    ],
    maskedQueries: rows.length,
    seconds: (performance.now() - started) / 1000,
  };
}
