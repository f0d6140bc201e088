export type * from '../../recipes/report/types.ts';

/** A check of the CI gate, as shown in the report and the terminal. */
export interface CheckResult {
  test: string;
  expr: string;
  passed: boolean;
  actual?: number;
  bound?: number;
  message: string;
}

/** The CI gate's outcome: passed when every check passed. */
export interface Verdict {
  passed: boolean;
  checks: CheckResult[];
  /** Tests not run (e.g. an optional dataset is absent), with why. */
  skipped?: { test: string; reason: string }[];
}
