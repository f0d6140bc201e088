/**
 * Rewrites of whole examples: any number of span replacements and insertions in any of its fields, applied at
 * once — a sentence appended to a hypothesis, a distractor sentence inserted into a QA context, every mention of
 * one name replaced the same way. Gold annotations follow: a QA answer is re-mapped to its new offset (a
 * replacement inside it becomes part of it), NER tags follow replaced tokens (an entity stays one entity of its
 * type, whatever its new length). Each rewrite is recorded as a typed, positioned Edit for results and reports.
 */
import type { Edit } from '../text/edits.ts';
import { WORD } from '../text/word-seq.ts';
import type { Example, QaAnswer } from './types.ts';

/** A text field of an example. */
export type TextField = 'text' | 'textA' | 'textB' | 'question' | 'context';

/** Characters [start, end) of a text field become `text` (start === end inserts). */
export interface TextRewrite {
  field: TextField;
  start: number;
  end: number;
  text: string;
  /** Edit type, e.g. "distraction:tautology", "entity:PER". */
  type: string;
  /** Rewrites made as one change (every mention of a name) share a group. */
  group?: string;
}

/** Tokens [start, end) of a token example become `tokens` (start === end inserts); tags follow. */
export interface TokenRewrite {
  field: 'tokens';
  start: number;
  end: number;
  tokens: string[];
  type: string;
  group?: string;
}

/** One span rewrite of a text field or of the tokens. */
export type Rewrite = TextRewrite | TokenRewrite;

/** The rewritten example and the edits made, for results and reports. */
export interface Rewritten {
  example: Example;
  edits: Edit[];
}

const FIELDS: Record<Example['kind'], readonly string[]> = {
  text: ['text'],
  pair: ['textA', 'textB'],
  tokens: ['tokens'],
  qa: ['question', 'context'],
};

/**
 * Applies all rewrites at once (positions refer to the original fields) and re-aligns gold answers and tags.
 * Throws when a rewrite names a field the example lacks, lies out of range, overlaps another or would split an entity.
 */
export function rewriteExample(example: Example, rewrites: readonly Rewrite[]): Rewritten {
  for (const r of rewrites) {
    if (!FIELDS[example.kind].includes(r.field)) throw new Error(`a ${example.kind} example has no field "${r.field}"`);
  }
  if (example.kind === 'tokens') return rewriteTokens(example, rewrites as TokenRewrite[]);
  const edits: Edit[] = [];
  const next: Record<string, unknown> = { ...example };
  // Fields in the example's own order (question before context, textA before textB).
  const fields = FIELDS[example.kind].filter((f) => rewrites.some((r) => r.field === f));
  for (const field of fields) {
    const mine = sortedChecked(
      rewrites.filter((r): r is TextRewrite => r.field === field),
      (example as unknown as Record<string, string>)[field]!.length,
      field,
    );
    const original = (example as unknown as Record<string, string>)[field]!;
    const { text, fieldEdits } = applyText(original, mine, field);
    next[field] = text;
    edits.push(...fieldEdits);
    if (example.kind === 'qa' && field === 'context') next.answers = example.answers.map((a) => remapAnswer(a, mine, text));
  }
  return { example: next as unknown as Example, edits };
}

function sortedChecked<R extends { start: number; end: number }>(rs: readonly R[], length: number, field: string): R[] {
  const sorted = rs.slice().sort((a, b) => a.start - b.start || a.end - b.end);
  sorted.forEach((r, i) => {
    if (!(Number.isInteger(r.start) && Number.isInteger(r.end) && r.start >= 0 && r.end >= r.start && r.end <= length)) {
      throw new RangeError(`rewrite [${r.start}, ${r.end}) is outside ${field} (length ${length})`);
    }
    const prev = sorted[i - 1];
    if (prev && prev.end > r.start)
      throw new RangeError(`rewrites [${prev.start}, ${prev.end}) and [${r.start}, ${r.end}) of ${field} overlap`);
  });
  return sorted;
}

/**
 * The rewritten text and one Edit per rewrite, in one pass (linear in the text: a 600k-character context with tens
 * of thousands of edits takes well under a second). An edit's wordIndex counts the words that start before it in
 * the text as it stood when that edit was made; the text before it is then already the rewritten text's prefix, and
 * which words start inside a prefix does not depend on what follows it, so the words of the final text are counted.
 */
