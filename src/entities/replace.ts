/**
 * Consistent entity replacement (the entity paper's swaps): a plan maps each distinct name of an example — a
 * first name, a last name, a company, a country — to one new name, and applying it rewrites every mention of that
 * name the same way in every field (both texts of a pair, question and context, all tokens of a sentence).
 * Gold annotations follow through rewriteExample: NER tags stretch over multi-word names, QA answers move.
 *
 * Keys are `role:normalised text`: `first:john`, `last:smith`, `org:acme corp`, `country:france`, `city:paris`,
 * `misc:german`; a whole-mention key (`per:john smith`, `loc:…`) replaces a mention as one string (forcedPlan).
 */
import { rewriteExample, type Rewrite, type Rewritten } from '../data/rewrite.ts';
import type { Example } from '../data/types.ts';
import type { Rng } from '../util/rng.ts';
import { allFirstNames, genderOf, type NameDictionaries } from './dictionaries.ts';
import { matchCase, normaliseName, personParts, resolveLoneNames, splitPerson } from './person.ts';
import type { EntityType, Gender, Mention } from './types.ts';

/** Distinct-name key → the new name (dictionary spelling; each mention gets its own capitalisation style). */
export class ReplacementPlan extends Map<string, string> {
  readonly type: EntityType;
  /** Keys left unchanged because their list held no other name. */
  readonly kept: string[] = [];

  constructor(type: EntityType, entries?: Iterable<readonly [string, string]>) {
    super(entries);
    this.type = type;
  }
}

/** Fields in example order, so that plans draw names in a stable order. */
const FIELD_ORDER = ['tokens', 'text', 'textA', 'textB', 'question', 'context'];

/** Mentions of one type in a stable order (field, then position), lone person names read as in full names. */
function ordered(mentions: readonly Mention[], type: EntityType): Mention[] {
  return resolveLoneNames(mentions.filter((m) => m.type === type)).sort(
    (a, b) => FIELD_ORDER.indexOf(a.field) - FIELD_ORDER.indexOf(b.field) || a.start - b.start || a.end - b.end,
  );
}

/** A name to replace: its key, its text, and the list its replacement comes from. */
interface Unit {
  key: string;
  text: string;
  pool: () => readonly string[];
}

const countrySets = new WeakMap<NameDictionaries, Set<string>>();

/** A location's subtype: its own, else country when the name is in the country list (or an alias), else city. */
function locSubtype(m: Mention, dicts: NameDictionaries): 'country' | 'city' {
  if (m.subtype) return m.subtype;
  let set = countrySets.get(dicts);
  if (!set) countrySets.set(dicts, (set = new Set([...dicts.country, ...dicts.countryAliases].map((n) => n.toLowerCase()))));
  return set.has(normaliseName(m.text)) ? 'country' : 'city';
}

const unions = new WeakMap<NameDictionaries, string[]>();

function firstPool(gender: Gender, dicts: NameDictionaries): readonly string[] {
  if (gender === 'female') return dicts.first.female;
  if (gender === 'male') return dicts.first.male;
  let all = unions.get(dicts);
  if (!all) unions.set(dicts, (all = allFirstNames(dicts)));
  return all;
}

function unitsOf(m: Mention, dicts: NameDictionaries): Unit[] {
  const norm = normaliseName(m.text);
  switch (m.type) {
    case 'PER':
      return (m.parts ?? splitPerson(m, dicts)).map((p) => ({
        key: `${p.role}:${normaliseName(p.text)}`,
        text: p.text,
        pool: () => (p.role === 'last' ? dicts.last : firstPool(p.gender ?? genderOf(p.text, dicts), dicts)),
      }));
    case 'ORG':
      return [{ key: `org:${norm}`, text: m.text, pool: () => dicts.org }];
    case 'MISC':
      return [{ key: `misc:${norm}`, text: m.text, pool: () => dicts.misc }];
    case 'LOC': {
      const sub = locSubtype(m, dicts);
      return [{ key: `${sub}:${norm}`, text: m.text, pool: () => dicts[sub] }];
    }
  }
}

/**
 * A name from `pool` that is not in `avoid` (lower case): random draws first, then the next allowed name after a
 * random position, so the draw always ends; undefined when the pool holds nothing allowed.
 */
function draw(pool: readonly string[], avoid: ReadonlySet<string>, rng: Rng): string | undefined {
  if (pool.length === 0) return undefined;
  for (let i = 0; i < 8; i++) {
    const name = rng.pick(pool);
    if (!avoid.has(name.toLowerCase())) return name;
  }
  const from = rng.int(pool.length);
  for (let i = 0; i < pool.length; i++) {
    const name = pool[(from + i) % pool.length]!;
    if (!avoid.has(name.toLowerCase())) return name;
  }
  return undefined;
}

