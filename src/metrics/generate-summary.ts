/** summary.json of a generator run (kept beside RunSummary, in its own file for size). */
export interface GenerateSummary {
  complete: true;
  kind: 'generate';
  recipe: string;
  model: string;
  dataset: string | null;
  seed: number;
  settings: Record<string, unknown>;
  /** Steps run and records written. */
  steps: number;
  n: number;
  /**
   * What the run measured, when that is not its records: e.g. the sentences a fooling run scored (its records are
   * only the fooling ones, and none is a result, not an empty run). Absent: the records are what it measured.
   */
  measured?: number;
  /** The generator's own summary metrics (gate thresholds may name them). */
  metrics: Record<string, number | null>;
  /** Model inputs sent, over the whole run (resumed parts included). */
  queries: number;
  wall_seconds: number;
  /** What the generator's `finish` adds (e.g. universal names: the ranking and the held-out test). */
  details?: Record<string, unknown>;
}
