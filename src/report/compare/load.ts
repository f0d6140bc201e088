/**
 * Reading two finished attack-shaped runs (attacks and probes: summary.json + results.jsonl) for a paired comparison:
 * one streaming pass per run keeps a few compact values per example (never the texts), and the two are joined by
 * example id. The texts of the examples a comparison lists are read back in a second pass (see {@link readDetails}).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ExampleResult } from '../../core/result.ts';
import type { Prediction } from '../../core/goals/index.ts';
import type { EntityCounts } from '../../data/entities.ts';
import { readResults } from '../../runner/checkpoint.ts';
import { checkDigests, type Digests } from '../../runner/digest.ts';
import { RESULTS_FILE, STATE_FILE, SUMMARY_FILE } from '../../runner/per-example.ts';
import { readStateFile } from '../../runner/resume.ts';
import { TextstressError, errorMessage } from '../../util/errors.ts';
import { answerUnchanged } from '../../metrics/stable.ts';
import { kindOfSummary } from '../../kinds/index.ts';

/** What a comparison keeps of one example of one run. */
export interface Outcome {
  /** The model was right on the clean example. */
  clean: boolean;
  /** The model was right on the attacked (perturbed) example (the clean one when the attack skipped it). */
  attacked: boolean;
  /** The attack ran (not skipped). */
  tried: boolean;
  /** The attack succeeded. */
  succeeded: boolean;
  /** Counted in stability (clean right and attacked): the prediction did not change at all; null when not counted. */
  stable: boolean | null;
  /** QA: answer F1 / exact match before and after. */
  f1?: [number, number];
  em?: [number, number];
  /** NER: entity counts before and after (the corpus F1 sums them). */
  entities?: [EntityCounts, EntityCounts];
  /** Distinct model inputs the example asked for (its `queries`); absent in probe results (no search to budget). */
  queries?: number;
}

/** What identifies a run in a comparison. */
export interface RunInfo {
  dir: string;
  recipe: string;
  model: string;
  dataset: string;
  seed: number;
  n: number;
  /** The run's per-example query budget (--max-queries), when it had one: its query-budget curve ends there. */
  max_queries?: number;
  /** The recipe's recorded settings (summary.json's `settings`): what tells two runs of one recipe apart. */
  settings: Record<string, unknown>;
  /** Its kind counts queries per search (attacks: --max-queries applies), so its results have a budget curve. */
  budgeted: boolean;
}

/** One run read for comparison: its identity and its examples' outcomes, by id, in file order. */
export interface RunOutcomes {
  info: RunInfo;
  outcomes: Map<string, Outcome>;
}

/** The compact outcome of one result, as the run's summary counts it (src/metrics/summary.ts); `budgeted`: see RunInfo. */
export function outcomeOf(r: ExampleResult, budgeted = true): Outcome {
  const tried = r.status !== 'skipped';
  const o: Outcome = {
    clean: r.original_correct,
    attacked: r.perturbed_correct,
    tried,
    succeeded: r.status === 'succeeded',
    stable: r.original_correct && tried ? answerUnchanged(r) : null,
  };
  const [p, q] = [r.original_prediction, r.perturbed_prediction];
  if (p.f1 !== undefined && q.f1 !== undefined) {
    o.f1 = [p.f1, q.f1];
    o.em = [p.em ?? 0, q.em ?? 0];
  }
  if (p.entities && q.entities) o.entities = [p.entities, q.entities];
  if (budgeted && typeof r.queries === 'number') o.queries = r.queries;
  return o;
}

