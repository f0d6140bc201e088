/**
 * The report sections of the encoder probes: a layer × error-type heat map of probe accuracy and of localisation
 * (Tables 7 and 8), a head × layer heat map (Figure 3), examples with the probe's attention per token (Appendix E),
 * and the cloze test's drop by distance from the error (Figure 4).
 * Contract with its runs: generator summaries of recipe probe-layers / probe-heads / cloze, details as tables.ts and
 * cloze-generator.ts declare.
 */
import type { TopLevelSpec } from 'vega-lite';
import { runLabel } from '../../recipes/report/charts.ts';
import { generatedFamily } from '../../recipes/report/generated.ts';
import type { ChartSpec, GeneratedRun, ReportTable } from '../../recipes/report/types.ts';
import type { ClozeDetails } from './cloze-generator.ts';
import { headGrid, layerDetailsOf, layerTable, rate, type LayerDetails } from './tables.ts';
import { withInterval } from '../../metrics/show.ts';

function heatMap(
  title: string,
  caption: string,
  values: { x: string; y: string; value: number | null }[],
  xTitle: string,
  yTitle: string,
  xOrder: string[],
): ChartSpec {
  const spec: TopLevelSpec = {
    data: { values },
    encoding: {
      x: { field: 'x', type: 'nominal', title: xTitle, sort: xOrder, axis: { labelAngle: 0 } },
      y: { field: 'y', type: 'nominal', title: yTitle, sort: null },
    },
    layer: [
      {
        mark: { type: 'rect' },
        encoding: {
          color: {
            field: 'value',
            type: 'quantitative',
            title: null,
            scale: { domain: [0, 1], scheme: 'blues' },
            legend: { format: '.0%' },
          },
        },
      },
      {
        mark: { type: 'text', fontSize: 11 },
        encoding: {
          text: { field: 'value', type: 'quantitative', format: '.0%' },
          color: { condition: { test: 'datum.value > 0.6', value: 'white' }, value: 'black' },
        },
      },
    ],
  };
  return { title, caption, spec };
}

function layerHeat(run: GeneratedRun, d: LayerDetails, pick: 'accuracy' | 'localisation'): ChartSpec {
  const types = d.types.map((t) => t.type);
  const values = d.types.flatMap((t) =>
    Array.from({ length: d.encoder.layers + 1 }, (_, l) => ({
      x: t.type,
      y: l === 0 ? '0 (embeddings)' : `layer ${l}`,
      value: rate(t[pick]?.[l]),
    })),
  );
  return pick === 'accuracy'
    ? heatMap(
        `${runLabel(run)}: probe accuracy by layer and error type (Table 7)`,
        'Accuracy of a self-attention probe on the frozen layer, test sentences (half of them with errors: chance about 50%). ' +
          'Contextual layers above layer 0 are what the paper finds better.',
        values,
        'error type',
        'layer',
        types,
      )
    : heatMap(
        `${runLabel(run)}: the probe attention finds the error (Table 8)`,
        "Share of test sentences with an error whose error token is among the probe attention's two heaviest tokens.",
        values,
        'error type',
        'layer',
        types,
      );
}

function headHeat(run: GeneratedRun, d: LayerDetails): ChartSpec {
  const grid = headGrid(d);
  const heads = Array.from({ length: d.encoder.heads }, (_, h) => `head ${h + 1}`);
  const values = grid.flatMap((row, l) => row.map((v, h) => ({ x: heads[h]!, y: `layer ${l + 1}`, value: v })));
  return heatMap(
    `${runLabel(run)}: attention heads that point at the error (Figure 3)`,
    `Per head, the share of test sentences with an error (all types) whose error token is among the head's two ` +
      `heaviest tokens (${d.headQuery === 'cls' ? "[CLS]'s attention row" : 'attention received from all tokens'}); ` +
      `no training.`,
    values,
    'head',
    'layer',
    heads,
  );
}

function examplesTable(run: GeneratedRun, d: LayerDetails): ReportTable | undefined {
  if (d.examples.length === 0) return undefined;
  return {
    title: `${runLabel(run)}: the probe's attention on test sentences (Appendix E)`,
    // the tokens first: the report aligns the first column left and the (numeric) rest right
    head: ['tokens (attention %, the error in [brackets])', 'type', 'layer', 'P(error)'],
    rows: d.examples.map((e) => [
      e.tokens.map((t, i) => `${e.errorTokens.includes(i) ? `[${t}]` : t}:${Math.round(100 * (e.attention[i] ?? 0))}`).join(' '),
      e.type,
      String(e.layer),
      e.probability.toFixed(2),
    ]),
    caption: "Each token with the probe's attention weight on it in percent, on the layer where the probe was most accurate for that type.",
  };
}

