/**
 * The part of speech of one word in a short context, in the universal tagset of Petrov et al. (2012) that NLTK's
 * `pos_tag(…, tagset="universal")` gives and TextAttack's PartOfSpeech constraint compares: NOUN, VERB, ADJ, ADV,
 * PRON, DET, ADP, NUM, CONJ, PRT, "." and X. Tagged by wink-nlp's English model (the project's tagger, see
 * perturb/grammar), whose Universal Dependencies tags map onto it as NLTK's Penn Treebank tags do: proper nouns are
 * NOUN, auxiliaries and modals VERB, subordinating conjunctions ADP (Penn's IN), particles PRT.
 */
import { createRequire } from 'node:module';
import type WinkFn from 'wink-nlp';

/** The universal tagset NLTK maps Penn Treebank tags onto. */
export type UniversalTag = 'NOUN' | 'VERB' | 'ADJ' | 'ADV' | 'PRON' | 'DET' | 'ADP' | 'NUM' | 'CONJ' | 'PRT' | '.' | 'X';

const FROM_UD: Record<string, UniversalTag> = {
  NOUN: 'NOUN',
  PROPN: 'NOUN',
  VERB: 'VERB',
  AUX: 'VERB',
  ADJ: 'ADJ',
  ADV: 'ADV',
  PRON: 'PRON',
  DET: 'DET',
  ADP: 'ADP',
  SCONJ: 'ADP',
  CCONJ: 'CONJ',
  NUM: 'NUM',
  PART: 'PRT',
  PUNCT: '.',
  SYM: '.',
  INTJ: 'X',
  X: 'X',
};

/** Contexts tagged and kept (TextAttack keeps 2^14 in an LRU). */
const CACHE = 1 << 14;

/** Tags a word in context with wink-nlp, in the universal tagset (see the file comment); caches tagged contexts. */
export class UniversalTagger {
  private nlp?: ReturnType<typeof WinkFn>;
  private readonly cache = new Map<string, UniversalTag[]>();

  /**
   * The tag of `words[index]` among `words`, read as the words joined by single spaces (TextAttack tags the list of
   * words, punctuation left out). A word the tagger splits takes its first part's tag ("don't" → do); a hyphenated
   * compound, which a Penn tagger tags whole, is a noun or number when its last part is one ("e-mail", "twenty-one")
   * and an adjective otherwise ("light-hearted", "well-known").
   */
  tag(words: readonly string[], index: number): UniversalTag {
    const key = words.join(' ');
    let tags = this.cache.get(key);
    if (!tags) {
      tags = this.tagAll(words, key);
      this.cache.set(key, tags);
      if (this.cache.size > CACHE) this.cache.delete(this.cache.keys().next().value!);
    }
    return tags[index] ?? 'X';
  }

  private tagAll(words: readonly string[], text: string): UniversalTag[] {
    this.nlp ??= loadWink();
    const tokens = this.nlp.readDoc(text).tokens();
    const out = tokens.out.bind(tokens) as (f: unknown) => string[];
    const values = out(this.nlp.its.value);
    const tags = out(this.nlp.its.pos);
    // Each token's character offset in the text (tokens come in text order).
    const starts: number[] = [];
    let pos = 0;
    for (const v of values) {
      const at = text.indexOf(v, pos);
      starts.push(at);
      if (at >= 0) pos = at + v.length;
    }
    const result: UniversalTag[] = [];
    let offset = 0;
    let t = 0;
    for (const word of words) {
      const end = offset + word.length;
      while (t < values.length && (starts[t]! < 0 || starts[t]! + values[t]!.length <= offset)) t++;
      const inside: number[] = [];
      for (let k = t; k < values.length && starts[k]! >= 0 && starts[k]! < end; k++) inside.push(k);
      const first = inside[0] === undefined ? 'X' : (FROM_UD[tags[inside[0]]!] ?? 'X');
      const last = inside.at(-1) === undefined ? 'X' : (FROM_UD[tags[inside.at(-1)!]!] ?? 'X');
      result.push(inside.length > 1 && word.includes('-') ? (last === 'NOUN' || last === 'NUM' ? last : 'ADJ') : first);
      offset = end + 1;
    }
    return result;
  }
}

/** Loaded on first use: the English model takes about a second to load. */
function loadWink(): ReturnType<typeof WinkFn> {
  const require = createRequire(import.meta.url);
  const winkNLP = require('wink-nlp') as typeof WinkFn;
  const model = require('wink-eng-lite-web-model') as Parameters<typeof WinkFn>[0];
  return winkNLP(model, ['pos']);
}
