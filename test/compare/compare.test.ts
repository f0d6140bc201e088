/**
 * `textstress compare` and `textstress transfer` on real runs: demo-sst2 and demo-cola (its labels mapped onto
 * SST-2's) attacked with the same recipe, data and seed. The expected Wilson intervals and exact McNemar p-values are
 * computed here from the raw results.jsonl, independently of src/stats.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SST2, ROOT, SST2_DEV, expectCleanError, runCli, tmp } from '../cli/helpers.ts';

const DEMO_COLA = join(ROOT, 'models', 'demo-cola');
const COLA_MAP = 'negative=unacceptable,positive=acceptable';

interface Row {
  id: string;
  status: string;
  original_correct: boolean;
  perturbed_correct: boolean;
  original_prediction: { label: string };
  perturbed_prediction: { label: string };
  queries: number;
}

const rows = (dir: string): Row[] =>
  readFileSync(join(dir, 'results.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Row);

/** Wilson score interval, written out from Wilson (1927). */
function wilsonRef(k: number, n: number): [number, number, number] {
  const z = 1.959963984540054;
  const p = k / n;
  const c = (p + (z * z) / (2 * n)) / (1 + (z * z) / n);
  const h = (z / (1 + (z * z) / n)) * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n));
  return [p, k === 0 ? 0 : c - h, k === n ? 1 : c + h];
}

/** Exact two-sided McNemar: 2·P[Binomial(b + c, 1/2) ≤ min(b, c)], capped at 1, with exact integer binomials. */
function mcnemarRef(b: number, c: number): number {
  const n = b + c;
  if (n === 0) return 1;
  let sum = 0n;
  let choose = 1n;
  for (let i = 0; i <= Math.min(b, c); i++) {
    if (i > 0) choose = (choose * BigInt(n - i + 1)) / BigInt(i);
    sum += choose;
  }
  return Math.min(1, (2 * Number(sum)) / 2 ** n);
}

/** Per-example outcome of a metric, as summary.json counts it; null when the example does not count. */
const OUTCOME: Record<string, (r: Row) => boolean | null> = {
  clean_accuracy: (r) => r.original_correct,
  attacked_accuracy: (r) => r.perturbed_correct,
  attack_success_rate: (r) => (r.status === 'skipped' ? null : r.status === 'succeeded'),
  stability: (r) => (r.original_correct && r.status !== 'skipped' ? r.original_prediction.label === r.perturbed_prediction.label : null),
};

interface Iv {
  value: number | null;
  low: number | null;
  high: number | null;
  n: number;
}
interface Cmp {
  joined: { n: number; mode: string };
  metrics: {
    metric: string;
    a: Iv;
    b: Iv;
    diff: Iv;
    counts: { onlyA: number; onlyB: number };
    p: number;
    p_holm: number;
    regression: boolean;
  }[];
  newly_broke_n: number;
  newly_held_n: number;
  newly_broke: { id: string; a?: { perturbed: { text: string } }; b?: { perturbed: { text: string } } }[];
  regression: boolean;
  query_budget?: {
    budgets: { budget: number; a: Iv; b: Iv; counts: { onlyA: number; onlyB: number }; p: number; p_holm: number }[];
    queries_per_success: { a: Iv; b: Iv; diff: Iv };
  };
  differ: { key: string; label: string; a: string; b: string }[];
}

