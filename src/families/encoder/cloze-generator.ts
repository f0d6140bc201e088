/**
 * The cloze test as a generator: one step per error type (resumable after each); `finish` pools the types into
 * the Figure 4 layout (mean likelihood drop per error type × signed distance from the error) and cloze.json.
 */
import type { BuildContext } from '../../recipes/registry/define.ts';
import type { GenerateContext, Generator } from '../../core/generate.ts';
import type { GrammarErrorType } from '../../perturb/grammar/index.ts';
import { clozeTest, type ClozeCell, type ClozeUnit } from './domain.ts';
import { bootstrap, type Interval } from '../../stats/index.ts';
import { defaultClozeText, preparer } from './prepare.ts';
import { sourcesLine, type EncoderDetails, type SentenceDetails } from './tables.ts';

export interface ClozeRunOptions {
  modelId: string;
  openEncoder: BuildContext['openEncoder'];
  types: GrammarErrorType[];
  pairs: number;
  text: string[];
  window: number;
  maxLength: number;
  seed: number;
}

export interface ClozeTypeRecord {
  type: string;
  used: number;
  skipped: number;
  cells: ClozeCell[];
  /** Per used pair: drop sums and token counts next to the error and `window` away (absent in older runs). */
  units?: ClozeUnit[];
}

/**
 * Bootstrap 95% intervals of the near, far and near − far drops, resampling whole pairs (all types pooled), seeded
 * from the run's seed; n = pairs.
 */
export function clozeIntervals(
  units: readonly ClozeUnit[],
  seed: number,
): Record<'near_error_drop' | 'far_drop' | 'near_minus_far', Interval> {
  const ratio = (idx: Uint32Array, s: 0 | 2): number | null => {
    let sum = 0;
    let n = 0;
    for (const i of idx) {
      sum += units[i]![s];
      n += units[i]![s + 1]!;
    }
    return n > 0 ? sum / n : null;
  };
  const near = (idx: Uint32Array) => ratio(idx, 0);
  const far = (idx: Uint32Array) => ratio(idx, 2);
  return {
    near_error_drop: bootstrap(units.length, near, { seed: `${seed}:cloze:near` }),
    far_drop: bootstrap(units.length, far, { seed: `${seed}:cloze:far` }),
    near_minus_far: bootstrap(
      units.length,
      (idx) => {
        const a = near(idx);
        const b = far(idx);
        return a !== null && b !== null ? a - b : null;
      },
      { seed: `${seed}:cloze:difference` },
    ),
  };
}

export interface ClozeDetails {
  encoder: EncoderDetails;
  sentences: SentenceDetails;
  window: number;
  types: ClozeTypeRecord[];
  /** All types pooled (weighted by tokens measured). */
  all: ClozeCell[];
  /** Bootstrap intervals of near_error_drop, far_drop and near_minus_far (over pairs); absent in older runs. */
  intervals?: Record<'near_error_drop' | 'far_drop' | 'near_minus_far', Interval>;
}

type State = { done: number };

/** Cells of several types pooled: each distance's mean over every token measured there. */
export function poolCells(types: readonly ClozeTypeRecord[], window: number): ClozeCell[] {
  const out: ClozeCell[] = [];
  for (let d = -window; d <= window; d++) {
    if (d === 0) continue;
    let n = 0;
    let drop = 0;
    let log = 0;
    for (const t of types) {
      const c = t.cells.find((x) => x.distance === d);
      if (!c || c.n === 0) continue;
      n += c.n;
      drop += c.meanDrop * c.n;
      log += c.meanLogDrop * c.n;
    }
    out.push({ distance: d, n, meanDrop: n ? drop / n : Number.NaN, meanLogDrop: n ? log / n : Number.NaN });
  }
  return out;
}

/** Mean drop over the tokens next to the error (|d| = 1) and over those `window` away (|d| = window). */
export function nearFar(
  cells: readonly ClozeCell[],
  window: number,
): { near: number | null; far: number | null; nearN: number; farN: number } {
  const side = (k: number) => cells.filter((c) => Math.abs(c.distance) === k && c.n > 0);
  const mean = (cs: ClozeCell[]) => {
    const n = cs.reduce((a, c) => a + c.n, 0);
    return { v: n ? cs.reduce((a, c) => a + c.meanDrop * c.n, 0) / n : null, n };
  };
  const a = mean(side(1));
  const b = mean(side(window));
  return { near: a.v, far: b.v, nearN: a.n, farN: b.n };
}

