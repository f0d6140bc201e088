/**
 * `textstress compare A B` (paired comparison of two runs over the same examples) and `textstress transfer --from RUN
 * --models m1,m2` (the transfer matrix); the logic lives in src/report/compare/.
 */
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { addFlags } from '../options.ts';
import {
  COMPARE_MAX_LISTED,
  compareRuns,
  differencesText,
  ivText,
  transferHtml,
  transferMatrix,
  writeComparison,
  type Comparison,
  type ExampleView,
} from '../../report/compare/index.ts';
import { QueryEngine } from '../../query/engine.ts';
import { openModel } from '../../runner/open.ts';
import { formatGrid } from '../../util/table.ts';
import { jsonForTerminal, terminalSafe } from '../../util/terminal.ts';
import { errorMessage, TextstressError } from '../../util/errors.ts';
import type { Interval } from '../../stats/index.ts';

/** `compare`'s exit status when it could not compare (bad arguments, unreadable or incomparable runs): 1 is a regression. */
export const COMPARE_ERROR_EXIT = 2;

const number =
  (what: string, lo: number, hi: number) =>
  (v: string): number => {
    const x = Number(v);
    if (!Number.isFinite(x) || x <= lo || x >= hi) throw new InvalidArgumentError(`${what} must be a number in (${lo}, ${hi}).`);
    return x;
  };

const pText = (p: number | null): string => (p === null ? 'n/a' : p < 0.001 ? p.toExponential(1) : p.toFixed(3));

/** Newly broken examples the terminal spells out (all of them are in compare.json / compare.html). */
const SHOWN_BROKE = 3;

/** The terminal table of a comparison: what differs between the runs, the metrics, and the first newly broken examples. */
export function comparisonText(c: Comparison): string {
  const rows = c.metrics.map((m) => [
    m.label ?? m.metric,
    ivText(m.a),
    ivText(m.b),
    ivText(m.diff, true),
    m.test === 'mcnemar' ? `McNemar ${m.counts!.onlyA}/${m.counts!.onlyB}` : 'paired bootstrap',
    pText(m.p),
    pText(m.p_holm),
    m.regression ? 'WORSE in B' : m.improvement ? 'better in B' : '',
  ]);
  const joined =
    c.joined.mode === 'same'
      ? `${c.joined.n} examples`
      : `${c.joined.n} examples in both (${c.joined.only_a} only in A, ${c.joined.only_b} only in B)`;
  const differ = c.differ ?? [];
  return [
    `A: ${c.a.dir} (${c.a.recipe} on ${c.a.model})`,
    `B: ${c.b.dir} (${c.b.recipe} on ${c.b.model})`,
    differ.length ? `What differs (A → B): ${differencesText(differ)}` : 'Same recipe, model, data, seed and settings.',
    `Joined per example: ${joined}; α = ${c.alpha} after Holm; bootstrap seed ${String(c.seed)}.`,
    formatGrid(['metric', 'A [95% CI]', 'B [95% CI]', 'B − A [95% CI]', 'test (discordant A/B)', 'p', 'p Holm', ''], rows),
    ...budgetText(c),
    `Newly broke under attack: ${c.newly_broke_n}; newly held: ${c.newly_held_n}.`,
    ...brokeLines(c),
    c.regression
      ? `Regression: ${c.metrics
          .filter((m) => m.regression)
          .map((m) => m.label ?? m.metric)
          .join(', ')} significantly worse in B.`
      : 'No significant regression in B.',
  ].join('\n');
}

