import type { Rng } from '../../util/rng.ts';
import { applyShape, capitalise, caseShape, isUpper } from '../case.ts';
import { charLength, collect } from '../chars.ts';
import { maxOf, minLengthOf, type TypoOptions } from './options.ts';

/**
 * A sound-alike rewrite: `from` (lower-case letters) becomes `to` wherever it occurs and the context
 * conditions hold. Conditions refer to the lower-cased word.
 */
export interface SoundRule {
  from: string;
  to: string;
  /** Only at the start / only at the end of the word. */
  at?: 'start' | 'end';
  /** The character right after the match must be one of these. */
  before?: string;
  /** The character right before the match must be one of these. */
  after?: string;
  /** At least this many characters before the match. */
  minStem?: number;
  /**
   * A single vowel in a likely unstressed syllable: not in the word's first vowel group, not
   * next to another vowel, not the last letter (English stress is mostly early; silent final e).
   */
  unstressed?: boolean;
  note: string;
}

const V = 'aeiou';
const DOUBLING = 'bcdfglmnprstz';

function both(a: string, b: string, note: string, extra: Partial<SoundRule> = {}): SoundRule[] {
  return [
    { from: a, to: b, ...extra, note },
    { from: b, to: a, ...extra, note },
  ];
}

/** The rules behind pronounceTypos, in the order their candidates are listed at one position. */
export const SOUND_RULES: readonly SoundRule[] = [
  // Vowel confusions
  ...both('ei', 'ie', 'i before e: receive → recieve, friend → freind'),
  ...both('ou', 'ow', 'same diphthong: about → abowt, how → hou'),
  ...both('ee', 'ea', 'long e: need → nead, really → reelly'),
  ...both('ai', 'ay', 'long a: rain → rayn, day → dai'),
  { from: 'a', to: 'e', unstressed: true, note: 'schwa: separate → seperate' },
  { from: 'e', to: 'a', unstressed: true, note: 'schwa: independent → indapendent, category → catagory' },
  { from: 'e', to: 'i', unstressed: true, note: 'reduced vowel: category → catigory' },
  { from: 'i', to: 'e', unstressed: true, note: 'reduced vowel: definitely → definetely, privilege → privelege' },
  // Doubled ↔ single consonants
  ...[...DOUBLING].map((c) => ({ from: c + c, to: c, note: 'double written single: occasion → ocasion' })),
  ...[...DOUBLING].map((c) => ({ from: c, to: c + c, after: V, before: V, note: 'single written double: begin → beggin' })),
  { from: 'l', to: 'll', at: 'end', after: V, minStem: 2, note: 'final l doubled: until → untill' },
  // Sound-alike letter groups
  ...both('ph', 'f', 'f sound: phone → fone, fantasy → phantasy'),
  { from: 'ck', to: 'k', note: 'k sound: back → bak' },
  { from: 'k', to: 'ck', after: V, note: 'k sound after a vowel: broken → brocken' },
  { from: 'c', to: 'k', before: 'aou', note: 'hard c: cat → kat, because → bekause' },
  { from: 'c', to: 'k', at: 'end', minStem: 2, note: 'final hard c: music → musik' },
  { from: 'k', to: 'c', before: 'aou', note: 'hard c: kangaroo → cangaroo' },
  { from: 'c', to: 's', before: 'eiy', note: 'soft c: decide → deside, city → sity' },
  { from: 's', to: 'c', before: 'ei', note: 'soft c: sense → cense, consider → concider' },
  { from: 'sc', to: 's', before: 'ei', note: 'silent c: science → sience' },
  { from: 's', to: 'z', after: V, before: V + 'y', note: 'voiced s: easy → eazy, busy → buzy' },
  ...both('tion', 'sion', 'shun: attention → attension, occasion → occation'),
  { from: 'ght', to: 't', note: 'silent gh: thought → thout' },
  { from: 'wh', to: 'w', note: 'silent h: which → wich' },
  { from: 'kn', to: 'n', at: 'start', note: 'silent k: know → now, knife → nife' },
  { from: 'x', to: 'ks', minStem: 1, note: 'x = ks: next → nekst' },
  { from: 'qu', to: 'kw', note: 'qu = kw: quick → kwick' },
  { from: 'dge', to: 'ge', note: 'j sound: knowledge → knowlege' },
  { from: 'tch', to: 'ch', note: 'ch sound: kitchen → kichen' },
  // Endings
  { from: 'y', to: 'i', at: 'end', minStem: 2, note: 'final y: happy → happi' },
  ...both('able', 'ible', 'suffix: responsible → responsable', { at: 'end', minStem: 2 }),
  ...both('ance', 'ence', 'suffix: existence → existance', { at: 'end', minStem: 2 }),
  ...both('ancy', 'ency', 'suffix: frequency → frequancy', { at: 'end', minStem: 2 }),
  ...both('ant', 'ent', 'suffix: independent → independant', { at: 'end', minStem: 3 }),
  { from: 'er', to: 'ar', at: 'end', minStem: 3, note: 'final schwa + r: calendar ↔ calender' },
  { from: 'ar', to: 'er', at: 'end', minStem: 3, note: 'final schwa + r: grammar → grammer' },
  { from: 'er', to: 'or', at: 'end', minStem: 3, note: 'final schwa + r: writer → writor' },
  { from: 'or', to: 'er', at: 'end', minStem: 3, note: 'final schwa + r: doctor → docter' },
  ...both('le', 'el', 'final syllabic l: little → littel, level → levle', { at: 'end', minStem: 2 }),
];

