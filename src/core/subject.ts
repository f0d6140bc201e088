import type { Example } from '../data/types.ts';
import type { ModelInput } from '../models/types.ts';
import { WordSeq } from '../text/word-seq.ts';

/** Which field of an example an attack may edit. */
export type EditableField = 'text' | 'textA' | 'textB' | 'tokens' | 'question' | 'context';

/**
 * An example seen by an attack: the one field it may edit (as words), how to turn an edited version back
 * into a model input, and the words no edit may touch (e.g. NER entity tokens).
 *
 * With a window, `original` holds only the first `window` words of the field; the rest is a fixed suffix that
 * every input and result record carries unchanged. Work per example (states, tagging, occlusion) then stays
 * bounded whatever the text's length, and models read a bounded number of tokens from the start anyway.
 */
export interface AttackSubject {
  example: Example;
  field: EditableField;
  /** The editable words (the whole field, or its first `window` words). */
  original: WordSeq;
  /** Words of the whole field (more than original.length when the window cut it). */
  totalWords: number;
  frozen: ReadonlySet<number>;
  /** Original word indices before which nothing may be inserted (NER: inside a multi-token entity). */
  noInsertBefore?: ReadonlySet<number>;
  toInput(seq: WordSeq): ModelInput;
  /** The field with word i taken out, for occlusion importance (tokens keep their count: "[UNK]"). */
  occlude(seq: WordSeq, index: number): WordSeq;
  /** The example's fields with `seq` in place of the edited one, for result records. */
  fields(seq: WordSeq): Record<string, string | string[]>;
  /** A state's origin map over the whole field (window words, then the suffix's), for goals that align gold tags. */
  fullOrigin(origin: readonly number[] | undefined): readonly number[] | undefined;
}

export interface SubjectOptions {
  /** Field to edit; defaults: text → text, pair → textB (textA for MRPC-style paraphrase sets), QA → question. */
  field?: EditableField;
  /** Dataset name, used for pair defaults (MRPC edits sentence 1). */
  dataset?: string;
  /** Edit only the first `window` words; the rest is kept as a fixed suffix. */
  window?: number;
}

export function defaultField(example: Example, dataset?: string): EditableField {
  switch (example.kind) {
    case 'text':
      return 'text';
    case 'pair':
      return dataset === 'mrpc' ? 'textA' : 'textB';
    case 'tokens':
      return 'tokens';
    case 'qa':
      return 'question';
  }
}

const NOTHING: ReadonlySet<number> = new Set();
const deleteWord = (seq: WordSeq, i: number): WordSeq => seq.delete(i);

/** A word sequence cut after `window` words: the head (editable) and the text that follows it. */
function cut(seq: WordSeq, window: number | undefined): { head: WordSeq; suffix: string } {
  if (window === undefined || seq.length <= window) return { head: seq, suffix: '' };
  // Open at the end: an edit at the boundary gives the text the same edit of the whole sequence gives.
  const head = seq.head(window);
  const rest = new WordSeq(seq.words.slice(window), ['', ...seq.gaps.slice(window + 1)]);
  return { head, suffix: rest.toString() };
}

/**
 * What an attack edits in an example: the words of the chosen field (default: the task's usual one), cut after
 * `opts.window` words, and how to rebuild the example from edited words. Throws when the field does not fit the kind.
 */
