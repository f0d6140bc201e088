/**
 * What probe-layers and probe-heads runs record (summary details) and the paper's layouts built from it: Table 7
 * (probe accuracy, layer × error type), Table 8 (probe top-2 localisation), Figure 3 (head × layer localisation).
 * Shares are kept as hits and n, so a cell over zero sentences reads "n/a", never 0.
 */
import { stratifiedWilson, wilson, type Interval } from '../../stats/index.ts';
import type { Share, TypeResult } from './domain.ts';
import { bestLayerOf, comparisonText } from './layers.ts';

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
   * 95% intervals of the headline figures (layer 0 and the best layer, accuracy and localisation; the best head), by
   * the metric's name. Each headline figure is a mean over error types: Wilson's interval at Kish's effective sample
   * size (stratifiedWilson; the pooled Wilson interval when the types have as many test sentences), n = the test
   * sentences of every type. The best layer and the best head are chosen on the dev split. Absent in older runs.
   */
  intervals?: Record<string, Interval>;
}

/** A share's hits and n, 0/0 when absent. */
const hitsOf = (s: Share | undefined): { hits: number; n: number } => ({ hits: s?.hits ?? 0, n: s?.n ?? 0 });

/**
 * The best contextual layer of a figure for the headline: the highest mean over types of its dev-split score (dev
 * accuracy, dev localisation), the first on ties; -1 without dev scores (older runs). As summarize chooses it.
 */
export function bestLayerByDev(devScores: readonly (readonly (number | null)[] | undefined)[]): number {
  const layers = Math.max(0, ...devScores.map((d) => d?.length ?? 0));
  return bestLayerOf(Array.from({ length: layers }, (_, l) => meanOf(devScores.map((d) => d?.[l] ?? null))));
}

/** The headline figures' intervals (see LayerDetails.intervals); layers and heads chosen on dev, as the metrics are. */
export function headlineIntervals(types: readonly TypeResult[]): Record<string, Interval> {
  const out: Record<string, Interval> = {};
  for (const [name, pick, dev] of [
    ['accuracy', (t: TypeResult) => t.accuracy, (t: TypeResult) => t.devAccuracy],
    ['localisation', (t: TypeResult) => t.localisation, (t: TypeResult) => t.devLocalisation],
  ] as const) {
    const layers = Math.max(0, ...types.map((t) => pick(t)?.length ?? 0));
    if (layers === 0) continue;
    const at = (l: number): Interval => stratifiedWilson(types.map((t) => hitsOf(pick(t)?.[l])));
    out[`layer0_${name}`] = at(0);
    const best = bestLayerByDev(types.map(dev));
    if (best > 0) out[`best_layer_${name}`] = at(best);
  }
  const head = bestHead(types);
  if (head) out.best_head_localisation = head.interval;
  return out;
}

/**
 * The best attention head (all error types pooled): the highest share on the dev split's sentences with an error,
 * measured on the test ones with its Wilson interval. Undefined without heads (or dev heads: older runs).
 */
export function bestHead(types: readonly TypeResult[]): { layer: number; head: number; interval: Interval } | undefined {
  const pooled = (grid: (t: TypeResult) => Share[][] | undefined, l: number, h: number) =>
    types.reduce((a, t) => ({ hits: a.hits + (grid(t)?.[l]?.[h]?.hits ?? 0), n: a.n + (grid(t)?.[l]?.[h]?.n ?? 0) }), { hits: 0, n: 0 });
  const layers = Math.max(0, ...types.map((t) => t.headsDev?.length ?? 0));
  let best: { layer: number; head: number; dev: number } | undefined;
  for (let l = 0; l < layers; l++) {
    const heads = Math.max(0, ...types.map((t) => t.headsDev?.[l]?.length ?? 0));
    for (let h = 0; h < heads; h++) {
      const d = pooled((t) => t.headsDev, l, h);
      if (d.n > 0 && (!best || d.hits / d.n > best.dev)) best = { layer: l, head: h, dev: d.hits / d.n };
    }
  }
  if (!best) return undefined;
  const t = pooled((x) => x.heads, best.layer, best.head);
  return { layer: best.layer, head: best.head, interval: wilson(t.hits, t.n) };
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
    // The best layer (chosen on dev) against layer 0 on the test sentences: the difference in sentences, signed
    // (right only on it − right only on layer 0), and McNemar's p. Older runs chose on the test sentences.
    const dev = d.types.some((t) => test(t)?.chosenOn === 'dev');
    rows.push([
      dev ? 'best (dev) vs 0: Δ, p' : 'best vs 0: McNemar p',
      ...d.types.map((t) => {
        const c = test(t);
        if (!c) return 'n/a';
        const p = c.p < 0.001 ? '<0.001' : c.p.toFixed(3);
        if (c.chosenOn !== 'dev') return `L${c.layer} ${p}`;
        const diff = c.onlyBest - c.onlyLayer0;
        return `L${c.layer} ${diff > 0 ? '+' : diff < 0 ? '−' : '±'}${Math.abs(diff)} p ${p}`;
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
  const comparisons = d.types.flatMap((t) =>
    (
      [
        ['accuracy', t.accuracyBestVsLayer0],
        ['localisation', t.localisationBestVsLayer0],
      ] as const
    ).flatMap(([what, c]) => (c?.chosenOn === 'dev' ? [`  ${t.type} ${what}: ${comparisonText(c)}`] : [])),
  );
  if (comparisons.length)
    parts.push(
      'Best contextual layer (chosen on the dev split) against layer 0 on the test sentences (exact McNemar; the layer ' +
        'was not chosen on these sentences, so no correction for the choice is needed):\n' +
        comparisons.join('\n'),
    );
  const head = bestHead(d.types);
  if (head)
    parts.push(
      `Best head (chosen on the dev split): layer ${head.layer + 1}, head ${head.head + 1}, ` +
        `${cell(head.interval.value)}% of ${head.interval.n} test sentences with an error [${cell(head.interval.low)}, ${cell(head.interval.high)}].`,
    );
  parts.push(
    'Cells are shares of the test sentences (n in the last row); Wilson 95% intervals in summary.json (details.types; ' +
      'the means over types, details.intervals: Wilson at the effective sample size of the types).',
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