describe('textstress compare', () => {
  const dir = tmp('compare');
  const sst2 = join(dir, 'sst2');
  const cola = join(dir, 'cola');
  const short = join(dir, 'sst2-30');
  const attack = (model: string, out: string, limit: number, more: string[] = []) =>
    runCli(['attack', 'typos', '--model', model, '--data', SST2_DEV, '--limit', String(limit), '--seed', '0', '--out', out, ...more]);

  beforeAll(async () => {
    for (const r of [
      await attack(DEMO_SST2, sst2, 40),
      await attack(DEMO_COLA, cola, 40, ['--label-map', COLA_MAP]),
      await attack(DEMO_SST2, short, 30),
    ]) {
      expect(r.code, r.stderr).toBe(0);
    }
  }, 120_000);

  it('two models: Wilson intervals and exact McNemar p equal an independent computation from results.jsonl; a significant regression exits 1', async () => {
    const out = join(dir, 'cmp');
    const r = await runCli(['compare', sst2, cola, '--out', out, '--fail-on-regression']);
    const c = JSON.parse(readFileSync(join(out, 'compare.json'), 'utf8')) as Cmp;
    const [ra, rb] = [rows(sst2), rows(cola)];
    expect(c.joined).toMatchObject({ n: 40, mode: 'same' });
    expect(c.metrics.map((m) => m.metric)).toEqual(['clean_accuracy', 'attacked_accuracy', 'attack_success_rate', 'stability']);
    const ps: number[] = [];
    for (const m of c.metrics) {
      const f = OUTCOME[m.metric]!;
      for (const [side, rs] of [
        [m.a, ra],
        [m.b, rb],
      ] as const) {
        const xs = rs.map(f).filter((x): x is boolean => x !== null);
        const [p, lo, hi] = wilsonRef(xs.filter(Boolean).length, xs.length);
        expect(side.n).toBe(xs.length);
        expect(side.value).toBeCloseTo(p, 12);
        expect(side.low).toBeCloseTo(lo, 12);
        expect(side.high).toBeCloseTo(hi, 12);
      }
      // McNemar over the examples both runs count (same ids: the rows are in the same order).
      let onlyA = 0;
      let onlyB = 0;
      ra.forEach((x, i) => {
        expect(rb[i]!.id).toBe(x.id);
        const [a, b] = [f(x), f(rb[i]!)];
        if (a === null || b === null) return;
        if (a && !b) onlyA++;
        if (b && !a) onlyB++;
      });
      expect(m.counts).toMatchObject({ onlyA, onlyB });
      expect(m.p).toBeCloseTo(mcnemarRef(onlyA, onlyB), 12);
      ps.push(m.p);
    }
    // Holm, step by step: sorted p times (m − rank), running maximum.
    const order = ps.map((p, i) => [p, i] as const).sort((x, y) => x[0] - y[0]);
    let run = 0;
    const holm: number[] = [];
    order.forEach(([p, i], rank) => {
      run = Math.max(run, Math.min(1, p * (ps.length - rank)));
      holm[i] = run;
    });
    c.metrics.forEach((m, i) => expect(m.p_holm).toBeCloseTo(holm[i]!, 12));
    // demo-cola reads sentiment far worse than demo-sst2: 33 vs 18 right of 40, 17 discordant against 2.
    const clean = c.metrics[0]!;
    expect([clean.a.value, clean.b.value, clean.counts]).toEqual([0.825, 0.45, { both: 16, onlyA: 17, onlyB: 2, neither: 5 }]);
    expect(clean.regression).toBe(true);
    expect(c.regression).toBe(true);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/Regression: clean accuracy significantly worse in B/);
    // What tells the runs apart, and the first newly broken examples, in the terminal (issue 34 items 13, 17).
    expect(r.stdout).toContain('What differs (A → B): model: models/demo-sst2 → models/demo-cola');
    expect(c.differ).toEqual([
      { key: 'model', label: 'model', a: 'models/demo-sst2', b: 'models/demo-cola' },
      { key: 'labelMap', label: 'label map', a: '—', b: COLA_MAP },
    ]);
    expect(r.stdout).toContain(`First 3 newly broken (right under attack in A, wrong in B):\n  ${c.newly_broke[0]!.id}: A `);
    expect(r.stdout).toContain(`… and ${c.newly_broke_n - 3} more: --out DIR (compare.html) or --json lists them.`);
    // The examples that newly broke carry both runs' attacked texts.
    const broke = ra.filter((x, i) => x.perturbed_correct && !rb[i]!.perturbed_correct).map((x) => x.id);
    expect(c.newly_broke.map((e) => e.id)).toEqual(broke);
    expect(c.newly_broke[0]!.a!.perturbed.text.length).toBeGreaterThan(0);
    const html = readFileSync(join(out, 'compare.html'), 'utf8');
    expect(html).toContain('<td>clean accuracy</td>');
    expect(html).toContain('<tr><td>model</td><td>models/demo-sst2</td><td>models/demo-cola</td></tr>');
    // No absolute path on the page (issue 34 item 14): the run folders by their last two parts.
    expect(html).not.toContain(dir);
    expect(html).toContain(`<b>A</b>: ${dir.split('/').pop()}/sst2 —`);
    expect(html).not.toMatch(/<script|https?:\/\//);
  });

  it('query budgets: both curves and McNemar per budget equal a count from results.jsonl; the chart is in compare.html', async () => {
    const out = join(dir, 'cmp-budget');
    const r = await runCli(['compare', sst2, cola, '--out', out]);
    expect(r.stdout).toMatch(/Attack success by query budget/);
    const c = JSON.parse(readFileSync(join(out, 'compare.json'), 'utf8')) as Cmp;
    const [ra, rb] = [rows(sst2), rows(cola)];
    const q = c.query_budget!;
    const top = Math.max(...[...ra, ...rb].filter((x) => x.status !== 'skipped').map((x) => x.queries));
    expect(q.budgets.at(-1)!.budget).toBe(top);
    const within = (x: Row, b: number): boolean | null => (x.status === 'skipped' ? null : x.status === 'succeeded' && x.queries <= b);
    for (const row of q.budgets) {
      for (const [side, rs] of [
        [row.a, ra],
        [row.b, rb],
      ] as const) {
        const xs = rs.map((x) => within(x, row.budget)).filter((x): x is boolean => x !== null);
        const [p, lo, hi] = wilsonRef(xs.filter(Boolean).length, xs.length);
        expect([side.n, side.value]).toEqual([xs.length, p]);
        expect(side.low).toBeCloseTo(lo, 12);
        expect(side.high).toBeCloseTo(hi, 12);
      }
      let [onlyA, onlyB] = [0, 0];
      ra.forEach((x, i) => {
        const [a, b] = [within(x, row.budget), within(rb[i]!, row.budget)];
        if (a === null || b === null) return;
        if (a && !b) onlyA++;
        if (b && !a) onlyB++;
      });
      expect(row.counts).toMatchObject({ onlyA, onlyB });
      expect(row.p).toBeCloseTo(mcnemarRef(onlyA, onlyB), 12);
      expect(row.p_holm).toBeGreaterThanOrEqual(row.p);
    }
    const mean = (xs: number[]): number | null => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : null);
    const perSuccess = (rs: Row[]): number | null => mean(rs.filter((x) => x.status === 'succeeded').map((x) => x.queries));
    expect(q.queries_per_success.a.value).toBeCloseTo(perSuccess(ra)!, 12);
    expect(q.queries_per_success.b.value).toBe(perSuccess(rb));
    const html = readFileSync(join(out, 'compare.html'), 'utf8');
    expect(html).toMatch(/<h2>Attack success by query budget<\/h2>[\s\S]*<svg /);
    expect(html).not.toMatch(/<script|https?:\/\//);
  });

  it('a run with itself: no difference, p = 1, no regression; the bootstrap is deterministic by seed', async () => {
    const r = await runCli(['compare', sst2, sst2, '--json', '--fail-on-regression', '--seed', '7']);
    expect(r.code, r.stderr).toBe(0);
    const c = JSON.parse(r.stdout) as Cmp;
    for (const m of c.metrics) {
      expect(m.diff).toMatchObject({ value: 0, low: 0, high: 0 });
      expect([m.p, m.p_holm, m.regression]).toEqual([1, 1, false]);
      expect(m.a).toEqual(m.b);
    }
    expect([c.newly_broke_n, c.newly_held_n]).toEqual([0, 0]);
    expect(c).toMatchObject({ differ: [] });
    const again = async (seed: string) => (await runCli(['compare', sst2, cola, '--json', '--seed', seed])).stdout;
    const first = await again('3');
    expect(await again('3')).toBe(first);
    expect(JSON.parse(first)).toMatchObject({ seed: 3 });
  });

  it('refuses runs over different examples, naming them; --intersection compares on the common ones', async () => {
    const refused = await runCli(['compare', short, sst2]);
    expect(expectCleanError(refused)).toMatch(
      /over different examples: 30 in .*, 40 in .*, 30 in both; 0 only in the first, 10 only in the second \(dev\.tsv:32, .*\)/,
    );
    const r = await runCli(['compare', short, sst2, '--intersection', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const c = JSON.parse(r.stdout) as Cmp;
    expect(c.joined).toMatchObject({ n: 30, mode: 'intersection', only_a: 0, only_b: 10 });
    // The first 30 examples are attacked alike in both runs (same model, data and seed).
    for (const m of c.metrics) expect(m.p).toBe(1);
  });

  it('exit 2 when it could not compare (not 1, a regression); results edited after the run are refused as merge refuses them (issue 35)', async () => {
    const refused = await runCli(['compare', short, sst2]);
    expect(refused.code).toBe(2);
    expect((await runCli(['compare', join(dir, 'nothing-here'), sst2, '--fail-on-regression'])).code).toBe(2);
    expect((await runCli(['compare', sst2, '--fail-on-regression'])).code).toBe(2); // a usage error
    const edited = join(dir, 'edited');
    cpSync(sst2, edited, { recursive: true });
    const file = join(edited, 'results.jsonl');
    // One answer flipped by hand: the file still parses, and without the digest check compared as a real run.
    writeFileSync(file, readFileSync(file, 'utf8').replace('"perturbed_correct":true', '"perturbed_correct":false'));
    const r = await runCli(['compare', sst2, edited, '--fail-on-regression']);
    expect(r.code).toBe(2);
    expect(expectCleanError(r)).toContain(`${file} was changed after the run finished`);
    expect(await runCli(['compare', edited, edited]).then((x) => x.code)).toBe(2);
  });

  it('transfer: the N×M matrix of transfer rates with Wilson intervals, as JSON and a heat map', async () => {
    const out = join(dir, 'transfer');
    const r = await runCli([
      'transfer',
      '--from',
      sst2,
      short,
      '--models',
      `${DEMO_SST2},${DEMO_COLA}`,
      '--label-map',
      `${DEMO_COLA}=negative:unacceptable,positive:acceptable`,
      '--out',
      out,
    ]);
    expect(r.code, r.stderr).toBe(0);
    const t = JSON.parse(readFileSync(join(out, 'transfer.json'), 'utf8')) as {
      models: string[];
      rows: { run: { dir: string }; cells: { model: string; adversarial: number; clean_correct: number; fooled: number; rate: Iv }[] }[];
    };
    expect(t.models).toEqual([DEMO_SST2, DEMO_COLA]);
    expect(t.rows.map((x) => x.run.dir)).toEqual([sst2, short]);
    for (const [i, d] of [sst2, short].entries()) {
      const succeeded = rows(d).filter((x) => x.status === 'succeeded').length;
      const [own, other] = t.rows[i]!.cells;
      // Its own model: every successful adversarial example fools it again (the model is deterministic).
      expect(own).toMatchObject({ adversarial: succeeded, clean_correct: succeeded, fooled: succeeded });
      expect(own!.rate.value).toBe(1);
      expect(other!.adversarial).toBe(succeeded);
      const [p, lo, hi] = wilsonRef(other!.fooled, other!.clean_correct);
      expect([other!.rate.value, other!.rate.low, other!.rate.high].map((x) => Number(x!.toFixed(12)))).toEqual(
        [p, lo, hi].map((x) => Number(x.toFixed(12))),
      );
    }
    const html = readFileSync(join(out, 'transfer.html'), 'utf8');
    expect(html).toContain('class="heat"');
    expect(html).not.toMatch(/<script|https?:\/\//);
    const missing = await runCli(['transfer', '--from', sst2, '--models', DEMO_COLA]);
    expect(expectCleanError(missing)).toMatch(/has no class "negative", "positive".*--label-map/);
  });
});