export function clozeGenerator(name: string, o: ClozeRunOptions): Generator<State> {
  // The cloze test reads only the masked-LM logits: no hidden-state or attention discovery.
  const prep = preparer({ ...o, defaultText: defaultClozeText, internals: false });
  return {
    name,
    steps: o.types.length,
    init: () => ({ done: 0 }),
    async step(state: State, ctx: GenerateContext) {
      const { encoder, type, pairs } = await prep.step(ctx.step);
      const r = await clozeTest(encoder, pairs, { window: o.window });
      const cells = r.types.find((t) => t.type === type)?.cells ?? [];
      const record: ClozeTypeRecord = { type, used: r.used, skipped: r.skipped, cells, units: r.units };
      const nf = nearFar(cells, o.window);
      return {
        state: { done: state.done + 1 },
        records: [record as unknown as Record<string, unknown>],
        stats: {
          pairs_used: r.used,
          pairs_skipped: r.skipped,
          masked_queries: r.maskedQueries,
          seconds: r.seconds,
          near_drop: nf.near ?? Number.NaN,
          far_drop: nf.far ?? Number.NaN,
        },
      };
    },
    measured: (stats) => stats.reduce((a, s) => a + (s.pairs_used ?? 0), 0),
    summarize(stats) {
      return {
        pairs_used: stats.reduce((a, s) => a + (s.pairs_used ?? 0), 0),
        pairs_skipped: stats.reduce((a, s) => a + (s.pairs_skipped ?? 0), 0),
        masked_queries: stats.reduce((a, s) => a + (s.masked_queries ?? 0), 0),
      };
    },
    async finish(_state: State, ctx: GenerateContext) {
      const { sentences, encoderDetails } = await prep.get();
      const types: ClozeTypeRecord[] = [];
      for await (const rec of ctx.records()) types.push(rec as unknown as ClozeTypeRecord);
      await prep.close();
      const all = poolCells(types, o.window);
      const nf = nearFar(all, o.window);
      const intervals = clozeIntervals(
        types.flatMap((t) => t.units ?? []),
        o.seed,
      );
      // the per-pair units served the intervals; the details keep the table
      // (a generator's metrics are numbers only, so the intervals of the three metrics sit in the details, by their names)
      const details: ClozeDetails = {
        encoder: encoderDetails,
        sentences,
        window: o.window,
        types: types.map(({ units: _u, ...t }) => t),
        all,
        intervals,
      };
      return {
        details: details as unknown as Record<string, unknown>,
        metrics: {
          near_error_drop: nf.near,
          far_drop: nf.far,
          near_minus_far: nf.near !== null && nf.far !== null ? nf.near - nf.far : null,
        },
        files: {
          'cloze.json': JSON.stringify({ model: encoderDetails, window: o.window, all, types: details.types, intervals }, null, 2) + '\n',
        },
      };
    },
    text: (summary) => {
      const d = summary.details as unknown as ClozeDetails | undefined;
      return d ? clozeText(d) : JSON.stringify(summary.metrics);
    },
  };
}

const ci = (iv: Interval | undefined): string =>
  iv && iv.low !== null && iv.high !== null ? ` [${(100 * iv.low).toFixed(2)}, ${(100 * iv.high).toFixed(2)}]` : '';

const num = (v: number, n: number): string => (Number.isFinite(v) && n > 0 ? (100 * v).toFixed(2) : 'n/a');

/** The Figure 4 layout: rows = error types (and all), columns = signed distance; mean drop in probability points. */
export function clozeText(d: ClozeDetails): string {
  const dists = d.all.map((c) => c.distance);
  const head = ['type', 'pairs', ...dists.map((x) => (x > 0 ? `+${x}` : String(x)))];
  const rows = [
    ...d.types.map((t) => [
      t.type,
      String(t.used),
      ...dists.map((x) => {
        const c = t.cells.find((y) => y.distance === x);
        return c ? num(c.meanDrop, c.n) : 'n/a';
      }),
    ]),
    ['all', String(d.types.reduce((a, t) => a + t.used, 0)), ...d.all.map((c) => num(c.meanDrop, c.n))],
  ];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' ');
  const nf = nearFar(d.all, d.window);
  const skipped = d.types.reduce((a, t) => a + t.skipped, 0);
  return [
    `${d.encoder.id}: cloze test, mean drop of P(true token) × 100 when the sentence has the error, by distance from it (Figure 4 layout)`,
    line(head),
    ...rows.map(line),
    `next to the error (|d| = 1): ${nf.near === null ? 'n/a' : (100 * nf.near).toFixed(2)}${ci(d.intervals?.near_error_drop)}; ` +
      `${d.window} away: ${nf.far === null ? 'n/a' : (100 * nf.far).toFixed(2)}${ci(d.intervals?.far_drop)} (probability points; ` +
      `95% bootstrap intervals over ${d.intervals?.near_error_drop.n ?? 0} pairs)`,
    `${skipped} pair(s) left out: their token sequences differ in more than one position (insertions, deletions, ` +
      `swaps, or a word split into another number of pieces).`,
    sourcesLine(d.sentences),
  ].join('\n');
}
