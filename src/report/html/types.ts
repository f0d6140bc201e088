export type * from '../../recipes/report/types.ts';

/** A check of the CI gate, as shown in the report and the terminal. */
export interface CheckResult {
  test: string;
  expr: string;
  /** True only when the check holds on enough examples (status 'pass'). */
  passed: boolean;
  /** 'inconclusive': it holds, but on fewer examples than the suite's min_n (or no interval to read): never a pass. */
  status?: GateStatus;
  actual?: number;
  bound?: number;
  /** The metric's own n (its denominator), and the interval the check read, when known. */
  n?: number;
  interval?: { value: number | null; low: number | null; high: number | null; n: number; method: string };
  /** A baseline check decided by the paired test: its Holm-adjusted p-value. */
  p?: number | null;
  /** In the suite's terms (`attack_success_rate = 0.727 fails < 0.400`): the terminal's and verdict.json's line. */
  message: string;
  /** The same in words and units (`attack success rate 72.7% fails < 40.0%`), for the report's banner. */
  text?: string;
}

/** A suite dataset that ran on its fallback file: the file it names, the one used, and the tests that used it. */
export interface DataFallback {
  dataset: string;
  wanted: string;
  used: string;
  tests: string[];
}

/** A gate check's or verdict's outcome; exit codes 0, 1 and 3 (see src/suite/gate.ts GATE_EXIT). */
export type GateStatus = 'pass' | 'fail' | 'inconclusive';

/** The CI gate's outcome: passed when every check passed. */
export interface Verdict {
  passed: boolean;
  /** fail if any check failed, else inconclusive if any was, else pass (absent in verdicts written before it). */
  status?: GateStatus;
  /** The metrics the checks read, and whether one of them measures robustness (not only clean performance). */
  checked?: string[];
  /** The same metrics in words ("attack success rate"), for the report. */
  checked_labels?: string[];
  robustness?: boolean;
  checks: CheckResult[];
  /** Tests not run (e.g. an optional dataset is absent), with why. */
  skipped?: { test: string; reason: string }[];
  /** Datasets whose file was missing, so their tests ran on the dataset's `fallback` (issue 34): never silent. */
  fallbacks?: DataFallback[];
  /** Tests that stopped with an error (an unsupported model, a missing dataset, a recipe error), with the error; each also fails a check. */
  failed?: { test: string; recipe: string; reason: string }[];
}
