/**
 * AddAny (Jia & Liang 2017) with cross-example batching vs without: model queries and wall time per question.
 *
 * The two arms differ in one thing: questions worked on at once — all of them, whose steps the query engine
 * gathers into shared model calls ("cross-example"), or 1 ("within-example only": each step's candidates are
 * still one call). Same model, data, seed, settings, cache and engine options; the bench checks that both arms
 * give identical outcomes (distractors, answers, query counts).
 *
 * Cases: (1) the paper's settings (6 rounds, 20 candidates, stop at F1 = 0) over `--n` questions; (2) the full
 * budget (no early stop) for `--full-rounds` rounds over the first `--full-n` questions, in process; (3) the same
 * over HTTP through `textstress serve --latency-ms` (a remote model's round trip), unless `--latency 0`.
 *
 *   npx tsx bench/addany-bench.ts [--model test/fixtures/models/tiny-bert-qa] [--data <SQuAD JSON>] [--n 89]
 *                                 [--full-n 8] [--full-rounds 1] [--latency 50] [--repeats 1] [--variant addany]
 *                                 [--cases paper,full,http]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { collect, loadSquad } from '../src/data/index.ts';
import type { QaExample } from '../src/data/types.ts';
import { createHttpModel } from '../src/models/http-adapter.ts';
import { loadModel } from '../src/models/load.ts';
import type { ModelAdapter } from '../src/models/types.ts';
import { QueryEngine } from '../src/query/engine.ts';
import { runAddAny, summarizeAddAny, type AddAnyVariant, type RunAddAnyOptions } from '../src/families/stress/qa/index.ts';
import { counting, median, startServer } from './support.ts';

const { values } = parseArgs({
  options: {
    model: { type: 'string', default: 'test/fixtures/models/tiny-bert-qa' },
    data: { type: 'string', default: 'test/fixtures/data/squad-v1.1/dev-v1.1.json' },
    n: { type: 'string', default: '89' },
    'full-n': { type: 'string', default: '8' },
    'full-rounds': { type: 'string', default: '1' },
    latency: { type: 'string', default: '50' },
    repeats: { type: 'string', default: '1' },
    variant: { type: 'string', default: 'addany' },
    cases: { type: 'string', default: 'paper,full,http' },
  },
});
const CASES = new Set(values.cases!.split(','));
const VARIANT = values.variant as AddAnyVariant;
const REPEATS = Number(values.repeats);

type Row = {
  seconds: number;
  seconds_per_question: number;
  model_calls: number;
  requests: number;
  rows_per_call: number;
  queries_per_question: number | null;
  outcomes: string;
};

async function arm(model: ModelAdapter, questions: QaExample[], opts: RunAddAnyOptions, perRequest: number): Promise<Row> {
  const counted = counting(model, perRequest);
  const t0 = performance.now();
  const outcomes = await runAddAny(questions, new QueryEngine(counted), opts);
  const seconds = (performance.now() - t0) / 1000;
  const s = summarizeAddAny(outcomes);
  return {
    seconds: round(seconds, 2),
    seconds_per_question: round(seconds / questions.length, 4),
    model_calls: counted.calls,
    requests: counted.requests,
    rows_per_call: round(counted.rows / Math.max(1, counted.calls), 1),
    queries_per_question: s.queriesPerQuestion === null ? null : round(s.queriesPerQuestion, 1),
    outcomes: JSON.stringify(outcomes),
  };
}

async function compare(name: string, model: ModelAdapter, questions: QaExample[], opts: RunAddAnyOptions, perRequest = Infinity) {
  const cross: Row[] = [];
  const within: Row[] = [];
  for (let r = 0; r < REPEATS; r++) {
    cross.push(await arm(model, questions, { ...opts, concurrency: questions.length }, perRequest));
    within.push(await arm(model, questions, { ...opts, concurrency: 1 }, perRequest));
  }
  const c = median(cross);
  const w = median(within);
  const identical = [...cross, ...within].every((x) => x.outcomes === c.outcomes);
  const summary = summarizeAddAny(JSON.parse(c.outcomes));
  const strip = ({ outcomes: _o, ...rest }: Row) => rest;
  const row = {
    case: name,
    questions: questions.length,
    settings: { variant: VARIANT, rounds: opts.rounds ?? 6, candidates: opts.candidates ?? 20, stopAtZero: opts.stopAtZero ?? true },
    cross_example: strip(c),
    within_example: strip(w),
    speedup_cross_vs_within: round(w.seconds / c.seconds, 2),
    identical_outcomes: identical,
    original: summary.original,
    adversarial: summary.adversarial,
    stopped_early: summary.stoppedEarly,
  };
  process.stderr.write(
    `${name}: cross ${c.seconds} s (${c.model_calls} calls) · within ${w.seconds} s (${w.model_calls}) · ` +
      `×${row.speedup_cross_vs_within} · identical ${identical}\n`,
  );
  return row;
}

function round(x: number, digits: number): number {
  return Math.round(x * 10 ** digits) / 10 ** digits;
}

async function main(): Promise<void> {
  const all = await collect(await loadSquad(values.data!, { limit: Number(values.n) }));
  const full = all.slice(0, Number(values['full-n']));
  const fullOpts: RunAddAnyOptions = { variant: VARIANT, rounds: Number(values['full-rounds']), stopAtZero: false };
  const model = await loadModel(values.model!);
  // Warm-up (ONNX session, tokenizer caches), untimed.
  await model.predict([{ kind: 'qa', question: all[0]!.question, context: all[0]!.context }]);
  const rows = [];
  if (CASES.has('paper')) rows.push(await compare(`${values.model} in process, paper settings`, model, all, { variant: VARIANT }));
  if (CASES.has('full')) rows.push(await compare(`${values.model} in process, full budget`, model, full, fullOpts));
  await model.close?.();
  const latency = Number(values.latency);
  if (latency > 0 && CASES.has('http')) {
    const server = await startServer(values.model!, latency);
    try {
      // The same request concurrency (4) and batch size (32) on both arms.
      const http = await createHttpModel(server.url, { batchSize: 32, concurrency: 4 });
      rows.push(await compare(`${values.model} over HTTP +${latency} ms, full budget`, http, full, fullOpts, 32));
    } finally {
      server.child.kill('SIGTERM');
    }
  }
  mkdirSync('bench/.out', { recursive: true });
  const report = { date: new Date().toISOString(), model: values.model, data: values.data, repeats: REPEATS, rows };
  writeFileSync(`bench/.out/addany-bench-${[...CASES].join('-')}.json`, JSON.stringify(report, null, 2) + '\n');
  console.log(JSON.stringify(report, null, 2));
}

await main();
