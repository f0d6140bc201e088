/** What fault tests compare of a run: its process counters (`--json`) and its results without timings. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CliResult } from '../cli/helpers.ts';

/** The process counters a `--json` run prints. */
export const processOf = (r: CliResult): { disk_cache_hits: number; model_inferences: number } =>
  (JSON.parse(r.stdout) as { process: { disk_cache_hits: number; model_inferences: number } }).process;

/** Results without what depends on the process (timings). */
export const resultsOf = (out: string): string =>
  readFileSync(join(out, 'results.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => {
      const { elapsed_ms: _e, ...rest } = JSON.parse(l) as Record<string, unknown>;
      return JSON.stringify(rest);
    })
    .join('\n');
