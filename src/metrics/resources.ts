/**
 * What a run used besides the target model (summary.json `details.resources`, written by recipes that need word
 * vectors, a sentence encoder or a masked LM): each resource as used, or off / replaced and why, and the queries the
 * resources answered per attacked example. Read back here for the terminal and the report, so a reader never takes
 * a run without its similarity constraint for one with it.
 */
import type { Interval } from '../stats/index.ts';
import { withInterval } from './show.ts';

/** One resource: `used`, and what describes it (file, model, thresholds) or why it was off and what stood in. */
export type ResourceEntry = Record<string, unknown> & { used: boolean; why?: string; instead?: string };

/** `details.resources` read back. */
export interface RunResources {
  entries: [string, ResourceEntry][];
  queries: [string, { total: number; per_attacked_example: Interval }][];
}

/** The resources of a summary's details, or undefined when the run recorded none. */
export function resourcesOf(details: Record<string, unknown> | undefined): RunResources | undefined {
  const r = details?.['resources'];
  if (!r || typeof r !== 'object') return undefined;
  const entries: [string, ResourceEntry][] = [];
  let queries: RunResources['queries'] = [];
  for (const [k, v] of Object.entries(r as Record<string, unknown>)) {
    if (k === 'queries' && v && typeof v === 'object')
      queries = Object.entries(v as Record<string, { total: number; per_attacked_example: Interval }>);
    else if (v && typeof v === 'object' && typeof (v as ResourceEntry).used === 'boolean') entries.push([k, v as ResourceEntry]);
  }
  return { entries, queries };
}

const label = (k: string): string => k.replace(/_/g, ' ');

/** One resource in a line's worth of words: `on: encoder=…, metric=angular, …` or `OFF: why (instead: …)`. */
export function describeResource(e: ResourceEntry): string {
  const rest = Object.entries(e)
    .filter(([k]) => !['used', 'why', 'instead', 'sha256'].includes(k))
    .map(([k, v]) => `${label(k)} ${v === null ? 'none' : String(v)}`)
    .join(', ');
  if (e.used) return rest;
  const instead = e.instead ? `instead: ${e.instead}` : 'OFF';
  return `${instead} (${e.why ?? 'not given'})${rest ? `; ${rest}` : ''}`;
}

/** The lines the terminal prints under a run's tables. */
export function resourceLines(r: RunResources): string[] {
  const lines = ['Resources besides the model:', ...r.entries.map(([k, e]) => `  ${label(k)}: ${describeResource(e)}`)];
  if (r.queries.length) {
    lines.push('  asked of them, per attacked example (distinct, as queries are counted):');
    for (const [k, q] of r.queries)
      lines.push(`    ${label(k)}: ${withInterval(q.per_attacked_example.value, q.per_attacked_example, 'number')} (total ${q.total})`);
  }
  return lines;
}