/** Rules bucketed by the char code of their first letter, so a position only tries its own. */
const BUCKETS: SoundRule[][] = Array.from({ length: 128 }, () => []);
for (const r of SOUND_RULES) BUCKETS[r.from.charCodeAt(0)]!.push(r);

function isVowelCode(c: number): boolean {
  return c === 97 || c === 101 || c === 105 || c === 111 || c === 117;
}

/**
 * Adv-BERT "pronounce": misspellings that sound like the word, from SOUND_RULES, each rule applied
 * at each place it matches (one change per candidate). Ordered by position, then rule order.
 * "phone" → fone, phonne; "receive" → recceive, reseive, recieve.
 */
export function pronounceTypos(word: string, rng: Rng, opts?: TypoOptions): string[] {
  if (charLength(word) < Math.max(2, minLengthOf(opts))) return [];
  const lw = word.toLowerCase();
  const n = lw.length;
  let firstVowel = -1;
  for (let i = 0; i < n; i++) {
    if (isVowelCode(lw.charCodeAt(i))) {
      firstVowel = i;
      break;
    }
  }
  const starts: number[] = [];
  const rules: SoundRule[] = [];
  for (let i = 0; i < n; i++) {
    const code = lw.charCodeAt(i);
    if (code >= 128) continue;
    for (const r of BUCKETS[code]!) {
      const end = i + r.from.length;
      if (end > n) continue;
      if (r.at === 'start' && i !== 0) continue;
      if (r.at === 'end' && end !== n) continue;
      if (r.minStem !== undefined && i < r.minStem) continue;
      if (r.from.length > 1 && !lw.startsWith(r.from, i)) continue;
      if (r.before !== undefined && (end >= n || !r.before.includes(lw[end]!))) continue;
      if (r.after !== undefined && (i === 0 || !r.after.includes(lw[i - 1]!))) continue;
      if (r.unstressed) {
        if (i === 0 || end >= n || firstVowel < 0 || firstVowel >= i - 1) continue;
        if (isVowelCode(lw.charCodeAt(i - 1)) || isVowelCode(lw.charCodeAt(end))) continue;
      }
      starts.push(i);
      rules.push(r);
    }
  }
  const shape = caseShape(word);
  // Mixed case: rewrite the original in place, giving the replacement the case of what it replaces.
  const inPlace = shape === 'mixed' && lw.length === word.length;
  const plan: SoundPlan = { src: inPlace ? word : lw, inPlace, starts, rules };
  const out = collect(starts.length, maxOf(opts, 'pronounce'), rng, plan.src, build, plan);
  if (shape === 'upper' || shape === 'title') {
    for (let i = 0; i < out.length; i++) out[i] = applyShape(out[i]!, shape);
  }
  return out;
}

interface SoundPlan {
  src: string;
  inPlace: boolean;
  starts: number[];
  rules: SoundRule[];
}

function build(plan: SoundPlan, k: number): string {
  const i = plan.starts[k]!;
  const r = plan.rules[k]!;
  const end = i + r.from.length;
  const to = plan.inPlace ? recase(r.to, plan.src.slice(i, end)) : r.to;
  return plan.src.slice(0, i) + to + plan.src.slice(end);
}

function recase(to: string, from: string): string {
  if (!isUpper(from[0]!)) return to;
  return from.length > 1 && from === from.toUpperCase() ? to.toUpperCase() : capitalise(to);
}
