/**
 * What the model saw in training, as far as names go: how often each word (or word sequence) occurs in the
 * training file, case-insensitive and whole words only (the entity paper's Figure 1), and the names to keep out of
 * the replacement lists when the user asks for unseen names only.
 */
import { entitySpans } from '../../data/entities.ts';
import { openDataset } from '../../data/open.ts';
import type { Example } from '../../data/types.ts';

/** Words as the counts see them: letters and digits, joined by an apostrophe, hyphen or dot (O'Neil, Jean-Luc). */
const WORD = /[\p{L}\p{N}]+(?:['’.-][\p{L}\p{N}]+)*/gu;

/** The lower-cased words of a text. */
export function wordsOf(text: string): string[] {
  return [...text.toLowerCase().matchAll(WORD)].map((m) => m[0]);
}

/** The training file's words, counted. */
export class TrainCounts {
  private readonly unigrams = new Map<string, number>();
  /** Every word in file order, examples separated by '' (a sequence never runs across two examples). */
  private readonly words: string[] = [];
  private readonly cache = new Map<string, number>();

  constructor(texts: Iterable<string>) {
    for (const text of texts) {
      for (const w of wordsOf(text)) {
        this.unigrams.set(w, (this.unigrams.get(w) ?? 0) + 1);
        this.words.push(w);
      }
      this.words.push('');
    }
  }

  /** Occurrences of a name as whole words (a multi-word name: the words in a row), case-insensitive. */
  count(name: string): number {
    const ws = wordsOf(name);
    if (ws.length === 0) return 0;
    if (ws.length === 1) return this.unigrams.get(ws[0]!) ?? 0;
    const key = ws.join(' ');
    let n = this.cache.get(key);
    if (n !== undefined) return n;
    n = 0;
    if ((this.unigrams.get(ws[0]!) ?? 0) > 0) {
      for (let i = 0; i + ws.length <= this.words.length; i++) if (ws.every((w, k) => this.words[i + k] === w)) n++;
    }
    this.cache.set(key, n);
    return n;
  }
}

/** The text fields of an example, joined (tokens by spaces). */
function textOf(e: Example): string {
  switch (e.kind) {
    case 'text':
      return e.text;
    case 'pair':
      return `${e.textA}\n${e.textB}`;
    case 'tokens':
      return e.tokens.join(' ');
    case 'qa':
      return `${e.question}\n${e.context}`;
  }
}

/**
 * Reads a training file: its word counts, and the names seen in it (lower case): the words of gold entity
 * mentions for NER data, every word otherwise (a text classifier's data has no entity tags).
 */
export async function readTrainData(path: string): Promise<{ counts: TrainCounts; seen: Set<string> }> {
  const dataset = await openDataset(path);
  const texts: string[] = [];
  const seen = new Set<string>();
  for await (const e of dataset.examples()) {
    texts.push(textOf(e));
    if (e.kind === 'tokens') {
      for (const s of entitySpans(e.tags)) for (const t of e.tokens.slice(s.start, s.end)) for (const w of wordsOf(t)) seen.add(w);
    } else {
      for (const w of wordsOf(textOf(e))) seen.add(w);
    }
  }
  return { counts: new TrainCounts(texts), seen };
}

/** The frequency bins of Figure 1: occurrences of the name in the training file. */
export const FREQUENCY_BINS = ['0', '1-9', '10-99', '≥100'] as const;

/** The bin of a count. */
export function frequencyBin(n: number): (typeof FREQUENCY_BINS)[number] {
  return n === 0 ? '0' : n < 10 ? '1-9' : n < 100 ? '10-99' : '≥100';
}

/** The subword bins of Figure 2: pieces the model's tokenizer makes of the name. */
export const SUBWORD_BINS = ['1', '2', '≥3'] as const;

/** The bin of a piece count (an empty tokenization counts as one piece). */
export function subwordBin(pieces: number): (typeof SUBWORD_BINS)[number] {
  return pieces <= 1 ? '1' : pieces === 2 ? '2' : '≥3';
}
