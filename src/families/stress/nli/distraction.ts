/**
 * Distraction tests (Naik et al. 2018 §4.1; Aspillaga et al. 2020 Table 2 and Figure 2): a tautology or a
 * true negation appended to one side. None changes the meaning, so the gold label is the original one.
 *
 * Punctuation: the clause goes before the sentence-final punctuation (. ! ? … with any closing quotes or
 * brackets), and the text keeps its own spacing there: tokenised text "a man is sleeping ." becomes "a man is
 * sleeping and true is true ." as in Naik et al.'s files (MNLI tokenised), "A man is sleeping." becomes "A man
 * is sleeping and true is true.", and SICK's sentences, which end without punctuation, get the clause at
 * the end. So no pair gains a spacing artefact that only the stressed copy carries. The clause is always
 * lower case and joined with one space.
 */
import { makePair } from './make.ts';
import type { NliPair, NliRuleOptions, StressPair } from './types.ts';

/** The tautology of the word-overlap and length-mismatch tests. */
export const NLI_TAUTOLOGY = 'and true is true';
/** The clause of the negation test. */
export const NLI_NEGATION_CLAUSE = 'and false is not true';
/** How many tautologies the length-mismatch test appends to the premise. */
export const NLI_LENGTH_MISMATCH_TIMES = 5;
/** The largest N of the tautology sweep (the paper's Figure 2: N = 1..5). */
export const NLI_MAX_TAUTOLOGIES = 5;

const FINAL = /(\s*[.!?…]+["'”’»)\]]*)?\s*$/u;

/** Where a clause appended to `text` goes: before the final punctuation and trailing whitespace. */
export function clauseOffset(text: string): number {
  return FINAL.exec(text)!.index;
}

/** `text` with `clause` appended `times` times, before its final punctuation; and the edit that made it. */
export function appendClause(text: string, clause: string, times = 1): { text: string; at: number; inserted: string } {
  const at = clauseOffset(text);
  const inserted = Array.from({ length: times }, (_, k) => (k === 0 && at === 0 ? clause : ` ${clause}`)).join('');
  return { text: text.slice(0, at) + inserted + text.slice(at), at, inserted };
}

function appended(pair: NliPair, side: 'premise' | 'hypothesis', clause: string, times: number, variant: string) {
  const { text, at, inserted } = appendClause(pair[side], clause, times);
  return {
    variant,
    premise: side === 'premise' ? text : pair.premise,
    hypothesis: side === 'hypothesis' ? text : pair.hypothesis,
    edits: [{ field: side, at, from: '', to: inserted }],
  };
}

/** Word overlap: "and true is true" appended to the hypothesis. */
export function nliWordOverlap(pair: NliPair, opts: NliRuleOptions = {}): StressPair[] {
  return [makePair(pair, 'word-overlap', appended(pair, 'hypothesis', NLI_TAUTOLOGY, 1, 'word-overlap'), opts)];
}

/** Negation: "and false is not true" appended to the hypothesis. */
export function nliNegation(pair: NliPair, opts: NliRuleOptions = {}): StressPair[] {
  return [makePair(pair, 'negation', appended(pair, 'hypothesis', NLI_NEGATION_CLAUSE, 1, 'negation'), opts)];
}

/** Length mismatch: "and true is true" appended five times to the premise. */
export function nliLengthMismatch(pair: NliPair, opts: NliRuleOptions = {}): StressPair[] {
  return [makePair(pair, 'length-mismatch', appended(pair, 'premise', NLI_TAUTOLOGY, NLI_LENGTH_MISMATCH_TIMES, 'length-mismatch'), opts)];
}

/**
 * The N-tautology sweep (the paper's Figure 2): N = 1..maxN tautologies appended to the premise, then the
 * same to the hypothesis; variants "tautology-premise-N" and "tautology-hypothesis-N".
 */
export function nliTautologySweep(pair: NliPair, opts: NliRuleOptions & { maxN?: number } = {}): StressPair[] {
  const maxN = opts.maxN ?? NLI_MAX_TAUTOLOGIES;
  const out: StressPair[] = [];
  for (const side of ['premise', 'hypothesis'] as const) {
    for (let n = 1; n <= maxN; n++)
      out.push(makePair(pair, 'tautology', appended(pair, side, NLI_TAUTOLOGY, n, `tautology-${side}-${n}`), opts));
  }
  return out;
}
