import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type WinkFn from 'wink-nlp';
import type { WordSeq } from '../../text/word-seq.ts';
import type { AnalysisResult, Analyzer, SentenceAnalysis, Upos, VerbForm, WordInfo } from './analysis.ts';
import { MODAL_SET } from './confusion-sets.ts';
import type { WordFrequency } from './frequency.ts';
import type { Inflector } from './inflector.ts';
import { languageOf } from './language.ts';
import { looksLikeName } from './names.ts';
import type { SynonymSource } from './wordnet.ts';

const UPOS: ReadonlySet<string> = new Set([
  'ADJ',
  'ADP',
  'ADV',
  'AUX',
  'CCONJ',
  'DET',
  'INTJ',
  'NOUN',
  'NUM',
  'PART',
  'PRON',
  'PROPN',
  'PUNCT',
  'SCONJ',
  'SYM',
  'VERB',
  'X',
]);

/** Words that call for a bare infinitive next ("to grow", "will grow", "does not grow"). */
const BASE_TRIGGERS: ReadonlySet<string> = new Set([...MODAL_SET, 'to', 'do', 'does', 'did', "n't", 'not']);

/**
 * The analyzer behind the grammar rules: wink-nlp's English POS tagger (~25k sentences/s on one core;
 * only the 'pos' pipe is run) aligned to WordSeq words by character offsets, plus verb forms and noun
 * number worked out from the tagger's lemma and the inflection library. Results are cached per text:
 * a search asks for the same sentence again and again.
 *
 * Nouns that look like names in lower-cased text are marked `name` (names.ts).
 *
 * A word the tagger splits ("doesn't" → does + n't) or that covers only part of a token ("'s" in SST-2's
 * "it 's" is the word "s") gets pos 'X', which no rule edits — except hyphenated adjectives and adverbs
 * ("light-hearted"), which take their last part's tag.
 */
export class WinkAnalyzer implements Analyzer {
  private readonly nlp = loadWink();
  private readonly cache = new Map<string, SentenceAnalysis>();
  private cachedWords = 0;

  constructor(
    private readonly inflector: Inflector,
    private readonly lexicon: SynonymSource,
    private readonly frequencies: WordFrequency,
    /** Most words (over all cached sentences) kept: bounds memory whatever the text lengths. */
    private readonly cacheWords = 1_000_000,
  ) {}

  analyse(seq: WordSeq): SentenceAnalysis {
    const text = seq.toString();
    // Long texts are keyed by a hash, so the cache does not keep a second copy of each.
    const key =
      text.length > 1024 ? `#${seq.length}\u0000${createHash('sha1').update(text).digest('base64')}` : `${seq.length}\u0000${text}`;
    const hit = this.cache.get(key);
    if (hit) return hit;
    const analysis = this.compute(seq, text);
    while (this.cache.size && this.cachedWords + analysis.words.length > this.cacheWords) {
      const oldest = this.cache.keys().next().value!;
      this.cachedWords -= this.cache.get(oldest)!.words.length;
      this.cache.delete(oldest);
    }
    this.cache.set(key, analysis);
    this.cachedWords += analysis.words.length;
    return analysis;
  }

  check(seq: WordSeq): AnalysisResult {
    if (seq.length === 0) {
      return { ok: false, reason: seq.toString().trim() === '' ? 'empty text' : 'no words the tagger can analyse' };
    }
    const analysis = this.analyse(seq);
    const language = languageOf(analysis.words, seq.toString(), this.lexicon);
    // Script first: a Japanese sentence is "not English", not merely "no words the tagger can analyse".
    if (language === 'non-latin script') return { ok: false, reason: 'not English' };
    if (!analysis.words.some((w) => w.pos !== 'X' && /\p{L}/u.test(w.lower))) {
      return { ok: false, reason: 'no words the tagger can analyse' };
    }
    if (language !== 'english') return { ok: false, reason: 'not English' };
    return { ok: true, analysis };
  }