function applyText(original: string, rewrites: readonly TextRewrite[], field: string): { text: string; fieldEdits: Edit[] } {
  const pieces: string[] = [];
  const starts: number[] = [];
  let cursor = 0;
  let delta = 0;
  for (const r of rewrites) {
    pieces.push(original.slice(cursor, r.start), r.text);
    starts.push(r.start + delta);
    delta += r.text.length - (r.end - r.start);
    cursor = r.end;
  }
  pieces.push(original.slice(cursor));
  const text = pieces.join('');
  const fieldEdits: Edit[] = [];
  const words = text.matchAll(WORD);
  let next = words.next();
  let counted = 0;
  rewrites.forEach((r, i) => {
    const start = starts[i]!;
    while (!next.done && next.value.index < start) {
      counted++;
      next = words.next();
    }
    fieldEdits.push({
      type: r.type,
      field,
      wordIndex: counted,
      start,
      before: original.slice(r.start, r.end),
      after: r.text,
      ...(r.group !== undefined ? { group: r.group } : {}),
    });
  });
  return { text, fieldEdits };
}

/**
 * Where an original offset lands. A boundary inside a replaced span takes in the whole replacement; an insertion
 * exactly at an answer's start goes before the answer, one exactly at its end after it.
 */
function mapOffset(p: number, rewrites: readonly TextRewrite[], side: 'start' | 'end'): number {
  let shift = 0;
  for (const r of rewrites) {
    const inside = r.start < p && p < r.end;
    if (inside) return r.start + shift + (side === 'end' ? r.text.length : 0);
    const before = side === 'start' ? r.end <= p : r.end < p || (r.end === p && r.start < p);
    if (!before) break;
    shift += r.text.length - (r.end - r.start);
  }
  return p + shift;
}

function remapAnswer(a: QaAnswer, rewrites: readonly TextRewrite[], context: string): QaAnswer {
  const start = mapOffset(a.start, rewrites, 'start');
  const end = mapOffset(a.start + a.text.length, rewrites, 'end');
  return { ...a, start, text: context.slice(start, end) };
}

function rewriteTokens(example: Extract<Example, { kind: 'tokens' }>, rewrites: readonly TokenRewrite[]): Rewritten {
  const sorted = sortedChecked(rewrites, example.tokens.length, 'tokens');
  const tokens: string[] = [];
  const tags: string[] = [];
  const edits: Edit[] = [];
  let cursor = 0;
  for (const r of sorted) {
    tokens.push(...example.tokens.slice(cursor, r.start));
    tags.push(...example.tags.slice(cursor, r.start));
    const at = tokens.length;
    const oldTags = example.tags.slice(r.start, r.end);
    tokens.push(...r.tokens);
    tags.push(...followTags(oldTags, r.tokens.length, example.tags[r.end], example.id));
    const before = example.tokens.slice(r.start, r.end).join(' ');
    const rest = [...tokens, ...example.tokens.slice(r.end)];
    edits.push({
      type: r.type,
      field: 'tokens',
      wordIndex: at,
      start: at === 0 ? 0 : rest.slice(0, at).join(' ').length + 1,
      before,
      after: r.tokens.join(' '),
      ...(r.group !== undefined ? { group: r.group } : {}),
    });
    cursor = r.end;
  }
  tokens.push(...example.tokens.slice(cursor));
  tags.push(...example.tags.slice(cursor));
  return { example: { ...example, tokens, tags }, edits };
}

/** The tags of n new tokens that replace tokens tagged `old`: one entity stays one entity, O stays O. */
function followTags(old: readonly string[], n: number, nextTag: string | undefined, id: string): string[] {
  if (old.length === 0) {
    if (nextTag?.startsWith('I-')) throw new RangeError(`${id}: a token insertion would split an entity`);
    return Array.from({ length: n }, () => 'O');
  }
  if (old.every((t) => t === 'O')) return Array.from({ length: n }, () => 'O');
  const types = new Set(old.map((t) => t.replace(/^[BI]-/, '')));
  const oneEntity = types.size === 1 && old.every((t, i) => t !== 'O' && (i === 0 || t.startsWith('I-')));
  if (!oneEntity) throw new RangeError(`${id}: a token rewrite must cover one entity or only O tokens, not [${old.join(' ')}]`);
  const type = [...types][0]!;
  return Array.from({ length: n }, (_, i) => (i === 0 ? old[0]! : `I-${type}`));
}
