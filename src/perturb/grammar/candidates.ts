import type { WordSeq } from '../../text/word-seq.ts';
import { GRAMMAR_ERROR_TYPES, type GrammarErrorType } from './confusion-sets.ts';
import { defaultLexicon, type GrammarLexicon } from './lexicon.ts';
import type { ErrorRule, GrammarCandidate, RuleInput } from './rule.ts';
import { artOrDet } from './types/art-or-det.ts';
import { nn } from './types/nn.ts';
import { prep } from './types/prep.ts';
import { sva } from './types/sva.ts';
import { trans } from './types/trans.ts';
import { vform } from './types/vform.ts';
import { wchoice } from './types/wchoice.ts';
import { worder } from './types/worder.ts';

export const RULES: Readonly<Record<GrammarErrorType, ErrorRule>> = {
  ArtOrDet: artOrDet,
  Prep: prep,
  Trans: trans,
  Nn: nn,
  SVA: sva,
  Vform: vform,
  Wchoice: wchoice,
  Worder: worder,
};

export interface GrammarOptions {
  /** Error types to propose (default: all eight). */
  types?: readonly GrammarErrorType[];
  /** May a replacement be two words ("has grown")? Default true; false for token-level tasks. */
  multiWord?: boolean;
  lexicon?: GrammarLexicon;
}

/** The rule input for a text: its (cached) analysis plus the lexicon. */
export function ruleInput(seq: WordSeq, opts: GrammarOptions = {}): RuleInput {
  const lex = opts.lexicon ?? defaultLexicon();
  return {
    seq,
    analysis: lex.analyzer.analyse(seq),
    inflector: lex.inflector,
    synonyms: lex.synonyms,
    frequencies: lex.frequencies,
    multiWord: opts.multiWord ?? true,
  };
}

/** Every grammar error of the chosen types at the given word positions, in type order then position. */
export function grammarCandidates(seq: WordSeq, indices: readonly number[], opts: GrammarOptions = {}): GrammarCandidate[] {
  const input = ruleInput(seq, opts);
  const out: GrammarCandidate[] = [];
  for (const i of indices) for (const t of opts.types ?? GRAMMAR_ERROR_TYPES) out.push(...RULES[t].candidates(input, i));
  return out;
}

/** Every grammar error of the chosen types anywhere in the text. */
export function allGrammarCandidates(seq: WordSeq, opts: GrammarOptions = {}): GrammarCandidate[] {
  return grammarCandidates(
    seq,
    Array.from({ length: seq.length }, (_, i) => i),
    opts,
  );
}
