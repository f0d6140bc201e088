/** The report section of a generator recipe, declared as what one run's details add (tables, charts, notes). */
import type { ChartSpec, GeneratedRun, ReportFamily, ReportTable } from './types.ts';

/** What one generator run adds to its family's section. */
export interface GeneratedPart {
  tables?: ReportTable[];
  charts?: ChartSpec[];
  notes?: string[];
}

/** The section of a generator recipe's runs: per run with readable details, what `part` builds. */
export function generatedFamily<D>(spec: {
  id: string;
  title: string;
  blurb: string;
  details(run: GeneratedRun): D | undefined;
  part(run: GeneratedRun, details: D): GeneratedPart;
  /** See ReportFamily.hideRecords. */
  hideRecords?: boolean;
}): ReportFamily {
  return {
    ...(spec.hideRecords ? { hideRecords: true } : {}),
    id: spec.id,
    title: spec.title,
    blurb: spec.blurb,
    generatedSection(runs) {
      const out = { tables: [] as ReportTable[], charts: [] as ChartSpec[], notes: [] as string[] };
      for (const run of runs) {
        const d = spec.details(run);
        if (d === undefined) continue;
        const p = spec.part(run, d);
        out.tables.push(...(p.tables ?? []));
        out.charts.push(...(p.charts ?? []));
        // The same note from several runs is said once.
        for (const n of p.notes ?? []) if (!out.notes.includes(n)) out.notes.push(n);
      }
      return out;
    },
  };
}