/** Reads a run folder's summary.json; refuses folders that are not a finished per-example run with results. */
export function readRunInfo(dir: string): RunInfo {
  const file = join(dir, SUMMARY_FILE);
  if (!existsSync(file))
    throw new TextstressError(`no finished run in ${dir} (no summary.json).`, { hint: 'Pass folders written by attack or probe.' });
  let s: Record<string, unknown>;
  try {
    s = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch (err) {
    throw new TextstressError(`cannot read summary.json: ${errorMessage(err)}`, { where: file });
  }
  if (typeof s.recipe !== 'string' || typeof s.n !== 'number')
    throw new TextstressError('summary.json is not a textstress run summary.', { where: file });
  if (s.shard) throw new TextstressError(`${dir} is one shard of a run; join the shards with textstress merge first.`, { where: file });
  if (!existsSync(join(dir, RESULTS_FILE))) throw new TextstressError(`no results.jsonl in ${dir}.`, { where: dir });
  // As merge does: results or a summary edited after the run finished are no run's (issue 35).
  const digests = readStateFile<{ digests?: Digests }>(join(dir, STATE_FILE))?.digests;
  if (digests) checkDigests(dir, digests, 'the run', 'compared');
  const budget = (s.settings as Record<string, unknown> | undefined)?.maxQueries;
  return {
    dir,
    recipe: s.recipe,
    model: String(s.model),
    dataset: String(s.dataset),
    seed: typeof s.seed === 'number' ? s.seed : 0,
    n: s.n,
    ...(typeof budget === 'number' ? { max_queries: budget } : {}),
    settings: typeof s.settings === 'object' && s.settings !== null ? (s.settings as Record<string, unknown>) : {},
    budgeted: kindOfSummary(s).supports.maxQueries === true,
  };
}

/** One streaming pass over a run's results.jsonl: the compact outcome of every example. */
export async function readOutcomes(dir: string): Promise<RunOutcomes> {
  const info = readRunInfo(dir);
  const outcomes = new Map<string, Outcome>();
  const file = join(dir, RESULTS_FILE);
  let line = 0;
  for await (const r of readResults<ExampleResult>(file)) {
    line++;
    if (typeof r.id !== 'string' || typeof r.original_correct !== 'boolean' || !r.original_prediction || !r.perturbed_prediction) {
      throw new TextstressError(
        `result ${line} is not an attack or probe result (id, original_correct, predictions): ` +
          'only runs with one result per example can be compared example by example.',
        { where: file },
      );
    }
    if (outcomes.has(r.id)) throw new TextstressError(`example id "${r.id}" occurs twice (result ${line}).`, { where: file });
    outcomes.set(r.id, outcomeOf(r, info.budgeted));
  }
  return { info, outcomes };
}

/** Two runs joined per example: the ids of both (in A's order), and what differs when the sets differ. */
export interface Joined {
  ids: string[];
  a: Outcome[];
  b: Outcome[];
  onlyA: string[];
  onlyB: string[];
  /** 'same': both runs hold exactly these examples; 'intersection': compared on the examples both hold. */
  mode: 'same' | 'intersection';
}

/**
 * Joins two runs by example id. Runs over different example sets are refused with which ids differ, unless
 * `intersection` is asked for; then the comparison is over the examples both hold.
 */
export function join2(a: RunOutcomes, b: RunOutcomes, opts: { intersection?: boolean } = {}): Joined {
  const ids: string[] = [];
  const onlyA: string[] = [];
  for (const id of a.outcomes.keys()) (b.outcomes.has(id) ? ids : onlyA).push(id);
  const onlyB = [...b.outcomes.keys()].filter((id) => !a.outcomes.has(id));
  if ((onlyA.length || onlyB.length) && !opts.intersection) {
    const few = (xs: string[]): string => xs.slice(0, 5).join(', ') + (xs.length > 5 ? ', …' : '');
    throw new TextstressError(
      `the runs are over different examples: ${a.outcomes.size} in ${a.info.dir}, ${b.outcomes.size} in ${b.info.dir}, ${ids.length} in both; ` +
        `${onlyA.length} only in the first${onlyA.length ? ` (${few(onlyA)})` : ''}, ` +
        `${onlyB.length} only in the second${onlyB.length ? ` (${few(onlyB)})` : ''}.`,
      { hint: 'Compare runs over the same data, --limit and shard, or pass --intersection to compare on the examples both hold.' },
    );
  }
  if (ids.length === 0) throw new TextstressError(`the runs ${a.info.dir} and ${b.info.dir} have no example in common.`);
  return {
    ids,
    a: ids.map((id) => a.outcomes.get(id)!),
    b: ids.map((id) => b.outcomes.get(id)!),
    onlyA,
    onlyB,
    mode: onlyA.length || onlyB.length ? 'intersection' : 'same',
  };
}

/** What a comparison shows of one example of one run: its texts and answers. */
export interface ExampleView {
  status: ExampleResult['status'];
  original: Record<string, string | string[]>;
  perturbed: Record<string, string | string[]>;
  gold: unknown;
  clean_answer: string;
  attacked_answer: string;
}

/** A prediction as one line: label (score), tags, or the answer text. */
export function answerText(p: Prediction): string {
  if (p.answer) return p.answer.text;
  if (p.tags) return p.tags.join(' ');
  return p.score !== undefined ? `${p.label} (${p.score.toFixed(2)})` : String(p.label);
}

/** Second streaming pass: the texts and answers of the given examples only. */
export async function readDetails(dir: string, ids: ReadonlySet<string>): Promise<Map<string, ExampleView>> {
  const out = new Map<string, ExampleView>();
  if (ids.size === 0) return out;
  for await (const r of readResults<ExampleResult>(join(dir, RESULTS_FILE))) {
    if (!ids.has(r.id)) continue;
    out.set(r.id, {
      status: r.status,
      original: r.original,
      perturbed: r.perturbed,
      gold: r.gold,
      clean_answer: answerText(r.original_prediction),
      attacked_answer: answerText(r.perturbed_prediction),
    });
    if (out.size === ids.size) break;
  }
  return out;
}
