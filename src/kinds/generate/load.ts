/** How the report reads a finished generator run: its steps and the first records it generated. */
import { join } from 'node:path';
import type { GenerateSummary } from '../../metrics/summary.ts';
import type { GeneratedRun } from '../../recipes/report/types.ts';
import { readResults } from '../../runner/checkpoint.ts';
import { RESULTS_FILE } from '../../runner/per-example.ts';
import { STEPS_FILE } from './run.ts';

/** Records of a generator run the report carries (the sample table and family charts). */
export const SAMPLE_RECORDS = 200;

export async function loadGeneratedRun(dir: string, name: string, group: string, summary: GenerateSummary): Promise<GeneratedRun> {
  const steps: Record<string, number>[] = [];
  for await (const st of readResults<Record<string, number>>(join(dir, STEPS_FILE))) steps.push(st);
  const sample: Record<string, unknown>[] = [];
  for await (const rec of readResults<Record<string, unknown>>(join(dir, RESULTS_FILE))) {
    sample.push(rec);
    if (sample.length >= SAMPLE_RECORDS) break;
  }
  return { slot: 'generated', dir, name, group, summary, steps, sample };
}