export const layersFamily = generatedFamily<LayerDetails>({
  id: 'probe-layers',
  title: 'Inside the encoder: where grammar errors are noticed',
  blurb: 'Layer probes (Tables 7 and 8) and attention heads (Figure 3) of Yin et al. 2020 on minimal pairs with one simulated error.',
  // one record per error type, already drawn as the tables and heat maps above
  hideRecords: true,
  details: (run) => layerDetailsOf(run.summary.details),
  part(run, d) {
    const charts: ChartSpec[] = [];
    const tables: ReportTable[] = [];
    if (d.probes) {
      charts.push(layerHeat(run, d, 'accuracy'), layerHeat(run, d, 'localisation'));
      // Each cell with its 95% interval and n: a cell over a few test sentences is marked "too few examples".
      for (const pick of ['accuracy', 'localisation'] as const) {
        tables.push({
          title: `${runLabel(run)}: ${pick === 'accuracy' ? 'Table 7 (probe accuracy)' : 'Table 8 (probe localisation)'} per cell, with 95% intervals`,
          head: ['layer', ...d.types.map((t) => t.type)],
          rows: Array.from({ length: d.encoder.layers + 1 }, (_, l) => [
            l === 0 ? 'embeddings (0)' : `layer ${l}`,
            ...d.types.map((t) => {
              const share = t[pick]?.[l];
              return share?.interval
                ? withInterval(rate(share), share.interval)
                : rate(share) === null
                  ? 'n/a'
                  : `${(100 * rate(share)!).toFixed(1)}%`;
            }),
          ]),
          caption: 'Wilson 95% intervals over the test sentences of each cell; wider than 20 points reads "too few examples".',
        });
      }
      const t8 = layerTable(d, 'localisation');
      tables.push({
        title: `${runLabel(run)}: Table 8 layout with the random baseline`,
        head: t8.head,
        rows: t8.rows,
        caption: 'Percent; "random top-2": what two tokens picked at random would hit.',
      });
    }
    if (d.types.some((t) => t.heads)) charts.push(headHeat(run, d));
    const ex = examplesTable(run, d);
    if (ex) tables.push(ex);
    return {
      charts,
      tables,
      notes: [
        `Model ${d.encoder.id}: ${d.encoder.layers} layers × ${d.encoder.heads} heads; hidden states and attentions ` +
          `${d.encoder.exported ? 'exported by the model' : 'exposed from its ONNX graph by textstress'}.`,
      ],
    };
  },
});

/** probe-heads runs share the section (same details, heads only). */
export const headsFamily = generatedFamily<LayerDetails>({
  id: 'probe-heads',
  title: 'Inside the encoder: attention heads',
  blurb: 'Which attention heads point at a simulated grammar error (Yin et al. 2020, Figure 3), no training.',
  hideRecords: true,
  details: (run) => layerDetailsOf(run.summary.details),
  part: (run, d) => ({ charts: [headHeat(run, d)] }),
});

/** Vega's tableau10, so the types keep the colours readers know from the other charts. */
const PALETTE = ['#4c78a8', '#f58518', '#e45756', '#72b7b2', '#54a24b', '#eeca3b', '#b279a2', '#ff9da6', '#9d755d', '#bab0ac'];

export const clozeFamily = generatedFamily<ClozeDetails>({
  id: 'cloze',
  title: 'Cloze test: how far a grammar error reaches',
  blurb: "The masked LM's probability of each token near a one-token error, with and without the error (Yin et al. 2020, §6, Figure 4).",
  hideRecords: true,
  details: (run) => {
    const d = run.summary.details as ClozeDetails | undefined;
    return d && Array.isArray(d.all) ? d : undefined;
  },
  part(run, d) {
    const values = [
      ...d.types.flatMap((t) => t.cells.filter((c) => c.n > 0).map((c) => ({ distance: c.distance, drop: c.meanDrop, type: t.type }))),
      ...d.all.filter((c) => c.n > 0).map((c) => ({ distance: c.distance, drop: c.meanDrop, type: 'all types' })),
    ];
    const typeNames = d.types.filter((t) => t.cells.some((c) => c.n > 0)).map((t) => t.type);
    const spec: TopLevelSpec = {
      data: { values },
      mark: { type: 'line', point: true },
      encoding: {
        x: {
          field: 'distance',
          type: 'quantitative',
          title: 'signed distance from the error (tokens)',
          scale: { domain: [-d.window, d.window] },
        },
        y: { field: 'drop', type: 'quantitative', title: 'mean drop of P(true token)' },
        // the pooled line in black, thick; the types in the usual palette
        color: {
          field: 'type',
          type: 'nominal',
          title: null,
          scale: { domain: [...typeNames, 'all types'], range: [...PALETTE.slice(0, typeNames.length), '#111827'] },
        },
        strokeWidth: { condition: { test: "datum.type === 'all types'", value: 3 }, value: 1.2 },
      },
    };
    const used = d.types.reduce((a, t) => a + t.used, 0);
    const skipped = d.types.reduce((a, t) => a + t.skipped, 0);
    return {
      charts: [
        {
          title: `${runLabel(run)}: likelihood drop by distance from the error (Figure 4)`,
          caption: `${used} one-token minimal pairs (${skipped} left out: not a one-token substitution); the error itself (distance 0) is not masked.`,
          spec,
        },
      ],
    };
  },
});
