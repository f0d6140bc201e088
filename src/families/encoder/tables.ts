/**
 * What probe-layers and probe-heads runs record (summary details) and the paper's layouts built from it: Table 7
 * (probe accuracy, layer × error type), Table 8 (probe top-2 localisation), Figure 3 (head × layer localisation).
 * Shares are kept as hits and n, so a cell over zero sentences reads "n/a", never 0.
 */
import { wilson, type Interval } from '../../stats/index.ts';
import type { Share, TypeResult } from './index.ts';

export interface EncoderDetails {
  id: string;
  architecture: string;
  layers: number;
  heads: number;
  hiddenSize: number;
  /** Whether the graph exported its inner tensors (else textstress exposed them). */
  exported: boolean;
}

export interface SentenceDetails {
  /** Absent in runs recorded before the sentences design existed: pairs. */
  design?: 'sentences' | 'pairs';
  sources: Record<string, number>;
  pairsMade: Record<string, number>;
  /** The sentences design: sentences per type, and how many of them carry errors. */
  sentencesMade?: Record<string, number>;
  withErrors?: Record<string, number>;
  sentencesTried: number;
}

export interface LayerDetails {
  encoder: EncoderDetails;
  sentences: SentenceDetails;
  types: TypeResult[];
  examples: { type: string; layer: number; tokens: string[]; attention: number[]; errorTokens: number[]; probability: number }[];
  headQuery: 'all' | 'cls';
  probes: boolean;
  /**
   * 95% intervals of the headline figures (layer 0 and the best layer, accuracy and localisation), by the metric's
   * name: Wilson over the test sentences of every type pooled at that layer (the headline figure is the mean over
   * types, which equals the pooled share when the types have as many test sentences). Absent in older runs.
   */
  intervals?: Record<string, Interval>;
}

/** The headline figures' intervals (see LayerDetails.intervals); the best layer is chosen as the metrics choose it. */
export function headlineIntervals(types: readonly TypeResult[]): Record<string, Interval> {
  const out: Record<string, Interval> = {};
  for (const [name, pick] of [
    ['accuracy', (t: TypeResult) => t.accuracy],
    ['localisation', (t: TypeResult) => t.localisation],
  ] as const) {
    const layers = Math.max(0, ...types.map((t) => pick(t)?.length ?? 0));
    if (layers === 0) continue;
    const pooled = (l: number): Interval => {
      let hits = 0;
      let n = 0;
      for (const t of types) {
        const s = pick(t)?.[l];
        if (s) {
          hits += s.hits;
          n += s.n;
        }
      }
      return wilson(hits, n);
    };
    const mean = (l: number): number | null => meanOf(types.map((t) => rate(pick(t)?.[l])));
    let best = -1;
    for (let l = 1; l < layers; l++) if (mean(l) !== null && (best < 0 || mean(l)! > mean(best)!)) best = l;
    out[`layer0_${name}`] = pooled(0);
    if (best > 0) out[`best_layer_${name}`] = pooled(best);
  }
  return out;
}

export const rate = (s: Share | undefined): number | null => (s && s.n > 0 ? s.hits / s.n : null);
const cell = (v: number | null): string => (v === null ? 'n/a' : (100 * v).toFixed(1));

/** Mean of the non-null values (null when there are none). */
export function meanOf(xs: readonly (number | null)[]): number | null {
  const ok = xs.filter((x): x is number => x !== null && Number.isFinite(x));
  return ok.length ? ok.reduce((a, b) => a + b, 0) / ok.length : null;
}

const layerName = (l: number): string => (l === 0 ? '0 (embeddings)' : String(l));

/** Layer × error type, percent, with the mean over types; `pick` chooses accuracy (Table 7) or localisation (Table 8). */
export function layerTable(d: LayerDetails, pick: 'accuracy' | 'localisation'): { head: string[]; rows: string[][] } {
  const head = ['layer', ...d.types.map((t) => t.type), 'mean'];
  const rows: string[][] = [];
  for (let l = 0; l <= d.encoder.layers; l++) {
    const vals = d.types.map((t) => rate(t[pick]?.[l]));
    rows.push([layerName(l), ...vals.map(cell), cell(meanOf(vals))]);
  }
  if (pick === 'localisation') {
    const chance = d.types.map((t) => (Number.isFinite(t.chance) ? t.chance : null));
    rows.push(['random top-2', ...chance.map(cell), cell(meanOf(chance))]);
  }
  // n of every cell: Table 7 over all test sentences, Table 8 over those with an error
  const n = (t: TypeResult): number => (pick === 'accuracy' ? t.counts.test : (t.testWithErrors ?? t[pick]?.[0]?.n ?? 0));
  const label = pick === 'accuracy' ? 'test sentences' : 'test sentences with errors';
  rows.push([label, ...d.types.map((t) => String(n(t))), String(d.types.reduce((a, t) => a + n(t), 0))]);
  const test = (t: TypeResult) => (pick === 'accuracy' ? t.accuracyBestVsLayer0 : t.localisationBestVsLayer0);
  if (d.types.some((t) => test(t))) {
    rows.push([
      'best vs 0: McNemar p',
      ...d.types.map((t) => {
        const c = test(t);
        return c ? `L${c.layer} ${c.p < 0.001 ? '<0.001' : c.p.toFixed(3)}` : 'n/a';
      }),
      '',
    ]);
  }
  return { head, rows };
}

