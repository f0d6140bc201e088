import type { WordCandidate } from '../../text/edits.ts';
import type { WordSeq } from '../../text/word-seq.ts';
import type { Rng } from '../../util/rng.ts';
import { deletionTypos } from './deletion.ts';
import { insertionTypos } from './insertion.ts';
import { mistypeTypos } from './mistype.ts';
import type { TypoOptions, TypoSource, TypoSourceName } from './options.ts';
import { pronounceTypos } from './pronounce.ts';
import { replaceWordTypos } from './replace-word.ts';
import { swapTypos } from './swap.ts';

export { deletionTypos, insertionTypos, mistypeTypos, pronounceTypos, replaceWordTypos, swapTypos };
export { SOUND_RULES, type SoundRule } from './pronounce.ts';
export {
  DEFAULT_MAX_CANDIDATES,
  DEFAULT_MIN_LENGTH,
  TYPO_SOURCE_NAMES,
  type TypoOptions,
  type TypoSource,
  type TypoSourceName,
} from './options.ts';

/** Adv-BERT's six typo sources (Sun et al. 2020), by name. */
export const TYPO_SOURCES: Readonly<Record<TypoSourceName, TypoSource>> = {
  insertion: insertionTypos,
  deletion: deletionTypos,
  swap: swapTypos,
  mistype: mistypeTypos,
  pronounce: pronounceTypos,
  'replace-word': replaceWordTypos,
};

const TYPE_LABELS: Readonly<Record<TypoSourceName, string>> = {
  insertion: 'typo:insertion',
  deletion: 'typo:deletion',
  swap: 'typo:swap',
  mistype: 'typo:mistype',
  pronounce: 'typo:pronounce',
  'replace-word': 'typo:replace-word',
};

/** Whether a string names one of the typo sources. */
export function isTypoSourceName(name: string): name is TypoSourceName {
  return Object.prototype.hasOwnProperty.call(TYPO_SOURCES, name);
}

/**
 * Typo candidates for word `wordIndex` of `seq`, from each source in turn (the rng is consumed in
 * that order), typed "typo:<source>". A string two sources both propose is listed once, under the
 * first. Options apply to every source (maxCandidates is per source).
 */
export function typoCandidates(
  seq: WordSeq,
  wordIndex: number,
  sources: readonly TypoSourceName[],
  rng: Rng,
  opts?: TypoOptions,
): WordCandidate[] {
  if (!Number.isInteger(wordIndex) || wordIndex < 0 || wordIndex >= seq.length) {
    throw new RangeError(`typoCandidates: word index ${wordIndex} out of range 0…${seq.length - 1}`);
  }
  const word = seq.words[wordIndex]!;
  const out: WordCandidate[] = [];
  for (let k = 0; k < sources.length; k++) {
    const source = sources[k]!;
    const fn = TYPO_SOURCES[source];
    if (!fn) throw new RangeError(`typoCandidates: unknown typo source "${source}"`);
    const type = TYPE_LABELS[source];
    const firstOfSource = out.length;
    for (const after of fn(word, rng, opts)) {
      // A source never repeats itself, so only earlier sources' candidates need checking; a plain
      // scan (length first) beats a Set at these sizes (tens of short strings).
      let dup = false;
      for (let j = 0; j < firstOfSource; j++) {
        const prev = out[j]!.after;
        if (prev.length === after.length && prev === after) {
          dup = true;
          break;
        }
      }
      if (!dup) out.push({ wordIndex, after, type });
    }
  }
  return out;
}
