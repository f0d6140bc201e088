/**
 * The orderings of Adv-BERT's Table 1 with their uncertainty (issue 27): at each K, typos in max- vs random- vs
 * min-importance words compared on the same examples with the exact McNemar test on per-example outcomes
 * (right after at most K typos or not), p adjusted by Holm over every K and pair. The random row is its first seed's
 * run (a mean over seeds has no per-example outcome to pair).
 */
import type { ExampleResult } from '../../core/result.ts';
import { holm, pairedBinary, type Interval } from '../../stats/index.ts';

/** One comparison at one K: accuracies with Wilson intervals, the discordant pairs, p and Holm's p. */
export interface CurvePairTest {
  k: number;
  a: string;
  b: string;
  n: number;
  a_accuracy: Interval;
  b_accuracy: Interval;
  /** Examples right in A only / in B only at this K. */
  only_a: number;
  only_b: number;
  p: number;
  p_holm: number;
}

/**
 * Per example (in file order, keyed by id) and K = 0..kMax: right after at most K typos. Default mode counts edits
 * (wrong from K = the successful attack's edit count on); top-K mode reads the trace point after word K.
 */
export async function outcomesByK(results: AsyncIterable<ExampleResult>, kMax: number, topK: boolean): Promise<Map<string, boolean[]>> {
  const out = new Map<string, boolean[]>();
  for await (const r of results) {
    const row: boolean[] = [];
    for (let k = 0; k <= kMax; k++) {
      if (!r.original_correct) row.push(false);
      else if (topK) {
        const t = k === 0 ? undefined : r.trace[Math.min(k, r.trace.length) - 1];
        row.push(t === undefined || t.correct);
      } else row.push(!(r.status === 'succeeded' && r.edits.length <= k));
    }
    out.set(r.id, row);
  }
  return out;
}

/** McNemar at every K ≥ 1 for each pair of rows, over the examples all rows hold; Holm over all of them. */
export function curvePairTests(rows: ReadonlyMap<string, Map<string, boolean[]>>, kMax: number): CurvePairTest[] {
  const names = [...rows.keys()];
  const ids = [...(rows.get(names[0]!)?.keys() ?? [])].filter((id) => names.every((n) => rows.get(n)!.has(id)));
  const tests: Omit<CurvePairTest, 'p_holm'>[] = [];
  for (let k = 1; k <= kMax; k++) {
    for (let i = 0; i < names.length; i++) {
      for (let j = i + 1; j < names.length; j++) {
        const a = ids.map((id) => rows.get(names[i]!)!.get(id)![k]!);
        const b = ids.map((id) => rows.get(names[j]!)!.get(id)![k]!);
        const t = pairedBinary(a, b);
        tests.push({ k, a: names[i]!, b: names[j]!, n: t.n, a_accuracy: t.a, b_accuracy: t.b, only_a: t.onlyA, only_b: t.onlyB, p: t.p });
      }
    }
  }
  const adjusted = holm(tests.map((t) => t.p));
  return tests.map((t, i) => ({ ...t, p_holm: adjusted[i]! }));
}

/** The tests as a terminal table: one line per K and pair. */
export function curvePairText(tests: readonly CurvePairTest[]): string {
  if (!tests.length) return '';
  const p = (x: number): string => (x < 0.001 ? '<0.001' : x.toFixed(3));
  const pct = (iv: Interval): string => (iv.value === null ? 'n/a' : `${(100 * iv.value).toFixed(1)}%`);
  const lines = tests.map(
    (t) =>
      `  K=${t.k}  ${t.a} ${pct(t.a_accuracy)} vs ${t.b} ${pct(t.b_accuracy)}  discordant ${t.only_a}/${t.only_b}  ` +
      `p=${p(t.p)}  Holm p=${p(t.p_holm)}${t.p_holm < 0.05 ? '  *' : ''}`,
  );
  return [
    `Paired tests on the same ${tests[0]!.n} examples (exact McNemar, Holm over all ${tests.length}; * = p_Holm < 0.05):`,
    ...lines,
  ].join('\n');
}
