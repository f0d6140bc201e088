/**
 * Reading a chat model's answer as a task output. Classification: by the log-probabilities of the label tokens (a
 * real class distribution, so greedy searches have a score to climb), or from the answer text by normalised exact
 * match, the first or last label named, a regex, or JSON. Tagging and QA: JSON, validated. An answer that cannot
 * be read is returned as `unmappable` with the raw text: its own outcome, never scored as a label.
 */
import { z } from 'zod';
import type { ClassOutput, SpanOutput, TagOutput } from '../types.ts';

/** How a classifier's answer becomes a label. */
export type LabelMapping = 'logprobs' | 'exact' | 'first' | 'last' | 'regex' | 'json';
export const LABEL_MAPPINGS: readonly LabelMapping[] = ['logprobs', 'exact', 'first', 'last', 'regex', 'json'];

/** One alternative token of the answer's first position, as the API lists it. */
export interface TopLogprob {
  token: string;
  logprob: number;
}

/** What mapping reads of one chat answer. */
export interface ChatAnswer {
  content: string;
  /** Alternatives for the first generated token, when the server gave logprobs; undefined when it gave none. */
  firstTokenTop?: readonly TopLogprob[];
}

const MAX_SHOWN = 200;

/** The raw answer as an unmappable output keeps it: one line, shortened. */
export function shorten(answer: string): string {
  const flat = answer.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_SHOWN ? `${flat.slice(0, MAX_SHOWN)}…` : flat;
}