/** The query-budget part of the terminal comparison: success within each budget in A and B, and queries per success. */
function budgetText(c: Comparison): string[] {
  const q = c.query_budget;
  if (!q || q.budgets.length === 0) return [];
  const num = (iv: Interval): string =>
    iv.value === null ? 'n/a' : `${iv.value.toFixed(1)}${iv.low === null ? '' : ` [${iv.low.toFixed(1)}, ${iv.high!.toFixed(1)}]`}`;
  const rows = q.budgets.map((r) => [
    `≤ ${r.budget}`,
    ivText(r.a),
    ivText(r.b),
    ivText(r.diff, true),
    `McNemar ${r.counts.onlyA}/${r.counts.onlyB}`,
    pText(r.p),
    pText(r.p_holm),
  ]);
  const qs = q.queries_per_success;
  return [
    'Attack success by query budget (queries per example, the clean one included; Holm over these budgets):',
    formatGrid(['budget', 'A [95% CI]', 'B [95% CI]', 'B − A [95% CI]', 'test', 'p', 'p Holm'], rows),
    `Queries per successful attack: A ${num(qs.a)} (n=${qs.a.n}), B ${num(qs.b)} (n=${qs.b.n}); B − A on the ${qs.diff.n} ` +
      `examples both broke: ${num(qs.diff)}, p = ${pText(qs.p)}.`,
  ];
}

/** The first few newly broken examples: B's attacked text and both runs' answers; where the rest are. */
function brokeLines(c: Comparison): string[] {
  const shown = c.newly_broke.slice(0, SHOWN_BROKE);
  if (!shown.length) return [];
  const cut = (s: string): string => (s.length > 150 ? `${s.slice(0, 149)}…` : s);
  const text = (v: Record<string, string | string[]>): string =>
    Object.values(v)
      .map((x) => (Array.isArray(x) ? x.join(' ') : x))
      .join(' | ');
  const lines = [`First ${shown.length} newly broken (right under attack in A, wrong in B):`];
  for (const x of shown) {
    const [id, a, b] = [x.id, x.a as ExampleView | undefined, x.b as ExampleView | undefined];
    lines.push(
      `  ${id}: A ${a ? `${a.clean_answer} → ${a.attacked_answer}` : 'n/a'}; B ${b ? `${b.clean_answer} → ${b.attacked_answer}` : 'n/a'}`,
    );
    if (b) lines.push(`    B attacked: ${cut(text(b.perturbed))}`);
  }
  if (c.newly_broke_n > shown.length)
    lines.push(`  … and ${c.newly_broke_n - shown.length} more: --out DIR (compare.html) or --json lists them.`);
  return lines;
}

export function compareCommand(): Command {
  const cmd = new Command('compare')
    .description(
      'paired comparison of two runs over the same examples: both values with 95% intervals, the difference, ' +
        'exact McNemar / paired bootstrap with Holm; writes compare.json and compare.html',
    )
    .argument('<a>', 'the first run folder (the baseline)')
    .argument('<b>', 'the second run folder (compared against A: differences are B − A)');
  addFlags(cmd, { out: { help: 'folder for compare.json and compare.html (default: print only)' } });
  cmd.option('--intersection', 'compare on the examples both runs hold instead of refusing different example sets');
  // No default seed: the bootstrap reuses run A's, so comparing the same runs twice gives the same intervals.
  addFlags(cmd, { seed: { help: 'bootstrap seed (default: the seed of run A)', default: undefined } });
  cmd
    .option('--alpha <p>', 'significance level after Holm', number('--alpha', 0, 1), 0.05)
    .option(
      '--fail-on-regression',
      'exit 1 when some metric is significantly worse in B (after Holm); whatever the flag, exit 2 when the runs could not be compared',
    )
    .addHelpText(
      'after',
      '\nExit status: 0 compared (no significant regression, or --fail-on-regression not given); 1 a significant ' +
        'regression with --fail-on-regression; 2 could not compare (bad arguments, a run that cannot be read, ' +
        'different examples, edited results).',
    );
  // A list of changed examples per side, not the report's sample of every run: COMPARE_MAX_LISTED.
  return addFlags(cmd, {
    maxExamples: { help: 'most examples listed per side (newly broke / newly held)', default: COMPARE_MAX_LISTED },
    json: { help: 'print compare.json instead of the table' },
  }).action(
    async (
      a: string,
      b: string,
      opts: {
        out?: string;
        intersection?: boolean;
        seed?: number;
        alpha: number;
        failOnRegression?: boolean;
        maxExamples: number;
        json?: boolean;
      },
    ) => {
      let c: Comparison;
      try {
        c = await compareRuns(a, b, {
          alpha: opts.alpha,
          maxExamples: opts.maxExamples,
          ...(opts.intersection ? { intersection: true } : {}),
          ...(opts.seed !== undefined && Number.isFinite(opts.seed) ? { seed: opts.seed } : {}),
        });
      } catch (err) {
        // Could not compare: not a regression, so not exit 1 (CI must tell them apart).
        throw new TextstressError(errorMessage(err), { exitCode: COMPARE_ERROR_EXIT, cause: err });
      }
      process.stdout.write(opts.json ? jsonForTerminal(c) : terminalSafe(comparisonText(c), { keepLayout: true }) + '\n');
      if (opts.out) {
        let files: { json: string; html: string };
        try {
          files = await writeComparison(c, opts.out);
        } catch (err) {
          throw new TextstressError(errorMessage(err), { exitCode: COMPARE_ERROR_EXIT, cause: err });
        }
        if (!opts.json) process.stdout.write(`Wrote ${files.json} and ${files.html}\n`);
      }
      if (opts.failOnRegression && c.regression) process.exitCode = 1;
    },
  );
}

