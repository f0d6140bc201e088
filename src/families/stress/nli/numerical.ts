/**
 * Numerical reasoning (competence), from premises that state a quantity: the hypothesis is the premise with
 * the quantity restated, and the rule that restated it sets the gold label. Naik et al. (2018) built this
 * test from AQuA-RAT word problems, which cannot be had here; these rules make the same kind of pairs from
 * any premise. A count is read as exact, as NLI annotators read "two dogs" (SNLI/MNLI: "three dogs"
 * contradicts "two dogs").
 *
 * A quantity is a whole number, in digits ("3", not "3.5", "1,000", "$3" or a year 1000–2099) or a word two..twenty, in its
 * own word, followed by a noun (or an adjective and a noun) and not after a determiner, pronoun or number
 * ("the two dogs" would read "the at least two dogs"). Only N ≥ 2: restating "one dog" as "more than one"
 * or "two" would need the noun and verb changed to the plural. With N the count, the rules are:
 *  - `at-least`: "at least N" — entailment;
 *  - `more-than-less`: "more than N−1" (N ≥ 3, so the bound stays plural) — entailment;
 *  - `more-than`: "more than N" — contradiction;
 *  - `fewer-than`: "fewer than N" — contradiction;
 *  - `changed`: another count M, drawn with the seed from N−2..N+2 (M ≥ 2, and ≤ 20 for number words) —
 *    contradiction;
 *  - `at-least-reversed`, `more-than-less-reversed`: the entailed pair turned round, as Naik et al. make their
 *    neutral pairs (their released set: premise "Tim has less than 750 pounds of cement …", hypothesis "Tim has
 *    350 pounds of cement …", neutral): the restated sentence is the premise and the original premise the
 *    hypothesis ("At least two dogs are running" → "Two dogs are running") — neutral (not_entailment in the
 *    2-way scheme): a bound does not settle the exact count.
 * The bound keeps the number's form (digits stay digits, words stay words) and a capital at the start of
 * the sentence moves to the bound ("Two dogs" → "At least two dogs"). One quantity per premise, chosen with
 * the seed; every rule that applies to it gives a pair. No quantity, no pair.
 */
import { applyShape, caseShape } from '../../../perturb/case.ts';
import { WordSeq } from '../../../text/word-seq.ts';
import { defaultNliLexicon, type NliLexicon } from './lexicon.ts';
import type { NliRuleLabel } from './labels.ts';
import { makePair, pairRng } from './make.ts';
import type { NliPair, NliRuleOptions, StressPair } from './types.ts';

/** The number words read as findQuantities, index = value. */
export const NLI_NUMBER_WORDS = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
  'twenty',
] as const;

/** The rules, in output order. */
export const NUMERICAL_RULES = [
  'at-least',
  'more-than-less',
  'more-than',
  'fewer-than',
  'changed',
  'at-least-reversed',
  'more-than-less-reversed',
] as const;
/** One of {@link NUMERICAL_RULES}. */
export type NumericalRule = (typeof NUMERICAL_RULES)[number];

/** A quantity found in a text. */
export interface Quantity {
  /** Word index in WordSeq.parse(text). */
  index: number;
  word: string;
  value: number;
  form: 'digits' | 'word';
}

const BEFORE_BLOCKS = new Set(['DET', 'PRON', 'NUM']);

/** The value of a number word or digit string, or undefined. */
function valueOf(word: string): { value: number; form: 'digits' | 'word' } | undefined {
  // Four digits from 1000 to 2099 are read as a year ("in 2010 people voted"), not a count.
  if (/^[1-9]\d{0,5}$/.test(word) && !/^(1\d|20)\d\d$/.test(word)) return { value: Number(word), form: 'digits' };
  const k = (NLI_NUMBER_WORDS as readonly string[]).indexOf(word.toLowerCase());
  return k >= 0 ? { value: k, form: 'word' } : undefined;
}

