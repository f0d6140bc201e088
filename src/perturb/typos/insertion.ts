import type { Rng } from '../../util/rng.ts';
import { matchCase, type CaseShape } from '../case.ts';
import { isJoiner, type Chars } from '../chars.ts';
import { letterNeighbours } from '../keyboard.ts';
import { charSource, groupOf, type GroupPlan } from './char-source.ts';
import type { TypoOptions } from './options.ts';

/**
 * Adv-BERT "insertion": one extra letter, modelled on how people actually add letters. Between the
 * characters `prev` and `next` (either may be the word edge) we insert
 *   1. `prev` again — a doubled key ("until" → untill), then
 *   2. a letter key next to `prev` or to `next` — a finger brushing a neighbouring key while
 *      typing one of them ("the" → thre, tghe).
 * Only letters are inserted (no digits or punctuation). That gives roughly 9 × (length + 1)
 * candidates, of which maxCandidates (default 8) are drawn with the rng and returned in order of
 * position, then the order above.
 */
export function insertionTypos(word: string, rng: Rng, opts?: TypoOptions): string[] {
  return charSource(word, rng, opts, 'insertion', 1, prepare, build);
}

function prepare(cs: Chars, shape: CaseShape): GroupPlan {
  const n = cs.length;
  const lists: (readonly string[])[] = new Array(n + 1);
  const ends: number[] = new Array(n + 1);
  let total = 0;
  for (let p = 0; p <= n; p++) {
    let prev = p > 0 ? cs.cs[p - 1]! : '';
    let next = p < n ? cs.cs[p]! : '';
    if (shape === 'mixed') {
      prev = prev.toLowerCase();
      next = next.toLowerCase();
    }
    const list = insertable(prev, next);
    lists[p] = list;
    total += list.length;
    ends[p] = total;
  }
  return { cs, shape, lists, ends, total };
}

function build(plan: GroupPlan, op: number): string {
  const p = groupOf(plan.ends, op);
  const list = plan.lists[p]!;
  let c = list[op - (plan.ends[p]! - list.length)]!;
  if (plan.shape === 'mixed') c = matchCase(c, p > 0 ? plan.cs.cs[p - 1] : plan.cs.cs[0]);
  return plan.cs.splice(p, p, c);
}

/** Lists for ASCII (prev, next) pairs, indexed prev * 128 + next (0 = word edge). */
const asciiTable: (readonly string[] | undefined)[] = new Array(128 * 128);
const otherCache = new Map<string, readonly string[]>();

/** Letters that may be typed between `prev` and `next` (lower case; '' = word edge). */
function insertable(prev: string, next: string): readonly string[] {
  const a = prev === '' ? 0 : prev.charCodeAt(0);
  const b = next === '' ? 0 : next.charCodeAt(0);
  const ascii = a < 128 && b < 128 && prev.length <= 1 && next.length <= 1;
  const key = ascii ? a * 128 + b : -1;
  let hit = ascii ? asciiTable[key] : otherCache.get(prev + '\u0000' + next);
  if (hit) return hit;
  const out: string[] = [];
  if (prev !== '' && !isJoiner(prev)) out.push(prev);
  for (const c of letterNeighbours(prev)) if (!out.includes(c)) out.push(c);
  if (next !== '') for (const c of letterNeighbours(next)) if (!out.includes(c)) out.push(c);
  hit = out;
  if (ascii) asciiTable[key] = hit;
  else {
    if (otherCache.size > 50_000) otherCache.clear();
    otherCache.set(prev + '\u0000' + next, hit);
  }
  return hit;
}