/** Lower case, no surrounding space, quotes, brackets or final punctuation: "**Positive.**" → "positive". */
export function normalise(s: string): string {
  return s
    .toLowerCase()
    .trim()
    .replace(/^[\s"'`*_([{<«“‘]+|[\s"'`*_)\]}>»”’.,;:!?]+$/gu, '')
    .replace(/\s+/g, ' ');
}

function oneHot(labels: readonly string[], k: number): ClassOutput {
  return { kind: 'classes', labels: labels.slice(), probs: labels.map((_, i) => (i === k ? 1 : 0)) };
}

function unmappableClasses(labels: readonly string[], answer: string): ClassOutput {
  return { kind: 'classes', labels: labels.slice(), probs: labels.map(() => 0), unmappable: shorten(answer) };
}

/** Escapes a string for use inside a RegExp. */
function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Every label named in the text as a whole word (phrase), with where it starts; longer labels win at the same place. */
function labelMentions(text: string, labels: readonly string[]): { at: number; k: number }[] {
  const lower = text.toLowerCase();
  const found: { at: number; k: number; len: number }[] = [];
  labels.forEach((label, k) => {
    const norm = normalise(label);
    if (!norm) return;
    const re = new RegExp(`(?<![\\p{L}\\p{N}_])${escapeRe(norm)}(?![\\p{L}\\p{N}_])`, 'gu');
    for (const m of lower.matchAll(re)) found.push({ at: m.index, k, len: norm.length });
  });
  found.sort((a, b) => a.at - b.at || b.len - a.len);
  // A shorter label inside a longer one at the same start ("not entailment" vs "entailment" starts later) is dropped.
  return found.filter((f, i) => i === 0 || f.at !== found[i - 1]!.at);
}

/** The label an answer text names, by `mapping` (exact, first, last, regex); -1 when none. */
export function labelFromText(
  answer: string,
  labels: readonly string[],
  mapping: Exclude<LabelMapping, 'logprobs' | 'json'>,
  regex?: RegExp,
): number {
  if (mapping === 'regex') {
    if (!regex) throw new Error('regex mapping needs a regex');
    const m = regex.exec(answer);
    if (!m) return -1;
    const picked = m[1] ?? m[0];
    return labels.findIndex((l) => normalise(l) === normalise(picked));
  }
  if (mapping === 'exact') return labels.findIndex((l) => normalise(l) === normalise(answer));
  const mentions = labelMentions(answer, labels);
  if (!mentions.length) return -1;
  return (mapping === 'first' ? mentions[0]! : mentions[mentions.length - 1]!).k;
}

/**
 * Class probabilities from the first token's top log-probabilities: each label takes the best alternative whose
 * normalised text is a non-empty prefix of that label and of no other (" Pos" → "positive"), renormalised over
 * the labels. undefined when no alternative names a label.
 */
export function labelsFromLogprobs(top: readonly TopLogprob[], labels: readonly string[]): number[] | undefined {
  const norms = labels.map(normalise);
  const best: number[] = labels.map(() => -Infinity);
  for (const alt of top) {
    const t = normalise(alt.token);
    if (!t) continue;
    const owners = norms.flatMap((n, k) => (n.startsWith(t) ? [k] : []));
    if (owners.length !== 1) continue;
    const k = owners[0]!;
    if (alt.logprob > best[k]!) best[k] = alt.logprob;
  }
  const max = Math.max(...best);
  if (max === -Infinity) return undefined;
  const weights = best.map((lp) => (lp === -Infinity ? 0 : Math.exp(lp - max)));
  const sum = weights.reduce((a, b) => a + b, 0);
  return weights.map((w) => w / sum);
}

/** The JSON object in an answer: the whole text, or the first {...} in it (models wrap JSON in prose or fences). */
export function jsonOf(answer: string): unknown {
  const text = answer.trim();
  try {
    return JSON.parse(text);
  } catch {
    const start = text.indexOf('{');
    const end = text.lastIndexOf('}');
    if (start < 0 || end <= start) return undefined;
    try {
      return JSON.parse(text.slice(start, end + 1));
    } catch {
      return undefined;
    }
  }
}

/** A classifier's answer as class probabilities (or unmappable). */
export function mapClassAnswer(answer: ChatAnswer, labels: readonly string[], mapping: LabelMapping, regex?: RegExp): ClassOutput {
  if (mapping === 'logprobs') {
    const probs = answer.firstTokenTop ? labelsFromLogprobs(answer.firstTokenTop, labels) : undefined;
    if (probs) return { kind: 'classes', labels: labels.slice(), probs };
    // The first token names no label (an answer that starts with prose): the text may still name one.
    const k = labelFromText(answer.content, labels, 'exact');
    return k >= 0 ? oneHot(labels, k) : unmappableClasses(labels, answer.content);
  }
  if (mapping === 'json') {
    const parsed = z.object({ label: z.string() }).safeParse(jsonOf(answer.content));
    const k = parsed.success ? labels.findIndex((l) => normalise(l) === normalise(parsed.data.label)) : -1;
    return k >= 0 ? oneHot(labels, k) : unmappableClasses(labels, answer.content);
  }
  const k = labelFromText(answer.content, labels, mapping, regex);
  return k >= 0 ? oneHot(labels, k) : unmappableClasses(labels, answer.content);
}

/** A tagger's JSON answer {"tags": [...]}: one known tag per token, or unmappable. */
export function mapTagAnswer(answer: string, tokens: readonly string[], tagSet: readonly string[] | undefined): TagOutput {
  const parsed = z.object({ tags: z.array(z.string()) }).safeParse(jsonOf(answer));
  const tags = parsed.success ? parsed.data.tags.map((t) => t.trim()) : undefined;
  const known = (t: string): boolean => !tagSet?.length || tagSet.includes(t);
  if (!tags || tags.length !== tokens.length || !tags.every(known)) {
    return { kind: 'tags', tags: tokens.map(() => 'O'), scores: tokens.map(() => 0), unmappable: shorten(answer) };
  }
  return { kind: 'tags', tags, scores: tags.map(() => 1) };
}

/**
 * A QA model's JSON answer {"answer": "..."} located in the context (exactly, else ignoring case): the span, or
 * the text with offsets -1 when the model did not copy it from the context; unmappable when there is no answer field.
 */
export function mapQaAnswer(answer: string, context: string): SpanOutput {
  const parsed = z.object({ answer: z.string() }).safeParse(jsonOf(answer));
  if (!parsed.success) return { kind: 'spans', spans: [], unmappable: shorten(answer) };
  const text = parsed.data.answer.trim();
  if (!text) return { kind: 'spans', spans: [] };
  let start = context.indexOf(text);
  if (start < 0) start = context.toLowerCase().indexOf(text.toLowerCase());
  if (start < 0) return { kind: 'spans', spans: [{ text, start: -1, end: -1, score: 1 }] };
  return { kind: 'spans', spans: [{ text: context.slice(start, start + text.length), start, end: start + text.length, score: 1 }] };
}

/** The JSON schema a structured-output request asks for, per input kind (the label / tag sets as enums). */
export function answerSchema(kind: 'classes' | 'tags' | 'spans', labels: readonly string[]): Record<string, unknown> {
  if (kind === 'classes')
    return { type: 'object', properties: { label: { type: 'string', enum: labels } }, required: ['label'], additionalProperties: false };
  if (kind === 'tags') {
    return {
      type: 'object',
      properties: { tags: { type: 'array', items: labels.length ? { type: 'string', enum: labels } : { type: 'string' } } },
      required: ['tags'],
      additionalProperties: false,
    };
  }
  return { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'], additionalProperties: false };
}