/** Every quantity of `text` the rules can restate, in word order. */
export function findQuantities(text: string, lexicon: NliLexicon = defaultNliLexicon()): Quantity[] {
  const seq = WordSeq.parse(text);
  const found: Quantity[] = [];
  const space = (g: string | undefined): boolean => g !== undefined && /^\s+$/.test(g);
  for (let i = 0; i < seq.length; i++) {
    const v = valueOf(seq.words[i]!);
    // own word: whitespace (or the start) before it, whitespace after it
    if (v === undefined || v.value < 2 || !space(seq.gaps[i + 1]) || !(i === 0 ? seq.gaps[0] === '' : /\s$/.test(seq.gaps[i]!))) continue;
    found.push({ index: i, word: seq.words[i]!, ...v });
  }
  if (found.length === 0) return [];
  const { words } = lexicon.analyzer.analyse(seq);
  const pos = (i: number): string | undefined => words[i]?.pos;
  return found.filter(({ index: i }) => {
    if (i > 0 && seq.gaps[i]!.trim() === '' && BEFORE_BLOCKS.has(pos(i - 1)!)) return false;
    if (pos(i + 1) === 'NOUN') return true;
    return pos(i + 1) === 'ADJ' && space(seq.gaps[i + 2]) && pos(i + 2) === 'NOUN';
  });
}

function spell(value: number, form: 'digits' | 'word'): string {
  return form === 'word' ? NLI_NUMBER_WORDS[value]! : String(value);
}

/** The restatements of quantity `q` that apply, each with its phrase and label. */
function restatements(q: Quantity, changedTo: number | undefined): { rule: NumericalRule; phrase: string; label: NliRuleLabel }[] {
  const n = (v: number): string => spell(v, q.form);
  const out: { rule: NumericalRule; phrase: string; label: NliRuleLabel }[] = [
    { rule: 'at-least', phrase: `at least ${n(q.value)}`, label: 'entailment' },
  ];
  if (q.value >= 3) out.push({ rule: 'more-than-less', phrase: `more than ${n(q.value - 1)}`, label: 'entailment' });
  out.push({ rule: 'more-than', phrase: `more than ${n(q.value)}`, label: 'contradiction' });
  out.push({ rule: 'fewer-than', phrase: `fewer than ${n(q.value)}`, label: 'contradiction' });
  if (changedTo !== undefined) out.push({ rule: 'changed', phrase: n(changedTo), label: 'contradiction' });
  return out;
}

/** The counts the `changed` rule may use for `q`. */
export function changedCounts(q: Quantity): number[] {
  const out: number[] = [];
  for (let m = q.value - 2; m <= q.value + 2; m++) {
    if (m !== q.value && m >= 2 && (q.form === 'digits' || m <= 20)) out.push(m);
  }
  return out;
}

/** Numerical-reasoning pairs of one premise (see the module comment for the rules). */
export function nliNumerical(pair: NliPair, opts: NliRuleOptions & { lexicon?: NliLexicon } = {}): StressPair[] {
  const found = findQuantities(pair.premise, opts.lexicon);
  if (found.length === 0) return [];
  const rng = pairRng(pair, 'numerical', opts);
  const q = rng.pick(found);
  const counts = changedCounts(q);
  const seq = WordSeq.parse(pair.premise);
  const at = seq.offsetOf(q.index);
  const shape = caseShape(q.word);
  const made = restatements(q, counts.length > 0 ? rng.pick(counts) : undefined).map(({ rule, phrase, label }) => {
    const to = applyShape(phrase, shape);
    return { rule, label, text: seq.replace(q.index, to).toString(), edit: { at, from: q.word, to } };
  });
  // Neutral: each entailed restatement as the premise, the original premise as the hypothesis.
  const reversed = made
    .filter((m) => m.label === 'entailment')
    .map((m) => ({ ...m, rule: `${m.rule}-reversed` as NumericalRule, label: 'neutral' as const }));
  return [...made, ...reversed].map(({ rule, label, text, edit }) => {
    const turned = rule.endsWith('-reversed');
    return makePair(
      pair,
      'numerical',
      {
        variant: `numerical-${rule}`,
        premise: turned ? text : pair.premise,
        hypothesis: turned ? pair.premise : text,
        label,
        hypothesisFrom: 'premise',
        edits: [{ field: turned ? 'premise' : 'hypothesis', ...edit }],
      },
      opts,
    );
  });
}
