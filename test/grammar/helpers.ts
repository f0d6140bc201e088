import { applyCandidate, initialState } from '../../src/core/state.ts';
import { allGrammarCandidates, type GrammarErrorType } from '../../src/perturb/grammar/index.ts';
import { WordSeq } from '../../src/text/word-seq.ts';

/** Every text one error of `type` turns `text` into, in proposal order. */
export function variants(text: string, type: GrammarErrorType, opts: { multiWord?: boolean } = {}): string[] {
  const seq = WordSeq.parse(text);
  return allGrammarCandidates(seq, { types: [type], ...opts }).map((c) => applyCandidate(initialState(seq), c, 'text').seq.toString());
}
