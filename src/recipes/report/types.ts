/**
 * What a recipe's report section sees and returns. Declared beside the recipes (not in report/) so that a recipe
 * module can carry its own section; report/ renders it.
 */
import type { TopLevelSpec } from 'vega-lite';
import type { Interval } from '../../stats/index.ts';
import type { ExampleResult } from '../../core/result.ts';
import type { StressResult } from '../../core/stress-suite.ts';
import type { StressSummary } from '../../metrics/stress-summary.ts';
import type { GenerateSummary, RunSummary } from '../../metrics/summary.ts';

/** One finished run folder (summary.json + results.jsonl), as the report reads it. */
export interface LoadedRun {
  /** Which of its group's lists holds it: what tells the loaded runs apart (AnyLoadedRun). */
  slot: 'runs';
  /** Folder of the run. */
  dir: string;
  /** Short name: the folder relative to its group, e.g. "target-max", or the group's name for lone runs. */
  name: string;
  /** The group (test) this run belongs to. */
  group: string;
  summary: RunSummary;
  /** An evenly spaced sample of its results (successful attacks first), at most the report's sample size. */
  results: ExampleResult[];
  /** Counts over all its results, read in the same streaming pass. */
  profile: RunProfile;
  headline: HeadlineMetrics;
}

/** What the report knows about every result of a run without keeping them. */
export interface RunProfile {
  examples: number;
  /** Examples attacked (succeeded + failed). */
  attacked: number;
  /** Successful attacks by share of words modified (percent), ascending: [pct, count]. */
  successByPct: [number, number][];
}

/**
 * A test's output folder: one run, or several runs that belong together (e.g. a typos-curve folder with
 * curve.json and its target-/source- runs). Group-level JSON files (curve.json, budget-curve.json, …) are kept
 * in `files` for the family that understands them.
 */
export interface RunGroup {
  name: string;
  dir: string;
  runs: LoadedRun[];
  /** Generator runs (no source examples): their steps and a sample of what they generated. */
  generated: GeneratedRun[];
  /** Stress runs (named tests per example, tallied per test). */
  stress: StressRun[];
  files: Record<string, unknown>;
}

/** A finished stress run (summary.json with kind "stress", results.jsonl). */
export interface StressRun {
  slot: 'stress';
  dir: string;
  name: string;
  group: string;
  summary: StressSummary;
  /**
   * Whole result lines (an example with every case of every test), evenly spaced over the file, as many as fit
   * the report's sample size counted in cases.
   */
  sample: StressResult[];
}

/** A table a family shows in its section: plain text cells (escaped when drawn). */
export interface ReportTable {
  title: string;
  head: string[];
  rows: string[][];
  caption?: string;
}

/** A finished generator run (summary.json with kind "generate", steps.jsonl, results.jsonl). */
export interface GeneratedRun {
  slot: 'generated';
  dir: string;
  name: string;
  group: string;
  summary: GenerateSummary;
  /** One entry per step, as the generator reported it. */
  steps: Record<string, number>[];
  /** The first records it generated (at most SAMPLE_RECORDS). */
  sample: Record<string, unknown>[];
}

/**
 * The four numbers of a headline card. "Clean/attacked metric" is accuracy, or entity F1 for taggers, or mean
 * answer F1 for extractive QA.
 * Stability: of the examples the model got right before the attack (and that were attacked), the share whose
 * prediction is exactly the same after it (same label; for taggers the same tag sequence).
 */
export interface HeadlineMetrics {
  metric: 'accuracy' | 'entity F1' | 'answer F1';
  /** null: over zero examples (shown "n/a"). */
  clean: number | null;
  attacked: number | null;
  attack_success_rate: number | null;
  stability: number | null;
  /** Originally-correct, attacked examples (stability's denominator). */
  stability_n: number;
}

/** A report chart: a Vega-Lite spec with its title and caption. */
export interface ChartSpec {
  title: string;
  caption?: string;
  spec: TopLevelSpec;
}

/** What a family adds to its section of the report. Cards, run tables and the example browser are generic. */
export interface FamilySectionContent {
  /** The run whose numbers fill the family's headline card (default: the first). */
  headline?: LoadedRun;
  charts: ChartSpec[];
  /** Tables shown above the charts (e.g. a paper's table per run). */
  tables?: ReportTable[];
  /** The family's runs in the order its runs table lists them (default: as found). */
  runs?: LoadedRun[];
  /** Short plain-text notes shown under the charts (escaped). */
  notes?: string[];
  /**
   * The headline card's figures when the family's own table defines them (the entity probe: Table 3 over D), so the
   * card, the table and the terminal give one number per name (issue 34); default: the attack kind's four.
   */
  card?: (run: LoadedRun) => CardTile[] | undefined;
}

/** One figure of a headline card: a share with its 95% interval; `better` colours it. */
export interface CardTile {
  label: string;
  value: number | null;
  interval?: Interval;
  better?: 'higher' | 'lower';
}

/**
 * A recipe's section of the report (RecipeDef.report): the runs of the recipes that declare it are its runs. What it
 * shows for each kind of run it has: per-example attack runs (`section`), generator runs (`generatedSection`),
 * stress runs (`stressSection`); runs it shows nothing for get the generic section of their kind.
 */
export interface ReportFamily {
  id: string;
  title: string;
  /** One sentence on what the family does (and the paper it follows). */
  blurb: string;
  /** Its section for attack-shaped runs (attacks, probes): headline, charts, tables, notes. */
  section?(runs: LoadedRun[], groups: RunGroup[]): FamilySectionContent;
  /** Human label of an edit type, e.g. "grammar:Prep" → "Prep (preposition)". */
  editTypeLabel?(type: string): string;
  /** Its section for generator runs: tables, charts and notes (the metrics tiles and the sample table are generic). */
  generatedSection?(runs: GeneratedRun[]): Pick<FamilySectionContent, 'charts' | 'notes' | 'tables'>;
  /** Leave out the generic "first records" table of its generator runs (when its own tables already show them). */
  hideRecords?: boolean;
  /** Its section for stress runs: tables, charts and notes (the headline cards, runs table and example browser are generic). */
  stressSection?(runs: StressRun[]): StressSectionContent;
}

/** Which report section shows a recipe's runs, in page order: what the report reads of a registry. */
export interface ReportSections {
  /** The section the recipe declares (undefined: the generic one of its run's kind). */
  familyOf(recipe: string): ReportFamily | undefined;
  /** Every declared section, in page order. */
  order: readonly ReportFamily[];
}

/** What a family shows for its stress runs. */
export interface StressSectionContent {
  tables: ReportTable[];
  charts: ChartSpec[];
  notes?: string[];
}
