/**
 * What a fooling run reads from the training file (and --data in pair mode): D_task, the positive examples that
 * set T_task, and the fixed sentence x̂. Read again after a resume; its fingerprint is checked against the one the
 * first run recorded.
 */
import { LabelAligner } from '../../core/labels.ts';
import { fileFingerprint, openDataset } from '../../data/index.ts';
import type { Example } from '../../data/types.ts';
import { buildVocabulary, wordsOf, type Vocabulary } from './efsg/index.ts';
import type { ModelInput } from '../../models/types.ts';
import { TextstressError } from '../../util/errors.ts';
import type { FoolingSettings } from './settings.ts';

/** Single texts, or pairs with one side fixed. */
export type FoolingMode = { kind: 'text' } | { kind: 'pair'; fixed: string; side: 'first' | 'second'; id: string | null };

export interface TrainSource {
  vocabulary: Vocabulary;
  /** The positive training examples as model inputs (those whose gold label is the target class). */
  positives: ModelInput[];
  fingerprint: string;
  kind: 'text' | 'pair';
}

/** L for single texts when --length is not given (the length the docs' runs and the demo use). */
export const TEXT_LENGTH = 9;

/** The sentence length L of a run and where it came from. */
export interface SentenceLength {
  length: number;
  source: 'given' | 'fixed-sentence' | 'default';
}

/**
 * L: --length when given; in pair mode the number of words of x̂ (counted as D_task counts words), because the paper
 * generates the evolved text with the fixed sentence's length; otherwise {@link TEXT_LENGTH}.
 */
export function sentenceLength(s: Pick<FoolingSettings, 'length'>, mode: FoolingMode): SentenceLength {
  if (s.length !== null) return { length: s.length, source: 'given' };
  if (mode.kind === 'text') return { length: TEXT_LENGTH, source: 'default' };
  const n = wordsOf(mode.fixed).length;
  if (n === 0)
    throw new TextstressError(`the fixed sentence x̂ "${mode.fixed}" has no words, so it gives no length for the evolved text.`, {
      hint: 'Pass --length L, or pick another x̂.',
    });
  return { length: n, source: 'fixed-sentence' };
}

/** The model input for an evolved sentence. */
export function inputOf(mode: FoolingMode, sentence: string): ModelInput {
  if (mode.kind === 'text') return { kind: 'text', text: sentence };
  return mode.side === 'second'
    ? { kind: 'pair', textA: mode.fixed, textB: sentence }
    : { kind: 'pair', textA: sentence, textB: mode.fixed };
}

/** Streams the training file once: D_task from the evolved side's texts (both texts of a pair) and the positives. */
export async function readTrain(path: string, modelLabels: readonly string[], target: number): Promise<TrainSource> {
  const data = await openDataset(path);
  const kind = data.info.kind;
  if (kind !== 'text' && kind !== 'pair') {
    throw new TextstressError(`the training file holds ${kind} examples; EFSG needs labelled single texts or pairs.`, { where: path });
  }
  const aligner = new LabelAligner(modelLabels, data.info.labelNames ?? []);
  const texts: string[] = [];
  const positives: ModelInput[] = [];
  for await (const e of data.examples()) {
    if (e.kind === 'text') texts.push(e.text);
    else if (e.kind === 'pair') texts.push(e.textA, e.textB);
    else continue;
    if (aligner.indexOf(e.label) !== target) continue;
    positives.push(e.kind === 'text' ? { kind: 'text', text: e.text } : { kind: 'pair', textA: e.textA, textB: e.textB });
  }
  const vocabulary = buildVocabulary(texts);
  if (vocabulary.words.length < 2) {
    throw new TextstressError(`the training file has ${vocabulary.words.length} distinct word(s); D_task needs at least two.`, {
      where: path,
    });
  }
  return { vocabulary, positives, fingerprint: await fileFingerprint(path), kind };
}

/** Pair mode's fixed sentence: given, or the other text of an example found by id. */
export async function fixedSentence(
  s: FoolingSettings,
  lookIn: { path: string; examples: () => AsyncIterable<Example> },
): Promise<FoolingMode> {
  if (s.fixedText !== null && s.fixedId !== null) throw new TextstressError('give either --fixed-id or --fixed-text, not both.');
  if (s.fixedText !== null) return { kind: 'pair', fixed: s.fixedText, side: s.evolve, id: null };
  if (s.fixedId === null) {
    throw new TextstressError('a pair model needs the sentence x̂ that stays fixed while the other one evolves.', {
      hint: 'Pass --fixed-id <example id> (from --data, else --train) or --fixed-text "<sentence>"; --evolve first|second picks the evolved side.',
    });
  }
  for await (const e of lookIn.examples()) {
    if (e.id !== s.fixedId) continue;
    if (e.kind !== 'pair') throw new TextstressError(`example ${s.fixedId} is not a sentence pair.`, { where: lookIn.path });
    // The fixed side is the one not evolved: evolving the second text keeps the first (e.g. QNLI's question).
    return { kind: 'pair', fixed: s.evolve === 'second' ? e.textA : e.textB, side: s.evolve, id: s.fixedId };
  }
  throw new TextstressError(`no example has the id "${s.fixedId}".`, {
    where: lookIn.path,
    hint:
      'Ids are those results.jsonl and the report show: the file name and line (dev.tsv:12) for SST-2 and CoLA, the ' +
      'index column for QNLI, "#1 ID-#2 ID" for MRPC.',
  });
}
