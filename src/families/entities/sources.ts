/**
 * Where the candidate names and the mentions come from: the name lists (or the user's, --names-file KEY=PATH) and
 * the annotator (gold tags, the gazetteer, or a token-classification model), shared by the `entities` probe, `universal-names` and RESEMBLE.
 */
import type { DatasetInfo } from '../../data/types.ts';
import {
  allFirstNames,
  gazetteerAnnotator,
  goldAnnotator,
  modelAnnotator,
  normaliseList,
  type DictionaryKey,
  type EntityType,
  type MentionAnnotator,
  type NameDictionaries,
} from '../../entities/index.ts';
import type { BuildContext } from '../../recipes/registry/define.ts';
import { TextstressError } from '../../util/errors.ts';

/** The list a `--names-file` key names: a list itself, or a type (PER: last names; LOC: cities). */
const NAME_FILE_KEYS: Record<string, DictionaryKey> = {
  female: 'female',
  male: 'male',
  first: 'first',
  last: 'last',
  org: 'org',
  country: 'country',
  city: 'city',
  misc: 'misc',
  per: 'last',
  loc: 'city',
};

/** `KEY=PATH` pairs as the dictionaries' file overrides. */
export function namesFiles(pairs: readonly string[]): Partial<Record<DictionaryKey, string>> {
  const files: Partial<Record<DictionaryKey, string>> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    const key = NAME_FILE_KEYS[pair.slice(0, at).toLowerCase()];
    if (!key) {
      throw new TextstressError(`--names-file ${pair}: unknown list "${pair.slice(0, at)}".`, {
        hint: `Use one of ${Object.keys(NAME_FILE_KEYS).join(', ')} (KEY=PATH, one name a line).`,
      });
    }
    files[key] = pair.slice(at + 1);
  }
  return files;
}

/**
 * The candidate names of a type, sorted: the user's lists of that type when they gave any, else every list of
 * the type (PER: first names of any gender and last names; LOC: countries and cities).
 */
export function candidateNames(type: EntityType, dicts: NameDictionaries, given: ReadonlySet<DictionaryKey>): string[] {
  const lists: Record<EntityType, Partial<Record<DictionaryKey, () => readonly string[]>>> = {
    PER: {
      female: () => dicts.first.female,
      male: () => dicts.first.male,
      first: () => allFirstNames(dicts),
      last: () => dicts.last,
    },
    ORG: { org: () => dicts.org },
    LOC: { country: () => dicts.country, city: () => dicts.city },
    MISC: { misc: () => dicts.misc },
  };
  const own = Object.entries(lists[type]) as [DictionaryKey, () => readonly string[]][];
  const mine = own.filter(([k]) => given.has(k));
  // Without a user list, PER takes the full first-name list once (not female and male again).
  const picked = mine.length ? mine : own.filter(([k]) => !(type === 'PER' && (k === 'female' || k === 'male')));
  return normaliseList(picked.flatMap(([, list]) => list()));
}

/** The annotator a run uses: the one asked for, else gold tags for NER data and the name lists otherwise. */
export function annotatorName(asked: string | null, data: Pick<DatasetInfo, 'kind'> | undefined): string {
  return asked ?? (data?.kind === 'tokens' ? 'gold' : 'gazetteer');
}

/** Fails before any work when gold tags are asked of data that has none. */
export function checkAnnotator(name: string, data: DatasetInfo | undefined): void {
  if (name !== 'gold' || data?.kind === 'tokens') return;
  throw new TextstressError(
    `--annotator gold needs NER data with entity tags; ${data?.path ?? 'the data'} holds ${data?.kind ?? 'no'} examples.`,
    {
      hint: 'Use --annotator gazetteer, or model:<spec> with a token-classification model (e.g. model:models/demo-ner).',
    },
  );
}

/** Opens the annotator by name (gold, gazetteer, model:<spec>); returns it with a close() for a model it opened. */
export async function openAnnotator(
  name: string,
  data: DatasetInfo | undefined,
  dicts: NameDictionaries,
  open: BuildContext['openModel'],
): Promise<{ annotator: MentionAnnotator; close(): Promise<void> }> {
  const none = async (): Promise<void> => {};
  checkAnnotator(name, data);
  if (name === 'gold') return { annotator: goldAnnotator(dicts), close: none };
  if (name === 'gazetteer') return { annotator: gazetteerAnnotator(dicts), close: none };
  const spec = name.slice('model:'.length);
  const model = await open(spec, { task: 'token-classification' });
  if (model.info.task !== 'token-classification') {
    await model.close?.();
    throw new TextstressError(`--annotator ${name}: ${spec} is a ${model.info.task} model, not a token-classification (NER) model.`, {
      hint: 'Give an NER model, e.g. model:models/demo-ner.',
    });
  }
  return { annotator: modelAnnotator((inputs) => model.predict(inputs), { dicts }), close: async () => void (await model.close?.()) };
}
