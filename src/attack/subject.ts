import type { Example } from '../data/types.ts';
import type { ModelInput } from '../models/types.ts';
import { WordSeq } from '../text/word-seq.ts';

/** Which field of an example an attack may edit. */
export type EditableField = 'text' | 'textA' | 'textB' | 'tokens' | 'question' | 'context';

/**
 * An example seen by an attack: the one field it may edit (as words), how to turn an edited version back
 * into a model input, and the words no edit may touch (e.g. NER entity tokens).
 */
export interface AttackSubject {
  example: Example;
  field: EditableField;
  original: WordSeq;
  frozen: ReadonlySet<number>;
  /** Original word indices before which nothing may be inserted (NER: inside a multi-token entity). */
  noInsertBefore?: ReadonlySet<number>;
  toInput(seq: WordSeq): ModelInput;
  /** The field with word i taken out, for occlusion importance (tokens keep their count: "[UNK]"). */
  occlude(seq: WordSeq, index: number): WordSeq;
  /** The example's fields with `seq` in place of the edited one, for result records. */
  fields(seq: WordSeq): Record<string, string | string[]>;
}

export interface SubjectOptions {
  /** Field to edit; defaults: text → text, pair → textB (textA for MRPC-style paraphrase sets), QA → question. */
  field?: EditableField;
  /** Dataset name, used for pair defaults (MRPC edits sentence 1). */
  dataset?: string;
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

export function makeSubject(example: Example, opts: SubjectOptions = {}): AttackSubject {
  const field = opts.field ?? defaultField(example, opts.dataset);
  switch (example.kind) {
    case 'text': {
      requireField(field, ['text'], example.kind);
      return {
        example,
        field,
        original: WordSeq.parse(example.text),
        frozen: NOTHING,
        occlude: deleteWord,
        toInput: (seq) => ({ kind: 'text', text: seq.toString() }),
        fields: (seq) => ({ text: seq.toString() }),
      };
    }
    case 'pair': {
      requireField(field, ['textA', 'textB'], example.kind);
      const { textA, textB } = example;
      return twoFieldSubject(example, field, { textA, textB }, (f) => ({ kind: 'pair', textA: f.textA!, textB: f.textB! }));
    }
    case 'tokens': {
      requireField(field, ['tokens'], example.kind);
      const frozen = new Set<number>();
      const noInsertBefore = new Set<number>();
      example.tags.forEach((tag, i) => {
        if (tag !== 'O') frozen.add(i);
        if (tag.startsWith('I-')) noInsertBefore.add(i);
      });
      return {
        example,
        field,
        original: WordSeq.fromTokens(example.tokens),
        frozen,
        noInsertBefore,
        toInput: (seq) => ({ kind: 'tokens', tokens: seq.words.slice() }),
        occlude: (seq, i) => seq.replace(i, '[UNK]'),
        fields: (seq) => ({ tokens: seq.words.slice() }),
      };
    }
    case 'qa': {
      requireField(field, ['question', 'context'], example.kind);
      const { question, context } = example;
      return twoFieldSubject(example, field, { question, context }, (f) => ({
        kind: 'qa',
        question: f.question!,
        context: f.context!,
      }));
    }
  }
}

/** A subject over an example with two text fields (pairs, QA), one of which is edited. */
function twoFieldSubject(
  example: Example,
  field: EditableField,
  texts: Record<string, string>,
  toInput: (fields: Record<string, string>) => ModelInput,
): AttackSubject {
  const withEdit = (seq: WordSeq): Record<string, string> => ({ ...texts, [field]: seq.toString() });
  return {
    example,
    field,
    original: WordSeq.parse(texts[field]!),
    frozen: NOTHING,
    occlude: deleteWord,
    toInput: (seq) => toInput(withEdit(seq)),
    fields: withEdit,
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