/**
 * A random plan for the mentions of one type in one example (all its fields' mentions together): each distinct
 * first name gets a first name of the same gender (unknown gender: any first name), each last name a last name,
 * ORG a company, LOC a country or a city (by subtype), MISC a nationality. A name is never replaced by itself, and
 * two distinct names do not get the same new name (nor one already in the example) while the list has others;
 * a name whose list holds nothing else is kept and listed in `plan.kept`. Same mentions + same rng state → same plan.
 */
export function planReplacement(mentions: readonly Mention[], type: EntityType, dicts: NameDictionaries, rng: Rng): ReplacementPlan {
  const plan = new ReplacementPlan(type);
  const units = ordered(mentions, type).flatMap((m) => unitsOf(m, dicts));
  // The originals and the names used so far, grown as names are drawn (was copied per unit: quadratic in long texts).
  const avoid = new Set(units.map((u) => u.text.toLowerCase()));
  const kept = new Set<string>();
  for (const u of units) {
    if (plan.has(u.key) || kept.has(u.key)) continue;
    const pool = u.pool();
    const self = new Set([u.text.toLowerCase()]);
    const name = draw(pool, avoid, rng) ?? draw(pool, self, rng);
    if (name === undefined) {
      kept.add(u.key);
      plan.kept.push(u.key);
      continue;
    }
    plan.set(u.key, name);
    avoid.add(name.toLowerCase());
  }
  return plan;
}

/** The whole-mention key forcedPlan uses. */
function wholeKey(m: Mention): string {
  const norm = normaliseName(m.text);
  return m.type === 'LOC' ? `${m.subtype ?? 'loc'}:${norm}` : `${m.type === 'PER' ? 'per' : m.type.toLowerCase()}:${norm}`;
}

/**
 * Every mention of `type` replaced by `name` as a whole (a person "John Smith" becomes `name`, not its first and
 * last names separately): Algorithm 2's candidate names and RESEMBLE's canonical entities.
 */
export function forcedPlan(mentions: readonly Mention[], type: EntityType, name: string): ReplacementPlan {
  return new ReplacementPlan(
    type,
    ordered(mentions, type).map((m) => [wholeKey(m), name] as const),
  );
}

/** The new names of a plan, each once, in plan order (for analyses: frequency, subword counts). */
export function replacedNames(plan: ReadonlyMap<string, string>): string[] {
  return [...new Set(plan.values())];
}

/** Spans of one mention to rewrite under a plan, with their keys. */
function spansOf(m: Mention, plan: ReplacementPlan): { start: number; end: number; text: string; key: string }[] {
  const norm = normaliseName(m.text);
  const whole =
    m.type === 'LOC' && !m.subtype
      ? [`country:${norm}`, `city:${norm}`, `loc:${norm}`]
      : [wholeKey(m), ...(m.type === 'LOC' ? [`loc:${norm}`] : [])];
  const hit = whole.find((k) => plan.has(k));
  if (hit) return [{ start: m.start, end: m.end, text: m.text, key: hit }];
  if (m.type !== 'PER') return [];
  // Without parts from the annotator, a lone word is a first name when the plan has it as one.
  const parts =
    m.parts ??
    personParts(
      m,
      (w) => plan.has(`first:${normaliseName(w)}`),
      () => 'unknown',
    );
  return parts
    .map((p) => ({ start: p.start, end: p.end, text: p.text, key: `${p.role}:${normaliseName(p.text)}` }))
    .filter((s) => plan.has(s.key));
}

/**
 * Rewrites an example by a plan: every mention of the plan's type whose name the plan maps is replaced, keeping
 * the original's capitalisation style (a CoNLL headline in capitals gets the new name in capitals). Edits are typed
 * `entity:<TYPE>` with the distinct-name key as group; NER tags and QA answers follow (rewriteExample).
 */
export function applyPlan(example: Example, mentions: readonly Mention[], plan: ReplacementPlan): Rewritten {
  const spans = ordered(mentions, plan.type).flatMap((m) => spansOf(m, plan).map((s) => ({ ...s, field: m.field })));
  const rewrites: Rewrite[] = [];
  // Per field, the spans taken so far, disjoint and by start: an overlap is with a neighbour of the insertion point
  // (was a scan of every span taken: quadratic in long texts).
  const taken = new Map<string, { start: number; end: number }[]>();
  for (const s of spans) {
    const list = taken.get(s.field) ?? [];
    taken.set(s.field, list);
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid]!.start < s.start) lo = mid + 1;
      else hi = mid;
    }
    // Two annotations of one span (or overlapping ones) rewrite it once.
    const before = list[lo - 1];
    const after = list[lo];
    if ((before && before.end > s.start) || (after && after.start < s.end)) continue;
    list.splice(lo, 0, s);
    const text = matchCase(s.text, plan.get(s.key)!);
    const common = { start: s.start, end: s.end, type: `entity:${plan.type}`, group: s.key };
    rewrites.push(s.field === 'tokens' ? { ...common, field: 'tokens', tokens: text.split(/\s+/) } : { ...common, field: s.field, text });
  }
  return rewriteExample(example, rewrites);
}
