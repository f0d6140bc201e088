/**
 * From a hub dataset's columns to textstress examples: which layout the columns form (single text, pair,
 * extractive QA, token tagging), with the column options taking precedence, and each row's checked
 * conversion. Row errors are DataErrors at `<spec>:<row>` (0-based row of the split, as `ds[row]` in the
 * datasets library), so the bad-row policy of makeDataset applies unchanged.
 */
import { TextstressError } from '../../util/errors.ts';
import { iob1ToIob2 } from '../entities.ts';
import { checkText, rowError, stripText } from '../rows.ts';
import { stripQa } from '../squad.ts';
import type { ColumnMap, Example, QaAnswer } from '../types.ts';
import type { ClassLabels } from './parquet.ts';

export type Layout =
  | { kind: 'text'; text: string; label: string; id?: string }
  | { kind: 'pair'; textA: string; textB: string; label: string; id?: string }
  | { kind: 'qa'; question: string; context: string; answers: string; title?: string; id?: string }
  | { kind: 'tokens'; tokens: string; tags: string; id?: string };

const TEXT = ['sentence', 'text', 'review', 'content', 'document'];
// Pairs are looked for before single texts: QNLI's question + sentence is a pair, not a "sentence" dataset.
const PAIRS = [
  ['sentence1', 'sentence2'],
  ['premise', 'hypothesis'],
  ['question', 'sentence'],
  ['question1', 'question2'],
  ['text_a', 'text_b'],
  ['sentence_A', 'sentence_B'],
] as const;
const LABEL = ['label', 'labels', 'gold_label'];
const ID = ['id', 'idx', 'guid'];

const COLUMNS_HINT =
  'Name the columns with --text-column, or --text-a-column and --text-b-column, and --label-column (optionally ' +
  '--id-column); in a library call, columns: { text, label } or { textA, textB, label }.';
export const UNLABELLED_HINT = 'Stress tests need gold labels: use a labelled split (validation or train); GLUE test splits have none.';

/** The columns a layout reads. */
export function layoutColumns(l: Layout): string[] {
  const cols =
    l.kind === 'text'
      ? [l.text, l.label]
      : l.kind === 'pair'
        ? [l.textA, l.textB, l.label]
        : l.kind === 'qa'
          ? [l.question, l.context, l.answers, ...(l.title !== undefined ? [l.title] : [])]
          : [l.tokens, l.tags];
  return [...new Set([...cols, ...(l.id !== undefined ? [l.id] : [])])];
}

/** Picks the layout from the column names and the column options. `where` is the spec, for messages. */
export function detectLayout(columns: readonly string[], given: ColumnMap = {}, where: string): Layout {
  const has = (c: string): boolean => columns.includes(c);
  const guess = (names: readonly string[]): string | undefined => names.find(has);
  const shown = columns.map((c) => JSON.stringify(c)).join(', ') || '(none)';
  for (const [role, name] of Object.entries(given)) {
    if (name !== undefined && !has(name)) {
      throw new TextstressError(`the ${role} column ${JSON.stringify(name)} is not in this dataset; its columns are ${shown}.`, {
        where,
        hint: COLUMNS_HINT,
      });
    }
  }
  if (given.text !== undefined && (given.textA !== undefined || given.textB !== undefined)) {
    throw new TextstressError('give either a text column (single text) or text-a and text-b columns (pairs), not both.', { where });
  }
  const id = given.id ?? guess(ID);
  const withId = id !== undefined ? { id } : {};
  const textGiven = given.text !== undefined || given.textA !== undefined || given.textB !== undefined;
  if (!textGiven) {
    if (has('question') && has('context') && has('answers')) {
      return {
        kind: 'qa',
        question: 'question',
        context: 'context',
        answers: 'answers',
        ...(has('title') ? { title: 'title' } : {}),
        ...withId,
      };
    }
    const tags = given.label ?? (has('ner_tags') ? 'ner_tags' : undefined);
    if (has('tokens') && tags !== undefined) return { kind: 'tokens', tokens: 'tokens', tags, ...withId };
  }
  const label = (): string => {
    const l = given.label ?? guess(LABEL);
    if (l === undefined)
      throw new TextstressError(`cannot tell which column holds the label; the columns are ${shown}.`, { where, hint: COLUMNS_HINT });
    return l;
  };
  if (given.text === undefined) {
    const pair = PAIRS.find(([a, b]) => has(given.textA ?? a) && has(given.textB ?? b));
    if (pair) return { kind: 'pair', textA: given.textA ?? pair[0], textB: given.textB ?? pair[1], label: label(), ...withId };
    if (given.textA !== undefined || given.textB !== undefined) {
      throw new TextstressError(`a pair needs both a text-a and a text-b column; the columns are ${shown}.`, { where, hint: COLUMNS_HINT });
    }
  }
  const text = given.text ?? guess(TEXT);
  if (text !== undefined) return { kind: 'text', text, label: label(), ...withId };
  throw new TextstressError(`cannot tell which columns hold the text; the columns are ${shown}.`, { where, hint: COLUMNS_HINT });
}

