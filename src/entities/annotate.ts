/**
 * Mention annotators: gold IOB tags (CoNLL), gazetteers (the name lists), or a token-classification model. Each
 * keeps its confidence per mention (RESEMBLE weighs by it) and splits person mentions into first and last names.
 */
import { entitySpans } from '../data/entities.ts';
import type { TextField } from '../data/rewrite.ts';
import type { Example } from '../data/types.ts';
import type { ModelInput, ModelOutput } from '../models/types.ts';
import { WordSeq } from '../text/word-seq.ts';
import { TextstressError } from '../util/errors.ts';
import { isNonNameWord, loadDictionaries, ordinaryWords, type NameDictionaries } from './dictionaries.ts';
import { normaliseName, resolveLoneNames, splitPerson } from './person.ts';
import { ENTITY_TYPES, type EntityType, type Mention, type MentionAnnotator } from './types.ts';
import { cooperative } from '../util/yield.ts';

/** A field of an example as words with their positions (characters of the field, or token indices). */
interface FieldWords {
  field: TextField | 'tokens';
  words: readonly string[];
  starts: number[];
  ends: number[];
  /** The field's text, for mention texts (tokens joined by spaces for token examples). */
  source: string;
}

const TEXT_FIELDS: Record<Example['kind'], readonly (TextField | 'tokens')[]> = {
  text: ['text'],
  pair: ['textA', 'textB'],
  tokens: ['tokens'],
  qa: ['question', 'context'],
};

/** The words of every field of an example, in field order. */
function fieldsOf(ex: Example): FieldWords[] {
  if (ex.kind === 'tokens') {
    return [
      {
        field: 'tokens',
        words: ex.tokens,
        starts: ex.tokens.map((_, i) => i),
        ends: ex.tokens.map((_, i) => i + 1),
        source: ex.tokens.join(' '),
      },
    ];
  }
  return TEXT_FIELDS[ex.kind].map((field) => {
    const text = (ex as unknown as Record<string, string>)[field]!;
    const seq = WordSeq.parse(text);
    // Running offsets (offsetOf(i) sums the i words before: quadratic over a long text).
    const starts: number[] = [];
    let pos = seq.gaps[0]!.length;
    seq.words.forEach((w, i) => {
      starts.push(pos);
      pos += w.length + seq.gaps[i + 1]!.length;
    });
    return { field: field as TextField, words: seq.words, starts, ends: starts.map((s, i) => s + seq.words[i]!.length), source: text };
  });
}

/** A mention of words [i, j) of a field. */
function mentionOf(f: FieldWords, i: number, j: number, type: EntityType, confidence: number, extra: Partial<Mention> = {}): Mention {
  const start = f.starts[i]!;
  const end = f.ends[j - 1]!;
  const text = f.field === 'tokens' ? f.words.slice(i, j).join(' ') : f.source.slice(start, end);
  return { type, field: f.field, start, end, text, confidence, ...extra };
}

/** PER mentions get their first/last parts, and lone names are read as in the example's full names. */
function finish(mentions: Mention[], dicts: NameDictionaries): Mention[] {
  return resolveLoneNames(mentions.map((m) => (m.type === 'PER' && !m.parts ? { ...m, parts: splitPerson(m, dicts) } : m)));
}

/**
 * Gold mentions of token (NER) examples, from their IOB2 tags, confidence 1; LOC subtypes are left to the
 * replacement plan (country when the name is in the country list, else city). Other kinds of examples carry no
 * gold entities: they get no mentions.
 */
export function goldAnnotator(dicts?: NameDictionaries): MentionAnnotator {
  return {
    name: 'gold',
    async annotate(examples) {
      const d = dicts ?? (await loadDictionaries());
      return examples.map((ex) => {
        if (ex.kind !== 'tokens') return [];
        const [f] = fieldsOf(ex);
        const spans = entitySpans(ex.tags).filter((s) => (ENTITY_TYPES as readonly string[]).includes(s.type));
        return finish(
          spans.map((s) => mentionOf(f!, s.start, s.end, s.type as EntityType, 1)),
          d,
        );
      });
    },
  };
}

/** Lists a string is in, by lower-cased name. */
type Category = 'first' | 'last' | 'country' | 'city' | 'org' | 'misc';

function indexOf(d: NameDictionaries): Map<string, Set<Category>> {
  const index = new Map<string, Set<Category>>();
  const add = (names: readonly string[], c: Category): void => {
    for (const n of names) {
      const k = n.toLowerCase();
      if (!index.has(k)) index.set(k, new Set());
      index.get(k)!.add(c);
    }
  };
  add([...d.first.female, ...d.first.male, ...d.first.unknown], 'first');
  add(d.last, 'last');
  add(d.country, 'country');
  add(d.city, 'city');
  add(d.org, 'org');
  add(d.misc, 'misc');
  return index;
}

/** Confidence of a gazetteer match: 0.9 when the string is in one list, 0.9 / k when in k lists. */
const gazetteerConfidence = (lists: number): number => 0.9 / Math.max(1, lists);
const LONGEST = 5;

