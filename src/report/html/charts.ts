import * as vega from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import type { ChartSpec } from './types.ts';

/** Shared look of every chart (fonts, colours, no borders), matching the page's CSS. */
const CONFIG = {
  font: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  view: { stroke: null },
  axis: {
    labelColor: '#475569',
    titleColor: '#334155',
    gridColor: '#e2e8f0',
    domainColor: '#94a3b8',
    tickColor: '#94a3b8',
    labelFontSize: 11,
    titleFontSize: 11,
    titleFontWeight: 600,
  },
  legend: { labelColor: '#334155', titleColor: '#334155', labelFontSize: 11, titleFontSize: 11, orient: 'bottom', labelLimit: 320 },
  range: { category: ['#2563eb', '#dc2626', '#059669', '#d97706', '#7c3aed', '#0891b2', '#db2777', '#65a30d', '#475569'] },
  background: 'white',
} as const;

/** vega-lite spec → inline SVG string (rendered in Node, no browser, no network). */
export async function renderChart(chart: ChartSpec): Promise<string> {
  const spec = { width: 360, height: 220, ...chart.spec, config: { ...CONFIG, ...(chart.spec.config ?? {}) } } as TopLevelSpec;
  const compiled = compile(spec).spec;
  const view = new vega.View(vega.parse(compiled), { renderer: 'none', logLevel: vega.Error });
  try {
    const svg = await view.toSVG();
    // The chart's title lives in the page (escaped); CSS scales the SVG to its card via its viewBox.
    return svg.replace('<svg ', '<svg role="img" ');
  } finally {
    view.finalize();
  }
}
