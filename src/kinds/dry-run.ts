/** What a dry run prints: per run, the requests, tokens and cost the real run would take at most. */
import type { RunRow } from './types.ts';

export type { RunRow };

/** A row of a dry run: a per-example run, whose process figures say what it sent. */
type DryRow = RunRow & { process: NonNullable<RunRow['process']> };

/**
 * What a dry run found, per run: examples, the requests the real run would send at most (no example skipped — a
 * stand-in's clean answer says nothing of the real one's —, every search run to its end, greedy word searches taking
 * the costliest order: SearchContext.worstCase; answers already in the query cache left out), and their tokens and
 * cost at most (prompts at ~4 bytes a token, max_tokens out). Resource models (a sentence encoder, a masked LM) are
 * not counted.
 */
export function dryRunTable(all: readonly RunRow[]): string {
  const rows = all.filter((r): r is DryRow => r.process !== undefined);
  const num = (x: number): string => x.toLocaleString('en-US');
  const money = (x: number | null | undefined): string =>
    x === null || x === undefined ? 'n/a' : `≤ $${x < 0.01 && x > 0 ? x.toPrecision(3) : x.toFixed(2)}`;
  const total = { n: 0, sent: 0, cached: 0, input: 0, output: 0, cost: 0 as number | null };
  const lines = rows.map((r) => {
    const p = r.process;
    const sent = p.model_inferences;
    total.n += r.n;
    total.sent += sent;
    total.cached += p.disk_cache_hits ?? 0;
    total.input += p.spent?.input_tokens ?? 0;
    total.output += p.spent?.output_tokens ?? 0;
    total.cost = total.cost === null || p.spent?.cost_usd == null ? null : total.cost + p.spent.cost_usd;
    return [
      r.name,
      num(r.n),
      `≤ ${num(sent)}`,
      num(p.disk_cache_hits ?? 0),
      p.spent ? `≤ ${num(p.spent.input_tokens)}` : '',
      p.spent ? `≤ ${num(p.spent.output_tokens)}` : '',
      p.spent ? money(p.spent.cost_usd) : '',
    ];
  });
  if (rows.length > 1)
    lines.push([
      'total',
      num(total.n),
      `≤ ${num(total.sent)}`,
      num(total.cached),
      `≤ ${num(total.input)}`,
      `≤ ${num(total.output)}`,
      money(total.cost),
    ]);
  const head = ['run', 'examples', 'requests', 'from cache', 'tokens in', 'tokens out', 'cost'];
  const widths = head.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const fmt = (cells: string[]): string => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [
    'Dry run: nothing was sent. Upper bounds on the target model: no example is skipped and no attack succeeds, so ' +
      'every search runs to its end, and greedy word searches edit the words with the most candidates first; words ' +
      'whose candidates are drawn at random may get a few more or fewer in the real run. Not included: queries to a ' +
      'sentence encoder or masked LM (resource_queries). Prompts at ~4 bytes a token, max_tokens out.',
    fmt(head),
    ...lines.map(fmt),
  ].join('\n');
}
