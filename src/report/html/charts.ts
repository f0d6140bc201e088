import * as vega from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import type { ChartSpec } from './types.ts';
import { displayPath, isAbsolutePath } from './paths.ts';

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
  const spec = { width: 360, height: 220, ...shortPaths(chart.spec), config: { ...CONFIG, ...(chart.spec.config ?? {}) } } as TopLevelSpec;
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

/** The spec with every absolute path in its inline data shortened (series named by a model folder, …): none reaches the page. */
function shortPaths(spec: TopLevelSpec): TopLevelSpec {
  const fix = (v: unknown): unknown => {
    if (typeof v === 'string') return isAbsolutePath(v) ? displayPath(v) : v;
    if (Array.isArray(v)) return v.map(fix);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fix(x)]));
    return v;
  };
  const withData = (s: Record<string, unknown>): Record<string, unknown> => {
    const out: Record<string, unknown> = { ...s };
    const data = s.data as { values?: unknown } | undefined;
    if (data && Array.isArray(data.values)) out.data = { ...data, values: fix(data.values) };
    if (Array.isArray(s.layer)) out.layer = (s.layer as Record<string, unknown>[]).map(withData);
    return out;
  };
  return withData(spec as unknown as Record<string, unknown>) as unknown as TopLevelSpec;
}