/**
 * Mentions found in the name lists. Cased text: runs of capitalised words (a sentence's first word only when it is
 * not an ordinary English word); all-lower-case text (SST-2): runs of words that are not ordinary English words.
 * Within a run, the longest span in the country (all-caps aliases such as "UK" in their own case; dotted ones such as
 * "U.S." are not matched, as words do not hold dots), city, company or
 * nationality list is a LOC / ORG / MISC mention; a first name, maybe a middle name or initial, and one more name
 * word make a PER mention; a lone word that is the last name of a person found in the same example is that person again.
 * Confidence 0.9, divided by the number of lists the string is in ("Jordan": a country and a first name).
 */
export function gazetteerAnnotator(dicts: NameDictionaries): MentionAnnotator {
  const index = indexOf(dicts);
  const aliases = new Set(dicts.countryAliases);
  const common = ordinaryWords();
  const lists = (s: string): Set<Category> => index.get(s.toLowerCase()) ?? new Set();
  return {
    name: 'gazetteer',
    async annotate(examples) {
      // A 600,000-character text is seconds of work: the loops give the event loop a turn (SIGTERM, timers).
      const tick = cooperative();
      const out: Mention[][] = [];
      for (const ex of examples) {
        const mentions: Mention[] = [];
        for (const f of fieldsOf(ex)) mentions.push(...(await scanField(f, { lists, aliases, common }, tick)));
        out.push(finish(await lonePersons(ex, mentions, tick), dicts));
      }
      return out;
    },
  };
}

interface Lookup {
  lists: (s: string) => Set<Category>;
  aliases: ReadonlySet<string>;
  common: ReadonlySet<string>;
}

const TYPE_OF: Partial<Record<Category, EntityType>> = { country: 'LOC', city: 'LOC', org: 'ORG', misc: 'MISC' };

