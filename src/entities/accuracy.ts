/**
 * How well an annotator finds mentions (issue 34): its precision and recall against gold IOB tags (CoNLL-2003),
 * per entity type, on the text as written or lower-cased (SST-2's text is all lower case). A mention counts when
 * its span and type are exactly the gold one's (CoNLL's own scoring). Each share has a Wilson interval clustered by
 * sentence (a sentence's mentions are not independent: Korn & Graubard, src/stats), n = the sentences with any.
 */
import { entitySpans } from '../data/entities.ts';
import type { TokenExample } from '../data/types.ts';
import { clusteredWilson, type Interval } from '../stats/index.ts';
import { ENTITY_TYPES, type EntityType, type Mention, type MentionAnnotator } from './types.ts';

/** One type's (or all types') counts and shares. */
export interface MentionScore {
  /** Gold mentions, mentions found, and those found with the gold span and type. */
  gold: number;
  found: number;
  matched: number;
  /** matched / found and matched / gold, with their clustered Wilson intervals. */
  precision: Interval;
  recall: Interval;
  f1: number | null;
}

/** A found mention with no gold mention of its span and type: what the annotator got wrong, for reading. */
export interface FalseMention {
  id: string;
  type: EntityType;
  text: string;
  /** The gold type of the same span, when the span is an entity of another type. */
  gold?: string;
}

export interface AnnotatorScore {
  annotator: string;
  lowercase: boolean;
  sentences: number;
  byType: Record<EntityType | 'all', MentionScore>;
  /** The first false positives (at most `keep`), in data order. */
  falsePositives: FalseMention[];
}

/** A token example with its tokens lower-cased (the gold tags kept): text as SST-2 writes it. */
export function lowerCased(ex: TokenExample): TokenExample {
  return { ...ex, tokens: ex.tokens.map((t) => t.toLowerCase()) };
}

const key = (type: string, start: number, end: number): string => `${type}:${start}:${end}`;

/**
 * Scores `annotator` on tagged sentences (annotated in chunks of `chunk`); `lowercase` lower-cases the tokens first.
 * Mentions outside the tokens field (there are none for token examples) are ignored.
 */
export async function scoreAnnotator(
  annotator: MentionAnnotator,
  examples: AsyncIterable<TokenExample> | Iterable<TokenExample>,
  opts: { lowercase?: boolean; keep?: number; chunk?: number } = {},
): Promise<AnnotatorScore> {
  const types = [...ENTITY_TYPES, 'all'] as const;
  // Per sentence and type: gold, found, matched (the clusters of the intervals).
  const per = Object.fromEntries(types.map((t) => [t, { gold: [] as number[], found: [] as number[], matched: [] as number[] }])) as Record<
    (typeof types)[number],
    { gold: number[]; found: number[]; matched: number[] }
  >;
  const falsePositives: FalseMention[] = [];
  const keep = opts.keep ?? 50;
  let sentences = 0;
  let batch: TokenExample[] = [];
  const flush = async (): Promise<void> => {
    const found = await annotator.annotate(batch);
    batch.forEach((ex, i) => {
      sentences++;
      const gold = entitySpans(ex.tags).filter((s) => (ENTITY_TYPES as readonly string[]).includes(s.type));
      const goldKeys = new Set(gold.map((s) => key(s.type, s.start, s.end)));
      const goldBySpan = new Map(gold.map((s) => [`${s.start}:${s.end}`, s.type]));
      const mine = (found[i] ?? []).filter((m: Mention) => m.field === 'tokens');
      for (const t of types) {
        const g = gold.filter((s) => t === 'all' || s.type === t);
        const f = mine.filter((m) => t === 'all' || m.type === t);
        per[t].gold.push(g.length);
        per[t].found.push(f.length);
        per[t].matched.push(f.filter((m) => goldKeys.has(key(m.type, m.start, m.end))).length);
      }
      for (const m of mine) {
        if (goldKeys.has(key(m.type, m.start, m.end)) || falsePositives.length >= keep) continue;
        const other = goldBySpan.get(`${m.start}:${m.end}`);
        falsePositives.push({ id: ex.id, type: m.type, text: m.text, ...(other ? { gold: other } : {}) });
      }
    });
    batch = [];
  };
  for await (const ex of examples) {
    batch.push(opts.lowercase ? lowerCased(ex) : ex);
    if (batch.length >= (opts.chunk ?? 256)) await flush();
  }
  if (batch.length) await flush();
  const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);
  const score = (c: { gold: number[]; found: number[]; matched: number[] }): MentionScore => {
    const [gold, found, matched] = [sum(c.gold), sum(c.found), sum(c.matched)];
    return {
      gold,
      found,
      matched,
      precision: clusteredWilson(c.matched, c.found),
      recall: clusteredWilson(c.matched, c.gold),
      f1: gold + found ? (2 * matched) / (gold + found) : null,
    };
  };
  return {
    annotator: annotator.name,
    lowercase: opts.lowercase === true,
    sentences,
    byType: Object.fromEntries(types.map((t) => [t, score(per[t])])) as AnnotatorScore['byType'],
    falsePositives,
  };
}