  private compute(seq: WordSeq, text: string): SentenceAnalysis {
    const its = this.nlp.its;
    const tokens = this.nlp.readDoc(text).tokens();
    // wink's typings do not accept its.lemma in out(); all three return one string per token.
    const out = tokens.out.bind(tokens) as (f: unknown) => string[];
    const values = out(its.value);
    const tags = out(its.pos);
    const lemmas = out(its.lemma);

    // Character span of every token: tokens appear in text order, so scan forward.
    const starts: number[] = [];
    let pos = 0;
    for (const v of values) {
      const at = text.startsWith(v, pos) ? pos : text.indexOf(v, pos);
      starts.push(at);
      if (at >= 0) pos = at + v.length;
    }

    const words: WordInfo[] = [];
    let offset = seq.gaps[0]!.length;
    let t = 0;
    for (let i = 0; i < seq.length; i++) {
      const word = seq.words[i]!;
      const end = offset + word.length;
      while (t < values.length && (starts[t]! < 0 || starts[t]! + values[t]!.length <= offset)) t++;
      const lower = word.toLowerCase();
      let info: WordInfo = { lower, pos: 'X', lemma: lower };
      if (t < values.length && starts[t] === offset && starts[t]! + values[t]!.length === end) {
        const tag = UPOS.has(tags[t]!) ? (tags[t] as Upos) : 'X';
        info = { lower, pos: tag, lemma: (lemmas[t] ?? lower).toLowerCase() };
      } else if (lower.includes('-') && t < values.length && starts[t] === offset) {
        // A hyphenated compound the tagger split ("light-hearted" → light - hearted): it acts as its last
        // part does (here an adjective); its lemma is the whole word.
        let last = t;
        while (last + 1 < values.length && starts[last + 1]! >= 0 && starts[last + 1]! + values[last + 1]!.length <= end) last++;
        if (starts[last]! + values[last]!.length === end && UPOS.has(tags[last]!)) {
          const tag = tags[last] as Upos;
          // Nouns and verbs would get inflected by their last part alone ("self-absorbeds"): only modifiers.
          if (tag === 'ADJ' || tag === 'ADV') info = { lower, pos: tag, lemma: lower };
        }
      }
      words.push(info);
      offset = end + seq.gaps[i + 1]!.length;
    }
    for (let i = 0; i < words.length; i++) this.refine(words, i);
    return { words };
  }

  /** Adds verb form and noun number, which the coarse tags lack. */
  private refine(words: WordInfo[], i: number): void {
    const w = words[i]!;
    if (w.pos === 'NOUN') {
      w.plural = w.lower !== w.lemma && this.inflector.plural(w.lemma) === w.lower;
      if (looksLikeName(w, this.lexicon, this.frequencies)) w.name = true;
      return;
    }
    if (w.pos !== 'VERB' && w.pos !== 'AUX') return;
    if (MODAL_SET.has(w.lower)) return; // "will", "can": no agreement or tense forms
    const form = verbFormOf(w, this.inflector, previousWord(words, i));
    if (form) w.verbForm = form;
  }
}

/**
 * Loaded when the first analyzer is made, not at import: the English model takes ~1 s to load, and CLI
 * verbs that never tag (--help, typos) should not pay for it.
 */
function loadWink(): ReturnType<typeof WinkFn> {
  const require = createRequire(import.meta.url);
  const winkNLP = require('wink-nlp') as typeof WinkFn;
  const model = require('wink-eng-lite-web-model') as Parameters<typeof WinkFn>[0];
  return winkNLP(model, ['pos']);
}

/** The nearest word before i that is not an adverb ("has really grown"). */
function previousWord(words: readonly WordInfo[], i: number): WordInfo | undefined {
  for (let j = i - 1; j >= 0; j--) if (words[j]!.pos !== 'ADV') return words[j];
  return undefined;
}

function verbFormOf(w: WordInfo, inflector: Inflector, prev: WordInfo | undefined): VerbForm | undefined {
  if (w.lemma === 'be') {
    // "be" has more present and past forms than a VerbForms record holds.
    if (w.lower === 'am' || w.lower === 'are') return 'VBP';
    if (w.lower === 'were') return 'VBD';
  }
  const f = inflector.verbForms(w.lemma);
  const afterAux = prev !== undefined && prev.pos === 'AUX' && (prev.lemma === 'have' || prev.lemma === 'be');
  if (w.lower === f.gerund) return 'VBG';
  if (w.lower === f.s3 && f.s3 !== f.base) return 'VBZ';
  // "the (recently) released film": a past form right after a determiner or adjective is a participle.
  const adjectival = prev !== undefined && (prev.pos === 'DET' || prev.pos === 'ADJ');
  if (w.lower === f.past && w.lower === f.participle) return afterAux || adjectival ? 'VBN' : 'VBD';
  if (w.lower === f.past) return 'VBD';
  if (w.lower === f.participle) return 'VBN';
  if (w.lower === f.base) return prev !== undefined && BASE_TRIGGERS.has(prev.lower) ? 'VB' : 'VBP';
  return undefined;
}
