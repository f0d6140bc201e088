/**
 * A QA result as the example browser shows it: the question with its edits, the context before and after the
 * attack with the gold answers and the model's answer of each side drawn as spans, and EM/F1 per side.
 */
import { answersOf, goldTexts, type ExampleResult, type QaGoldAnswer } from '../../core/result.ts';

export { goldTexts, isQaResult } from '../../core/result.ts';
import type { Prediction } from '../../core/goals/index.ts';
import { textSegments, type Segment } from './highlight.ts';
import { foldPieces, GOLD, overlaySpans, PRED, type FoldOptions, type QaPiece, type Span } from './qa-spans.ts';

/** The QA part of a browser example (short keys: the data island is the bulk of the file). */
export interface QaCard {
  /** The context, both sides at once, with spans and edits; far parts folded. */
  c: QaPiece[];
  /** The distinct gold answer texts. */
  ga: string[];
  /** EM and F1 before, EM and F1 after; null where the result does not hold them. */
  m: [number | null, number | null, number | null, number | null];
  /** What could not be drawn, and why. */
  n?: string;
}

/**
 * The question's segments (edits of the question highlighted) and the QA card. Spans are drawn only where their
 * text is at their offsets in that side's context; the note says what was left out.
 */
export function qaCard(r: ExampleResult, typeIndex: (t: string) => number, fold: FoldOptions = {}): { x: Segment[]; q: QaCard } {
  const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
  const q0 = str(r.original.question) ?? '';
  const x = textSegments(
    q0,
    str(r.perturbed.question) ?? q0,
    r.edits.filter((e) => e.field === 'question'),
    typeIndex,
  );
  const gold = answersOf(r.gold) ?? [];
  const card: QaCard = {
    c: [],
    ga: goldTexts(gold),
    m: [num(r.original_prediction.em), num(r.original_prediction.f1), num(r.perturbed_prediction.em), num(r.perturbed_prediction.f1)],
  };
  const c0 = str(r.original.context);
  if (c0 === undefined)
    return { x, q: { ...card, n: 'the context is not kept in these results (compact results keep the texts of successful attacks only)' } };
  const c1 = str(r.perturbed.context) ?? c0;
  const notes: string[] = [];
  // Gold answers after the attack: re-mapped by the edits when recorded, else where they were (unchanged context).
  const goldAfter = answersOf(r.perturbed_gold) ?? (c1 === c0 ? gold : undefined);
  if (!goldAfter) notes.push('the gold answers’ offsets in the edited context are not recorded (no perturbed_gold)');
  const before = [...goldSpans(c0, gold, notes, 'before'), ...predSpan(c0, r.original_prediction, notes, 'before')];
  const after = [...goldSpans(c1, goldAfter ?? [], notes, 'after'), ...predSpan(c1, r.perturbed_prediction, notes, 'after')];
  const segs = textSegments(
    c0,
    c1,
    r.edits.filter((e) => e.field === 'context'),
    typeIndex,
  );
  card.c = foldPieces(overlaySpans(segs, before, after), fold);
  if (notes.length) card.n = `not drawn: ${notes.join('; ')}`;
  return { x, q: card };
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? Math.round(v * 1000) / 1000 : null);

function goldSpans(context: string, gold: readonly QaGoldAnswer[], notes: string[], side: string): Span[] {
  const spans: Span[] = [];
  let misplaced = 0;
  for (const a of gold) {
    const end = a.start + a.text.length;
    if (a.start < 0 || context.slice(a.start, end) !== a.text) misplaced++;
    else if (a.text && !spans.some((s) => s.start === a.start && s.end === end))
      spans.push(snap(context, { start: a.start, end, bit: GOLD }));
  }
  if (misplaced)
    notes.push(
      `${misplaced} gold answer${misplaced === 1 ? ' is' : 's are'} not at ` +
        `${misplaced === 1 ? 'its offset' : 'their offsets'} in the context ${side} the attack`,
    );
  return spans;
}

function predSpan(context: string, p: Prediction, notes: string[], side: string): Span[] {
  const a = p.answer;
  if (!a || a.start === a.end) return [];
  if (a.start < 0 || context.slice(a.start, a.end) !== a.text) {
    notes.push(`the model’s answer ${side} the attack is not at its offsets in the context`);
    return [];
  }
  return [snap(context, { start: a.start, end: a.end, bit: PRED })];
}

/** Widens a span that starts or ends inside a surrogate pair to the whole character. */
function snap(s: string, span: Span): Span {
  const low = (i: number): boolean => i > 0 && i < s.length && s.charCodeAt(i) >= 0xdc00 && s.charCodeAt(i) <= 0xdfff;
  return { ...span, start: low(span.start) ? span.start - 1 : span.start, end: low(span.end) ? span.end + 1 : span.end };
}