const describe = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v);

/** An integer from a parquet cell (INT64 columns come as bigint). */
const intOf = (v: unknown): number | undefined =>
  typeof v === 'bigint' ? Number(v) : typeof v === 'number' && Number.isInteger(v) ? v : undefined;

/** UTF-16 index of code point `cp` of `s`: Python (which wrote SQuAD's answer_start) counts code points. */
function utf16Index(s: string, cp: number): number {
  let i = 0;
  for (let n = 0; n < cp && i < s.length; n++) i += s.codePointAt(i)! > 0xffff ? 2 : 1;
  return i;
}

const TAG = /^(O|[BI]-\S+)$/;

export interface BuildContext {
  /** The spec as given: the "file" of row errors and sources. */
  file: string;
  split: string;
  maxChars: number;
  labels: ClassLabels;
}

/** Builds one example from a row (a DataError for a bad row). */
export function exampleBuilder(layout: Layout, ctx: BuildContext): (row: Record<string, unknown>, index: number) => Example {
  const { file, maxChars, labels } = ctx;
  return (row, index) => {
    const fail = (message: string, hint?: string): never => {
      throw rowError(file, index, message, hint);
    };
    const cell = (c: string): unknown => {
      const v = row[c];
      if (v === undefined || v === null) fail(`missing value in column ${JSON.stringify(c)}.`);
      return v;
    };
    const str = (c: string): string => {
      const v = cell(c);
      return typeof v === 'string' ? v : fail(`column ${JSON.stringify(c)} must hold text, got ${describe(v)}.`);
    };
    const text = (c: string): string => checkText(file, index, `column ${JSON.stringify(c)}`, str(c), maxChars);
    const label = (c: string): string => {
      const v = cell(c);
      const names = labels.scalar.get(c);
      const n = intOf(v);
      if (names !== undefined && n !== undefined) {
        if (n === -1) fail(`no gold label in column ${JSON.stringify(c)} (-1: an unlabelled row).`, UNLABELLED_HINT);
        return (
          names[n] ??
          fail(`label ${n} in column ${JSON.stringify(c)} is not one of the dataset's ${names.length} labels (0–${names.length - 1}).`)
        );
      }
      if (typeof v === 'string') return v.trim() !== '' ? v.trim() : fail(`empty label in column ${JSON.stringify(c)}.`);
      if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') return String(v);
      return fail(`column ${JSON.stringify(c)} must hold a label (a name or a class index), got ${describe(v)}.`);
    };
    let id = `${ctx.split}:${index}`;
    if (layout.id !== undefined) {
      const v = cell(layout.id);
      id = typeof v === 'string' || typeof v === 'number' || typeof v === 'bigint' ? String(v).trim() : '';
      if (id === '') fail(`column ${JSON.stringify(layout.id)} must hold a non-empty id, got ${describe(v)}.`);
    }
    const base = { id, source: `${file}:${index}` };
    switch (layout.kind) {
      case 'text':
        return { kind: 'text', ...base, text: text(layout.text), label: label(layout.label) };
      case 'pair':
        return { kind: 'pair', ...base, textA: text(layout.textA), textB: text(layout.textB), label: label(layout.label) };
      case 'tokens': {
        const tokens = cell(layout.tokens);
        const tags = cell(layout.tags);
        if (!Array.isArray(tokens) || !tokens.every((t) => typeof t === 'string' && t.trim() !== '')) {
          fail(`column ${JSON.stringify(layout.tokens)} must hold a list of non-empty tokens.`);
        }
        // Tokens are words: white space around one is no part of it (a CoNLL file cannot even hold it).
        const toks = (tokens as string[]).map(stripText);
        if (!Array.isArray(tags) || tags.length !== toks.length) {
          fail(
            `column ${JSON.stringify(layout.tags)} must hold one tag per token (${toks.length}), got ${Array.isArray(tags) ? tags.length : describe(tags)}.`,
          );
        }
        if (toks.length === 0) fail('the sentence has no tokens.');
        checkText(file, index, `column ${JSON.stringify(layout.tokens)}`, toks.join(' '), maxChars);
        const names = labels.sequence.get(layout.tags);
        const named = (tags as unknown[]).map((t, k) => {
          const n = intOf(t);
          const tag = names !== undefined && n !== undefined ? names[n] : typeof t === 'string' ? t : undefined;
          if (tag === undefined || !TAG.test(tag)) {
            fail(
              `tag ${JSON.stringify(typeof t === 'bigint' ? Number(t) : t)} of token ${JSON.stringify(toks[k])} is not O, ` +
                `B-<type> or I-<type>${names ? ` (the tag names are ${names.join(', ')})` : ''}.`,
            );
          }
          return tag!;
        });
        return { kind: 'tokens', ...base, tokens: toks, tags: iob1ToIob2(named) };
      }
      case 'qa': {
        // Answers are found in the context as the file holds it; both then lose their surrounding white space.
        const raw = str(layout.context);
        text(layout.context);
        const question = text(layout.question);
        const { context, answers } = stripQa(raw, qaAnswers(cell(layout.answers), raw, fail), (k) =>
          fail(`answer ${k + 1} is empty (white space only).`),
        );
        const title = layout.title !== undefined && typeof row[layout.title] === 'string' ? (row[layout.title] as string) : undefined;
        return { kind: 'qa', ...base, question, context, answers, ...(title !== undefined ? { title } : {}) };
      }
    }
  };
}

/** SQuAD's answers column, `{ text: [...], answer_start: [...] }`; each answer must be in the context where it says. */
function qaAnswers(v: unknown, context: string, fail: (m: string) => never): QaAnswer[] {
  const obj = typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  const texts = obj?.text;
  const starts = obj?.answer_start;
  if (!Array.isArray(texts) || !Array.isArray(starts) || texts.length !== starts.length) {
    return fail('column "answers" must hold { text: [...], answer_start: [...] } lists of the same length.');
  }
  if (texts.length === 0) return fail('the question has no answers (unanswerable SQuAD 2.0 questions are not supported).');
  return texts.map((t, k) => {
    const start = intOf(starts[k]);
    if (typeof t !== 'string' || start === undefined || start < 0) {
      return fail(`answer ${k + 1} needs a text and a non-negative integer answer_start.`);
    }
    if (context.slice(start, start + t.length) === t) return { text: t, start };
    const at = utf16Index(context, start);
    if (context.slice(at, at + t.length) === t) return { text: t, start: at };
    return fail(
      `answer ${k + 1} is ${JSON.stringify(t)} but the context at answer_start ${start} reads ${JSON.stringify(context.slice(start, start + t.length))}.`,
    );
  });
}
