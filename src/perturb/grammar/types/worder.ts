import type { WordInfo } from '../analysis.ts';
import { MODAL_SET } from '../confusion-sets.ts';
import { at, type ErrorRule, type GrammarCandidate, type RuleInput } from '../rule.ts';

/**
 * Worder: an adverb swaps places with a neighbouring adjective, participle or modal ("a very good film" →
 * "a good very film", "will probably" → "probably will"). Proposed from the adverb's position only, so a
 * swap is proposed once. The candidate is a 'swap' of words wordIndex and wordIndex+1; each word keeps its
 * own spelling.
 */
export const worder: ErrorRule = {
  type: 'Worder',
  candidates(input: RuleInput, i: number): GrammarCandidate[] {
    const w = at(input, i);
    if (!w || w.pos !== 'ADV') return [];
    const out: GrammarCandidate[] = [];
    for (const j of [i - 1, i + 1]) {
      const n = at(input, j);
      if (n && swappable(n)) out.push({ wordIndex: Math.min(i, j), after: '', type: 'grammar:Worder', op: 'swap', weight: 1 });
    }
    return out;
  },
};

function swappable(n: WordInfo): boolean {
  if (n.pos === 'ADJ') return true;
  if (n.pos === 'VERB' && (n.verbForm === 'VBN' || n.verbForm === 'VBG')) return true;
  return n.pos === 'AUX' && MODAL_SET.has(n.lower);
}
