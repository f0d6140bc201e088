/** Typed entity mentions, name lists and consistent replacement (the entity paper's swaps). */
export * from './types.ts';
export {
  DICTIONARY_KEYS,
  allFirstNames,
  genderOf,
  isFirstName,
  loadDictionaries,
  normaliseList,
  ordinaryWords,
  readNameFile,
  type DictionaryKey,
  type DictionaryOptions,
  type NameDictionaries,
} from './dictionaries.ts';
export { matchCase, mentionWords, normaliseName, personParts, resolveLoneNames, splitPerson, type MentionWord } from './person.ts';
export { ReplacementPlan, applyPlan, forcedPlan, planReplacement, replacedNames } from './replace.ts';
export { gazetteerAnnotator, goldAnnotator, modelAnnotator } from './annotate.ts';
