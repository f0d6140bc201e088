/**
 * TextAttack's PartOfSpeech constraint (textattack/constraints/grammaticality/part_of_speech.py, after TextFooler's
 * code), as BAE and TextFooler use it: a replacement must have the part of speech of the word it replaces, or be a
 * noun for a verb or a verb for a noun (`allowVerbNounSwap`). Both words are tagged in the same context of the
 * original text: the four words before and the three after (compare_against_original=True), universal tagset.
 */
import { UniversalTagger, type UniversalTag } from '../text/pos.ts';
import type { Constraint } from './constraints.ts';
import { originOf } from './state.ts';

/** May a word tagged `a` be replaced by one tagged `b`? */
export function canReplacePos(a: UniversalTag, b: UniversalTag, allowVerbNounSwap: boolean): boolean {
  if (a === b) return true;
  const nounVerb = (t: UniversalTag): boolean => t === 'NOUN' || t === 'VERB';
  return allowVerbNounSwap && nounVerb(a) && nounVerb(b);
}

/** The constraint; `tagger` is shared so its cache of tagged contexts is too. */
export function partOfSpeech(opts: { allowVerbNounSwap: boolean; tagger?: UniversalTagger }): Constraint {
  const tagger = opts.tagger ?? new UniversalTagger();
  return {
    name: `part-of-speech${opts.allowVerbNounSwap ? '(noun↔verb allowed)' : ''}`,
    accepts(next, subject, from) {
      const ref = subject.original.words;
      // The words this step changed (a swap changes two).
      for (const edit of next.edits.slice(from.edits.length)) {
        const i = edit.wordIndex;
        const o = originOf(next, i);
        // A word an edit inserted has no original to compare with.
        if (o < 0 || o >= ref.length || edit.after === '') continue;
        const before = ref.slice(Math.max(o - 4, 0), o);
        const after = ref.slice(o + 1, Math.min(o + 4, ref.length));
        const was = tagger.tag([...before, ref[o]!, ...after], before.length);
        const now = tagger.tag([...before, next.seq.words[i]!, ...after], before.length);
        if (!canReplacePos(was, now, opts.allowVerbNounSwap)) return false;
      }
      return true;
    },
  };
}