export function makeSubject(example: Example, opts: SubjectOptions = {}): AttackSubject {
  const field = opts.field ?? defaultField(example, opts.dataset);
  switch (example.kind) {
    case 'text': {
      requireField(field, ['text'], example.kind);
      const whole = WordSeq.parse(example.text);
      const { head, suffix } = cut(whole, opts.window);
      return {
        example,
        field,
        original: head,
        totalWords: whole.length,
        frozen: NOTHING,
        occlude: deleteWord,
        toInput: (seq) => ({ kind: 'text', text: seq.toString() + suffix }),
        fields: (seq) => ({ text: seq.toString() + suffix }),
        fullOrigin: extendOrigin(head.length, whole.length),
      };
    }
    case 'pair': {
      requireField(field, ['textA', 'textB'], example.kind);
      const { textA, textB } = example;
      return twoFieldSubject(example, field, { textA, textB }, opts.window, (f) => ({ kind: 'pair', textA: f.textA!, textB: f.textB! }));
    }
    case 'tokens': {
      requireField(field, ['tokens'], example.kind);
      const whole = WordSeq.fromTokens(example.tokens);
      const { head } = cut(whole, opts.window);
      const rest = example.tokens.slice(head.length);
      const frozen = new Set<number>();
      const noInsertBefore = new Set<number>();
      example.tags.forEach((tag, i) => {
        if (i >= head.length) return;
        if (tag !== 'O') frozen.add(i);
        if (tag.startsWith('I-')) noInsertBefore.add(i);
      });
      // An insertion right after the window would split an entity that continues into the suffix.
      if (example.tags[head.length]?.startsWith('I-')) noInsertBefore.add(head.length);
      return {
        example,
        field,
        original: head,
        totalWords: whole.length,
        frozen,
        noInsertBefore,
        toInput: (seq) => ({ kind: 'tokens', tokens: [...seq.words, ...rest] }),
        occlude: (seq, i) => seq.replace(i, '[UNK]'),
        fields: (seq) => ({ tokens: [...seq.words, ...rest] }),
        fullOrigin: extendOrigin(head.length, whole.length),
      };
    }
    case 'qa': {
      // Editing the context would leave the gold answer offsets pointing at other text: not until they are re-mapped.
      if (field === 'context')
        throw new Error(
          'editing the context of a QA example is not supported yet (the gold answer offsets would not follow the edits); edit the question (the default)',
        );
      requireField(field, ['question'], example.kind);
      const { question, context } = example;
      return twoFieldSubject(example, field, { question, context }, opts.window, (f) => ({
        kind: 'qa',
        question: f.question!,
        context: f.context!,
      }));
    }
  }
}

/** Origin over window + suffix: the suffix's words keep their original indices. */
function extendOrigin(headLength: number, total: number): (origin: readonly number[] | undefined) => readonly number[] | undefined {
  if (total <= headLength) return (origin) => origin;
  const tail = Array.from({ length: total - headLength }, (_, k) => headLength + k);
  return (origin) => [...(origin ?? Array.from({ length: headLength }, (_, k) => k)), ...tail];
}

/** A subject over an example with two text fields (pairs, QA), one of which is edited. */
function twoFieldSubject(
  example: Example,
  field: EditableField,
  texts: Record<string, string>,
  window: number | undefined,
  toInput: (fields: Record<string, string>) => ModelInput,
): AttackSubject {
  const whole = WordSeq.parse(texts[field]!);
  const { head, suffix } = cut(whole, window);
  const withEdit = (seq: WordSeq): Record<string, string> => ({ ...texts, [field]: seq.toString() + suffix });
  return {
    example,
    field,
    original: head,
    totalWords: whole.length,
    frozen: NOTHING,
    occlude: deleteWord,
    toInput: (seq) => toInput(withEdit(seq)),
    fields: withEdit,
    fullOrigin: extendOrigin(head.length, whole.length),
  };
}

function requireField(field: EditableField, allowed: EditableField[], kind: string): void {
  if (!allowed.includes(field)) {
    throw new Error(`cannot edit field "${field}" of a ${kind} example; choose one of ${allowed.join(', ')}`);
  }
}

/** The model input of a whole example, unedited. */
export function exampleInput(example: Example): ModelInput {
  switch (example.kind) {
    case 'text':
      return { kind: 'text', text: example.text };
    case 'pair':
      return { kind: 'pair', textA: example.textA, textB: example.textB };
    case 'tokens':
      return { kind: 'tokens', tokens: example.tokens.slice() };
    case 'qa':
      return { kind: 'qa', question: example.question, context: example.context };
  }
}

/** The example's text fields, as result records keep them. */
export function exampleFields(example: Example): Record<string, string | string[]> {
  switch (example.kind) {
    case 'text':
      return { text: example.text };
    case 'pair':
      return { textA: example.textA, textB: example.textB };
    case 'tokens':
      return { tokens: example.tokens.slice() };
    case 'qa':
      return { question: example.question, context: example.context };
  }
}