async function scanField(f: FieldWords, look: Lookup, tick: () => Promise<void>): Promise<Mention[]> {
  // Case tells names apart only when the text has both: an all-caps headline is read as all-lower-case text is.
  const cased = /\p{Lu}/u.test(f.source) && /\p{Ll}/u.test(f.source);
  const candidate = f.words.map((w, i) => {
    if (!/^\p{L}/u.test(w)) return false;
    const ordinary = look.common.has(w.toLowerCase());
    const listed = look.lists(w);
    // Lower-case text: ordinary words only when they are first or last names, countries or nationalities, not
    // the cities and companies that are also words ("mobile", "independence").
    if (!cased) return !ordinary || ['first', 'last', 'country', 'misc'].some((c) => listed.has(c as Category));
    if (!/^\p{Lu}/u.test(w)) return false;
    const sentenceStart =
      i === 0 || /[.!?:"“]\s*$/.test(f.field === 'tokens' ? f.words[i - 1]! : f.source.slice(f.ends[i - 1], f.starts[i]));
    return !(sentenceStart && ordinary && listed.size === 0);
  });
  // Words of one run are separated by spaces only (text) or adjacent tokens.
  const joined = (i: number): boolean => f.field === 'tokens' || /^ +$/.test(f.source.slice(f.ends[i - 1], f.starts[i]));
  const out: Mention[] = [];
  let i = 0;
  while (i < f.words.length) {
    await tick();
    if (!candidate[i]) {
      i++;
      continue;
    }
    let runEnd = i + 1;
    while (runEnd < f.words.length && candidate[runEnd] && joined(runEnd) && runEnd - i < LONGEST) runEnd++;
    const found = longestAt(f, i, runEnd, look, cased);
    if (found) out.push(found.mention);
    // The word after the mention (was a search of every word's end per mention: quadratic in long texts).
    i = found ? found.after : i + 1;
  }
  return out;
}

/**
 * The longest listed span starting at word i and ending by runEnd, or a person's name, with the index of the word
 * after it; undefined when none.
 */
function longestAt(
  f: FieldWords,
  i: number,
  runEnd: number,
  look: Lookup,
  cased: boolean,
): { mention: Mention; after: number } | undefined {
  for (let j = runEnd; j > i; j--) {
    const text = f.words.slice(i, j).join(' ');
    const found = look.lists(text);
    const typed = (['country', 'city', 'org', 'misc'] as const).filter((c) => found.has(c));
    const alias = look.aliases.has(text);
    if (typed.length > 0 || alias) {
      const c = alias ? 'country' : typed[0]!;
      const subtype = c === 'country' || c === 'city' ? { subtype: c } : {};
      const confidence = gazetteerConfidence(found.size + (alias && !found.has('country') ? 1 : 0));
      return { mention: mentionOf(f, i, j, TYPE_OF[c]!, confidence, subtype), after: j };
    }
    // A person: a first name, maybe a middle name or initial, and a last name (lower-case text: not an ordinary word);
    // less sure when the first name is in other lists too ("Jordan").
    const last = f.words[j - 1]!;
    const middle = j - i === 3 ? f.words[i + 1]! : undefined;
    const middleOk = middle === undefined || middle.length === 1 || look.lists(middle).has('first');
    if (
      j - i >= 2 &&
      j - i <= 3 &&
      middleOk &&
      found.size === 0 &&
      look.lists(f.words[i]!).has('first') &&
      (cased || plausibleLowerCasePerson(f.words[i]!, last, look))
    ) {
      return { mention: mentionOf(f, i, j, 'PER', gazetteerConfidence(look.lists(f.words[i]!).size)), after: j };
    }
  }
  return undefined;
}

/**
 * In text without case, whether a first name and a last word read as a person's name (issue 34: "worthy
 * environmentalism", "even killer-thrillers" were): the first word is not one used as another class than a name
 * ("worthy", "even", "may", "read"), and the last is a listed last name, or else no ordinary English word and not
 * another class either ("conveying"; a compound only when each part is: "killer-thrillers", not "day-lewis").
 */
function plausibleLowerCasePerson(first: string, last: string, look: Lookup): boolean {
  if (isNonNameWord(first)) return false;
  return look.lists(last).has('last') || (!look.common.has(last.toLowerCase()) && !isNonNameWord(last));
}

/** Lone words that are the last name of a person found in the example: more mentions of that person. */
async function lonePersons(ex: Example, mentions: Mention[], tick: () => Promise<void>): Promise<Mention[]> {
  const lastNames = new Map<string, number>();
  for (const m of mentions) {
    if (m.type !== 'PER') continue;
    const words = m.text.split(/\s+/);
    if (words.length >= 2) lastNames.set(normaliseName(words[words.length - 1]!), m.confidence);
  }
  if (lastNames.size === 0) return mentions;
  const extra: Mention[] = [];
  for (const f of fieldsOf(ex)) {
    // The field's mentions by start, swept alongside the words (was every mention per word: quadratic).
    const spans = mentions.filter((m) => m.field === f.field).sort((a, b) => a.start - b.start);
    let next = 0;
    let reach = -1; // the furthest end of the mentions starting at or before the current word
    for (let i = 0; i < f.words.length; i++) {
      if ((i & 1023) === 0) await tick();
      while (next < spans.length && spans[next]!.start <= f.starts[i]!) reach = Math.max(reach, spans[next++]!.end);
      const conf = lastNames.get(normaliseName(f.words[i]!));
      if (conf !== undefined && !(f.ends[i]! <= reach)) extra.push(mentionOf(f, i, i + 1, 'PER', conf));
    }
  }
  const order = (m: Mention): number => TEXT_FIELDS[ex.kind].indexOf(m.field);
  return [...mentions, ...extra].sort((a, b) => order(a) - order(b) || a.start - b.start);
}

/** Tag types other taggers use for the CoNLL ones. */
const TYPE_ALIASES: Record<string, EntityType> = { PERSON: 'PER', ORGANIZATION: 'ORG', LOCATION: 'LOC', GPE: 'LOC' };

function entityType(tagType: string): EntityType | undefined {
  const t = tagType.toUpperCase();
  return (ENTITY_TYPES as readonly string[]).includes(t) ? (t as EntityType) : TYPE_ALIASES[t];
}

/**
 * Mentions a token-classification model finds: it tags the words of every text field (WordSeq words; the tokens
 * of token examples); entity spans map back to character offsets; confidence = the mean of the model's tag scores
 * over the mention's words. `predict` is the model's (or the query engine's) batch call; inputs go in batches of
 * `batchSize` (default 32).
 */
export function modelAnnotator(
  predict: (inputs: ModelInput[]) => Promise<ModelOutput[]>,
  opts: { dicts?: NameDictionaries; batchSize?: number; name?: string } = {},
): MentionAnnotator {
  const batchSize = opts.batchSize ?? 32;
  return {
    name: opts.name ?? 'model',
    async annotate(examples) {
      const d = opts.dicts ?? (await loadDictionaries());
      const fields = examples.map(fieldsOf);
      const flat = fields.flat().filter((f) => f.words.length > 0);
      const outputs: ModelOutput[] = [];
      for (let i = 0; i < flat.length; i += batchSize) {
        const batch = flat.slice(i, i + batchSize);
        outputs.push(...(await predict(batch.map((f) => ({ kind: 'tokens', tokens: f.words.slice() })))));
      }
      const byField = new Map(flat.map((f, i) => [f, outputs[i]!]));
      return fields.map((fs) =>
        finish(
          fs.flatMap((f) => {
            const out = byField.get(f);
            return out ? tagMentions(f, out) : [];
          }),
          d,
        ),
      );
    },
  };
}

function tagMentions(f: FieldWords, out: ModelOutput): Mention[] {
  if (out.kind !== 'tags' || out.tags.length !== f.words.length) {
    const got = out.kind === 'tags' ? `${out.tags.length} tags for ${f.words.length} words` : `a "${out.kind}" output`;
    throw new TextstressError(`modelAnnotator needs one tag per word from a token-classification model, got ${got}`);
  }
  return entitySpans(out.tags).flatMap((s) => {
    const type = entityType(s.type);
    if (!type) return [];
    const scores = out.scores.slice(s.start, s.end);
    const confidence = Math.min(1, Math.max(0, scores.reduce((a, b) => a + b, 0) / scores.length));
    return [mentionOf(f, s.start, s.end, type, confidence)];
  });
}
