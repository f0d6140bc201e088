/**
 * A real run (demo-sst2, typos, 30 reviews of the demo data) writes each headline figure's interval with its n into
 * summary.json, the terminal table prints them, and a run interrupted after 12 examples and resumed writes the very
 * same intervals as the uninterrupted run (they are computed from results.jsonl alone, seeded by the run's seed).
 */
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { wilson } from '../../src/stats/index.ts';
import { DEMO_SST2, ROOT, readJson, runCli, tmp } from '../cli/helpers.ts';

const DATA = join(ROOT, 'demo', 'reviews.tsv');
const args = (out: string, extra: string[] = []): string[] => [
  'attack',
  'typos',
  '--model',
  DEMO_SST2,
  '--data',
  DATA,
  '--k',
  '1',
  '--limit',
  '30',
  '--seed',
  '5',
  '--out',
  out,
  '--no-progress',
  ...extra,
];

interface Iv {
  value: number | null;
  low: number | null;
  high: number | null;
  n: number;
  method: string;
}

describe('intervals of a real run', () => {
  it('are in summary.json with n, printed in the table, and the same after a resume', async () => {
    const full = tmp('iv-full');
    const r = await runCli(args(full));
    expect(r.code, r.stderr).toBe(0);
    const s = readJson(join(full, 'summary.json')) as Record<string, unknown> & { intervals: Record<string, Iv> };
    const iv = s.intervals;
    const n = s.n as number;
    expect(n).toBe(30);
    // Shares of examples: Wilson over their counts; the figure itself is the interval's value.
    const correct = Math.round((s.clean_accuracy as number) * n);
    expect(iv.clean_accuracy).toEqual(wilson(correct, n));
    expect(iv.attack_success_rate).toEqual(wilson(s.succeeded as number, s.attacked as number));
    expect(iv.stability).toEqual(wilson(Math.round((s.stability as number) * (s.stability_n as number)), s.stability_n as number));
    expect(iv.mean_queries).toMatchObject({ value: s.mean_queries, n: 30, method: 'bootstrap' });
    expect(iv.mean_perturbed_word_pct).toMatchObject({ n: s.succeeded, method: 'bootstrap' });
    expect(iv.metric_drop!.value).toBeCloseTo((s.clean_accuracy as number) - (s.attacked_accuracy as number), 12);
    expect(iv.clean_metric).toEqual(iv.clean_accuracy);
    for (const name of ['clean_accuracy', 'attacked_accuracy', 'attack_success_rate', 'stability', 'mean_queries', 'metric_drop']) {
      const x = iv[name]!;
      expect(x.low!, name).toBeLessThanOrEqual(x.value!);
      expect(x.high!, name).toBeGreaterThanOrEqual(x.value!);
    }
    expect((iv as unknown as { accuracy_by_edits: Iv[] }).accuracy_by_edits).toHaveLength((s.accuracy_by_edits as number[]).length);
    // Exact figures (fixed seed); 28 attacked examples: the success rate's interval is wider than 20 points.
    expect(r.stdout).toMatch(/clean accuracy\s+│\s+93\.3% \[78\.7–98\.2\] n=30/);
    expect(r.stdout).toMatch(/attack success rate\s+│\s+\d+\.\d% \[\d+\.\d–\d+\.\d\] too few examples \(n=28\)/);
    expect(r.stdout).toMatch(/mean queries \/ example\s+│\s+\d+\.\d \[\d+\.\d–\d+\.\d\] n=30/);

    // Interrupted after 12 examples (as a crash leaves it: no summary, run.json running), then resumed.
    const cut = tmp('iv-resumed');
    rmSync(cut, { recursive: true, force: true });
    cpSync(full, cut, { recursive: true });
    const lines = readFileSync(join(cut, 'results.jsonl'), 'utf8').split('\n').slice(0, 12);
    writeFileSync(join(cut, 'results.jsonl'), lines.join('\n') + '\n');
    rmSync(join(cut, 'summary.json'));
    const state = JSON.parse(readFileSync(join(cut, 'run.json'), 'utf8')) as Record<string, unknown>;
    delete state.digests;
    writeFileSync(join(cut, 'run.json'), JSON.stringify({ ...state, status: 'running' }));
    const resumed = await runCli(args(cut, ['--resume']));
    expect(resumed.code, resumed.stderr).toBe(0);
    const again = readJson(join(cut, 'summary.json')) as { intervals: unknown };
    expect(again.intervals).toEqual(iv);
  });
});
