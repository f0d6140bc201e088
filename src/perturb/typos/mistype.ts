import type { Rng } from '../../util/rng.ts';
import { isUpper, matchCase, type CaseShape } from '../case.ts';
import type { Chars } from '../chars.ts';
import { neighboursOf } from '../keyboard.ts';
import { charSource, groupOf, type GroupPlan } from './char-source.ts';
import type { TypoOptions } from './options.ts';

/**
 * Adv-BERT "mistype": replace one character by a key next to it on a QWERTY keyboard (keyboard.ts),
 * digit row included: "oh" → ih, ph, 9h, 0h, kh, lh, og, oj, oy, ou, ob, on. A replacing letter
 * keeps the case of the replaced one ("Oh" → "Ih", "OH" → "0H"); digits stay digits. Punctuation
 * neighbours only with opts.symbols (Shift-level ones, "O" → ")", for upper-case letters).
 * Candidates are ordered by position, then left, right, row above, row below.
 */
export function mistypeTypos(word: string, rng: Rng, opts?: TypoOptions): string[] {
  // distinct: one position, one different key: no two ops give the same string
  return charSource(word, rng, opts, 'mistype', 1, prepare, build, true);
}

function prepare(cs: Chars, shape: CaseShape, opts: TypoOptions | undefined): GroupPlan {
  const digits = opts?.digits ?? true;
  const symbols = opts?.symbols ?? false;
  const n = cs.length;
  const lists: (readonly string[])[] = new Array(n);
  const ends: number[] = new Array(n);
  let total = 0;
  for (let i = 0; i < n; i++) {
    const c = cs.cs[i]!;
    const upper = shape === 'upper' || (shape === 'title' && i === 0) || (shape === 'mixed' && isUpper(c));
    const list = neighboursOf(shape === 'mixed' ? c.toLowerCase() : c, digits, symbols, upper);
    lists[i] = list;
    total += list.length;
    ends[i] = total;
  }
  return { cs, shape, lists, ends, total };
}

function build(plan: GroupPlan, op: number): string {
  const i = groupOf(plan.ends, op);
  const list = plan.lists[i]!;
  let r = list[op - (plan.ends[i]! - list.length)]!;
  if (plan.shape === 'mixed') r = matchCase(r, plan.cs.cs[i]);
  return plan.cs.splice(i, i + 1, r);
}