/** Per layer and head, the share of test sentences (all error types pooled) whose error the head's top 2 hold. */
export function headGrid(d: LayerDetails): (number | null)[][] {
  return Array.from({ length: d.encoder.layers }, (_, l) =>
    Array.from({ length: d.encoder.heads }, (_, h) => {
      let hits = 0;
      let n = 0;
      for (const t of d.types) {
        const s = t.heads?.[l]?.[h];
        if (s) {
          hits += s.hits;
          n += s.n;
        }
      }
      return n > 0 ? hits / n : null;
    }),
  );
}

export function headTable(d: LayerDetails): { head: string[]; rows: string[][] } {
  const grid = headGrid(d);
  return {
    head: ['layer', ...Array.from({ length: d.encoder.heads }, (_, h) => `head ${h + 1}`), 'best'],
    rows: grid.map((row, l) => [
      String(l + 1),
      ...row.map(cell),
      cell(row.reduce<number | null>((a, b) => (b !== null && (a === null || b > a) ? b : a), null)),
    ]),
  };
}

function draw(title: string, t: { head: string[]; rows: string[][] }): string {
  const widths = t.head.map((h, i) => Math.max(h.length, ...t.rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]): string => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [title, line(t.head), ...t.rows.map(line)].join('\n');
}

/** What the terminal shows for a probe-layers or probe-heads run. */
export function layerText(d: LayerDetails): string {
  const e = d.encoder;
  const parts = [
    `${e.id}: ${e.layers} layers × ${e.heads} heads, hidden ${e.hiddenSize} ` +
      `(${e.exported ? 'inner tensors exported by the model' : 'inner tensors exposed from the ONNX graph'})`,
  ];
  if (d.probes) {
    parts.push(draw('Table 7 layout: probe accuracy on the test sentences (%), per layer and error type', layerTable(d, 'accuracy')));
    parts.push(
      draw(
        "Table 8 layout: the probe attention's top 2 tokens include the error (%), test sentences with an error",
        layerTable(d, 'localisation'),
      ),
    );
  }
  if (d.types.some((t) => t.heads)) {
    parts.push(
      draw(
        `Figure 3 layout: each head's top 2 tokens (${d.headQuery === 'cls' ? '[CLS] row' : 'attention received'}) include the error (%), all types`,
        headTable(d),
      ),
    );
  }
  const sd = d.sentences;
  if (sd.design === 'sentences') {
    const made = Object.entries(sd.sentencesMade ?? {})
      .map(([t, n]) => `${t} ${n} (${sd.withErrors?.[t] ?? 0} with errors)`)
      .join(', ');
    parts.push(`sentences per type (10–60 words): ${made} (from ${sd.sentencesTried} sentences tried); ${sourcesLine(sd)}`);
  } else {
    const made = Object.entries(sd.pairsMade)
      .map(([t, n]) => `${t} ${n}`)
      .join(', ');
    parts.push(`minimal pairs made per type: ${made} (from ${sd.sentencesTried} sentences tried); ${sourcesLine(sd)}`);
  }
  parts.push(
    'Cells are shares of the test sentences (n in the last row); Wilson 95% intervals in summary.json (details.types); ' +
      'McNemar: the best contextual layer against layer 0 on the same sentences.',
  );
  return parts.join('\n\n');
}

/** Where the sentences came from, with how many usable sentences each gave. */
export function sourcesLine(s: SentenceDetails): string {
  return `sentences from ${Object.entries(s.sources)
    .map(([src, n]) => `${src} (${n})`)
    .join(', ')}`;
}

export function layerDetailsOf(details: Record<string, unknown> | undefined): LayerDetails | undefined {
  const d = details as LayerDetails | undefined;
  return d && Array.isArray(d.types) && d.encoder ? d : undefined;
}