/** "MODEL=a:b,c:d" → {MODEL: {a: b, c: d}}; MODEL must be one of --models. */
function labelMaps(specs: readonly string[], models: readonly string[]): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = {};
  for (const s of specs) {
    const at = s.indexOf('=');
    const model = s.slice(0, at);
    const pairs = s
      .slice(at + 1)
      .split(',')
      .map((p) => p.split(':'));
    if (at < 1 || !models.includes(model) || pairs.some((p) => p.length !== 2 || !p[0] || !p[1])) {
      throw new TextstressError(`--label-map "${s}" is not MODEL=from:to,from:to with MODEL one of --models (${models.join(', ')}).`);
    }
    out[model] = Object.fromEntries(pairs.map((p) => [p[0]!.trim(), p[1]!.trim()]));
  }
  return out;
}

export function transferCommand(): Command {
  const cmd = new Command('transfer')
    .description(
      'score the adversarial examples of one or more runs on other models: the N×M matrix of transfer rates with 95% intervals (transfer.json, transfer.html)',
    )
    .requiredOption('--from <dirs...>', 'run folders whose successful adversarial examples are scored (classification runs)')
    .requiredOption('--models <specs>', 'comma-separated models (folders, built-in names, hub ids or URLs)')
    .option(
      '--label-map <model=map...>',
      'run label → model label for one model, e.g. "demo-cola=negative:unacceptable,positive:acceptable"',
    );
  return addFlags(cmd, {
    out: { help: 'folder for transfer.json and transfer.html (default: print only)' },
    json: { help: 'print transfer.json instead of the table' },
  }).action(async (opts: { from: string[]; models: string; labelMap?: string[]; out?: string; json?: boolean }) => {
    const models = opts.models
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const t = await transferMatrix(opts.from, {
      models,
      labelMaps: labelMaps(opts.labelMap ?? [], models),
      open: (spec) => openModel({ model: spec }),
      query: (model, inputs) => new QueryEngine(model).query(inputs),
    });
    if (opts.json) process.stdout.write(jsonForTerminal(t));
    else {
      const rows = t.rows.map((r) => [
        `${r.run.recipe} on ${r.run.model}`,
        ...r.cells.map((c) => `${ivText(c.rate)} (${c.fooled}/${c.clean_correct})`),
      ]);
      process.stdout.write(
        terminalSafe(formatGrid(['adversarial examples of', ...models], rows), { keepLayout: true }) + '\n' + t.definition + '\n',
      );
    }
    if (opts.out) {
      mkdirSync(opts.out, { recursive: true });
      writeFileSync(join(opts.out, 'transfer.json'), JSON.stringify(t, null, 2) + '\n');
      writeFileSync(join(opts.out, 'transfer.html'), transferHtml(t));
      if (!opts.json) process.stdout.write(`Wrote ${join(opts.out, 'transfer.json')} and ${join(opts.out, 'transfer.html')}\n`);
    }
  });
}
