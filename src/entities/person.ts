/**
 * Person mentions split into first and last names, and the keys that identify one distinct name in an example
 * (so that every mention of it is replaced the same way).
 */
import { WordSeq } from '../text/word-seq.ts';
import { genderOf, isFirstName, type NameDictionaries } from './dictionaries.ts';
import type { Gender, Mention, NamePart } from './types.ts';

/** A word of a mention, in the mention's units (characters of its field, or token indices). */
export interface MentionWord {
  text: string;
  start: number;
  end: number;
}

/** Lower case, single spaces: two spellings of one name that differ only so are one name. */
export function normaliseName(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim();
}

/** The words of a mention: its tokens (token examples), or WordSeq words with their character offsets. */
export function mentionWords(m: Pick<Mention, 'field' | 'start' | 'end' | 'text'>): MentionWord[] {
  if (m.field === 'tokens') {
    const tokens = m.text.split(' ');
    return tokens.length === m.end - m.start ? tokens.map((t, i) => ({ text: t, start: m.start + i, end: m.start + i + 1 })) : [];
  }
  const seq = WordSeq.parse(m.text);
  return seq.words.map((w, i) => ({ text: w, start: m.start + seq.offsetOf(i), end: m.start + seq.offsetOf(i) + w.length }));
}

/** Titles before a name ("Mr. Hamidi", "Rep. Darrell Issa"): kept, never read as a first name. */
const TITLES = new Set([
  'mr',
  'mrs',
  'ms',
  'miss',
  'dr',
  'sir',
  'dame',
  'lord',
  'lady',
  'prof',
  'rev',
  'rep',
  'sen',
  'gov',
  'gen',
  'col',
  'capt',
  'president',
  'minister',
]);
/** Suffixes after a name ("Martin Luther King Jr."): kept; the word before is the last name. */
const SUFFIXES = new Set(['jr', 'sr', 'ii', 'iii', 'iv']);

/**
 * First and last name of a person mention. One word: a first name when `isFirstOnly` says so, else a last name.
 * Two or more: the first word is the first name (unless it is an initial such as "J"), the final word the last
 * name; words between (middle names, initials), a title before ("Mr") and a suffix after ("Jr") are kept as they are.
 */
export function personParts(
  m: Pick<Mention, 'field' | 'start' | 'end' | 'text'>,
  isFirstOnly: (word: string) => boolean,
  gender: (first: string) => Gender,
): NamePart[] {
  const words = mentionWords(m).filter((w, i, all) => !(i === 0 && all.length > 1 && TITLES.has(w.text.toLowerCase())));
  while (words.length > 2 && SUFFIXES.has(words[words.length - 1]!.text.toLowerCase())) words.pop();
  const part = (w: MentionWord, role: 'first' | 'last'): NamePart =>
    role === 'first'
      ? { role, start: w.start, end: w.end, text: w.text, gender: gender(w.text) }
      : { role, start: w.start, end: w.end, text: w.text };
  if (words.length === 0) return [];
  if (words.length === 1) return [part(words[0]!, isFirstOnly(words[0]!.text) ? 'first' : 'last')];
  const first = words[0]!;
  const parts = first.text.length > 1 ? [part(first, 'first')] : [];
  return [...parts, part(words[words.length - 1]!, 'last')];
}

const lastSets = new WeakMap<readonly string[], Set<string>>();

function lastSet(dicts: NameDictionaries): Set<string> {
  let set = lastSets.get(dicts.last);
  if (!set) lastSets.set(dicts.last, (set = new Set(dicts.last.map((n) => n.toLowerCase()))));
  return set;
}

/** {@link personParts} with the name lists: a lone word is a first name when it is a first name and not a last name. */
export function splitPerson(m: Pick<Mention, 'field' | 'start' | 'end' | 'text'>, dicts: NameDictionaries): NamePart[] {
  return personParts(
    m,
    (w) => isFirstName(w, dicts) && !lastSet(dicts).has(w.toLowerCase()),
    (w) => genderOf(w, dicts),
  );
}

/** The same text in the capitalisation style of the original: ALL CAPS stays all caps, lower case stays lower. */
export function matchCase(original: string, replacement: string): string {
  const letters = original.replace(/[^\p{L}]/gu, '');
  if (letters.length >= 2 && letters === letters.toUpperCase() && letters !== letters.toLowerCase()) return replacement.toUpperCase();
  if (letters.length >= 1 && letters === letters.toLowerCase() && letters !== letters.toUpperCase()) return replacement.toLowerCase();
  return replacement;
}

/**
 * A lone word of a person mention read as the name it is elsewhere in the same example: "Newton" after "Cam Newton"
 * is a last name even though "Newton" is also a first name ("Smith said" after "John Smith"). Mentions with two or
 * more parts decide; a word that is a last name in one and a first name in another keeps its own reading.
 */
export function resolveLoneNames(mentions: readonly Mention[]): Mention[] {
  const full = new Map<string, NamePart[]>();
  for (const m of mentions) {
    if (m.type !== 'PER' || !m.parts || m.parts.length < 2) continue;
    for (const p of m.parts) {
      const k = normaliseName(p.text);
      const seen = full.get(k);
      if (seen) seen.push(p);
      else full.set(k, [p]);
    }
  }
  return mentions.map((m) => {
    const lone = m.type === 'PER' && m.parts?.length === 1 ? m.parts[0]! : undefined;
    const seen = lone ? full.get(normaliseName(lone.text)) : undefined;
    if (!lone || !seen || seen.some((p) => p.role !== seen[0]!.role) || seen[0]!.role === lone.role) return m;
    const { start, end, text } = lone;
    const other = seen[0]!;
    const part: NamePart =
      other.role === 'last' ? { role: 'last', start, end, text } : { role: 'first', start, end, text, gender: other.gender ?? 'unknown' };
    return { ...m, parts: [part] };
  });
}
