import type { Prediction } from '../core/goals/index.ts';
import type { ExampleResult } from '../core/result.ts';
import { addCounts, f1, type EntityCounts } from '../data/entities.ts';
import { BudgetTally, type BudgetPoint } from './budget.ts';
import { Mean } from './mean.ts';
import { ChanceTally, type BelowChance } from './chance.ts';
import { exampleValues, IntervalTally, type RunIntervals } from './intervals.ts';
import { answerUnchanged } from './stable.ts';

export type { IntervalMetric, RunIntervals } from './intervals.ts';
export type { BudgetPoint } from './budget.ts';
export type { ProcessStats } from './process-stats.ts';
import type { ProcessStats } from './process-stats.ts';
export type { GenerateSummary } from './generate-summary.ts';

/**
 * The headline metrics of a run, computed from its per-example results only (so resumes agree). A metric over zero
 * examples is undefined and written as null ("n/a"), never as a number that could pass a gate: its count is the
 * field named beside it (n, attacked, succeeded, stability_n).
 */
export interface RunMetrics {
  n: number;
  succeeded: number;
  failed: number;
  skipped: number;
  /** Examples attacked: succeeded + failed (the denominator of attack_success_rate). */
  attacked: number;
  clean_accuracy: number | null;
  attacked_accuracy: number | null;
  /** Successes over examples the model got right before the attack (skipped ones excluded). */
  attack_success_rate: number | null;
  /** Mean % of words edited, over successful attacks (TextAttack's convention). */
  mean_perturbed_word_pct: number | null;
  /** Mean % of words edited over every attacked (non-skipped) example. */
  mean_perturbed_word_pct_all: number | null;
  mean_queries: number | null;
  /**
   * Attacks only: the share of attacked examples whose attack succeeded within b distinct model inputs, for b on a
   * 1-2-3-5-7 grid up to the run's maximum; budget-stopped examples fail (src/metrics/budget.ts). Empty: none attacked.
   */
  success_by_budget?: BudgetPoint[];
  /** Attacks only: mean distinct model inputs per successful attack (the clean query included); null when none succeeded. */
  queries_per_success?: number | null;
  /** Attacks only: the median of the same; null when none succeeded. */
  queries_per_success_median?: number | null;
  /** Requests served from each example's own repeats; null when no request was made. */
  cache_hit_rate: number | null;
  /**
   * Accuracy when the attack may make at most k edits, k = 0..the most edits any attack made: an example counts
   * as wrong at k when the model was wrong to begin with, or the attack succeeded with at most k edits. null for
   * attacks that put a fixed number of edits in at once (noise, sampled errors), where it means nothing.
   */
  accuracy_by_edits: number[] | null;
  /**
   * Of the examples the model got right and that were attacked, the share whose prediction did not change at
   * all (same label; for taggers the same tag sequence); null (n/a) when there is none. `stability_n` is that count.
   */
  stability: number | null;
  stability_n: number;
  /** How often each edit type occurs in successful attacks. */
  edit_types_in_successes: Record<string, number>;
  /** How often each edit type occurs in the final texts of all attacked (non-skipped) examples. */
  edit_types_all: Record<string, number>;
  /** Skipped examples by reason (already misclassified, text the grammar tagger cannot read, …). */
  skip_reasons: Record<string, number>;
  /**
   * NER: corpus entity F1 before and after (null: no gold entity and none predicted in the whole run). Extractive
   * QA: mean answer F1 (SQuAD v1.1, each example's best over its gold answers) before and after, over all `n`
   * examples (a skipped one counts its clean answer twice); null over zero examples.
   */
  clean_f1?: number | null;
  attacked_f1?: number | null;
  /** Extractive QA only: mean exact match (SQuAD v1.1 normalisation) before and after, over all `n`; null over zero examples. */
  clean_em?: number | null;
  attacked_em?: number | null;
  /**
   * Probes only (B variants per example, worst and best kept): the mean task metric of the original, the worst
   * and the best variant over the probed examples, and the share of them whose prediction never changed.
   */
  probe?: { n: number; original_metric: number; worst_metric: number; best_metric: number; stability: number };
  /** Examples longer than the attack's edit window (maxWords): only their first words were attacked. */
  window_capped?: number;
  /**
   * A metered model (LLM endpoint): tokens of every example's distinct queries, summed (what the run costs from
   * scratch, cache aside; the same resumed or not), and their cost at the given prices (null: no prices given).
   * What this process really paid is `process.spent`.
   */
  usage?: { input_tokens: number; output_tokens: number; cost_usd: number | null };
  /** Attacks the per-example query budget (--max-queries) cut short (absent: none). */
  query_budget_exhausted?: number;
  /**
   * Answers that could not be mapped to an output (LLM free text): distinct answers over all examples, examples
   * with at least one, and examples skipped because the clean answer was one. Present for metered models and
   * whenever there is one.
   */
  unmappable?: { answers: number; examples: number; clean: number };
  /**
   * A classifier whose clean accuracy is far below chance: the upper bound of its 95% Wilson interval under 1 / the
   * classes (absent otherwise). Its labels are most likely paired the wrong way round; the run exits non-zero.
   */
  clean_below_chance?: BelowChance;
  /**
   * 95% intervals of the figures above, keyed by each figure's name (Wilson for shares of examples, a bootstrap
   * seeded from the run's seed over whole examples for means, F1, EM and the drop). Absent in runs written before
   * issue 27 and where the caller asked for none.
   */
  intervals?: RunIntervals;
}

/** summary.json of a finished run: what identifies it, and its metrics. */
export interface RunSummary extends RunMetrics {
  complete: true;
  /**
   * The recipe's kind (attack or probe), so nothing reading the folder has to work it out. Absent only in summaries
   * written before it was recorded (kindOfSummary in src/kinds/index.ts reads those).
   */
  kind?: 'attack' | 'probe';
  /** A shard's summary (`--shard I/N`): over its examples only; `textstress merge` writes the whole run's. */
  shard?: { index: number; count: number };
  recipe: string;
  model: string;
  dataset: string;
  seed: number;
  settings: Record<string, unknown>;
  wall_seconds: number;
  /** Rows of the data file skipped as malformed (only with --skip-bad-rows). */
  skipped_rows: number;
  /** What the recipe adds (probes: e.g. the entity probe's Table 3 and analyses by name). */
  details?: Record<string, unknown>;
  /** results.jsonl holds compact results (--compact). */
  compact_results?: true;
  /** Examples whose text holds U+FFFD (invalid UTF-8 in the data file, most likely), and where the first is. */
  replacement_chars?: { rows: number; first?: string };
  /**
   * This process's traffic (differs between a resumed and an uninterrupted run): inputs requested, served
   * from the shared cache (also across examples and earlier runs in the process), and really computed.
   */
  process: ProcessStats;
}

/** What a {@link SummaryAccumulator} knows before the first result. */
export interface SummaryOptions {
  /** The run is extractive QA: EM/F1 fields are reported even over zero examples (as null). */
  qa?: boolean;
  /** The run's seed: the bootstrap intervals' seeds derive from it (default 0). */
  seed?: number;
  /** Compute `intervals` (default true); false where only the counts are wanted (the report re-reading a run). */
  intervals?: boolean;
  /** The run's per-example query budget (--max-queries), where the query-budget curve ends. */
  maxQueries?: number;
}

/**
 * Computes RunMetrics from results fed one at a time, in bounded memory: counters and sums (the accuracy-by-edits
 * curve keeps one counter per edit count), and for the bootstrap intervals a few numbers per example in typed
 * columns (see IntervalTally).
 */
export class SummaryAccumulator {
  /** QA answers scored before and after (results whose predictions carry em/f1 make a run QA). */
  private readonly answers = { cleanEm: new Mean(), cleanF1: new Mean(), attackedEm: new Mean(), attackedF1: new Mean() };
  private sawAnswers: boolean;
  private readonly qa: boolean;
  private readonly tally: IntervalTally | undefined;
  private readonly budget = new BudgetTally();
  /** Probe results (B variants, not a search): no query-budget view. */
  private sawProbe = false;

  constructor(private readonly opts: SummaryOptions = {}) {
    this.qa = opts.qa === true;
    this.sawAnswers = this.qa;
    this.tally = opts.intervals === false ? undefined : new IntervalTally(opts.seed ?? 0);
  }

  private n = 0;
  private succeeded = 0;
  private failed = 0;
  private skipped = 0;
  private cleanCorrect = 0;
  private attackedCorrect = 0;
  private readonly pctSuccess = new Mean();
  private readonly pctAll = new Mean();
  private readonly queries = new Mean();
  private requests = 0;
  private hits = 0;
  private stableN = 0;
  private stableSame = 0;
  private readonly editTypes: Record<string, number> = {};
  private readonly editTypesAll: Record<string, number> = {};
  private readonly skipReasons: Record<string, number> = {};
  /** Originally-correct examples broken by a successful attack with exactly k edits. */
  private readonly brokenAt: number[] = [];
  private maxEdits = 0;
  private cleanEntities: EntityCounts = { tp: 0, fp: 0, fn: 0 };
  private attackedEntities: EntityCounts = { tp: 0, fp: 0, fn: 0 };
  private sawEntities = false;
  private capped = 0;
  private probed = 0;
  private probeNeverChanged = 0;
  private readonly probeOriginal = new Mean();
  private readonly probeWorst = new Mean();
  private readonly probeBest = new Mean();
  private usage: { input_tokens: number; output_tokens: number; cost_usd: number | null } | undefined;
  private readonly unmappable = { answers: 0, examples: 0, clean: 0 };
  private budgetCut = 0;
  private readonly chance = new ChanceTally();

  add(r: ExampleResult): void {
    this.chance.add(r.original_prediction, r.perturbed_prediction, r.gold);
    if (r.usage) {
      const u = (this.usage ??= { input_tokens: 0, output_tokens: 0, cost_usd: r.usage.cost_usd === undefined ? null : 0 });
      u.input_tokens += r.usage.input_tokens;
      u.output_tokens += r.usage.output_tokens;
      if (u.cost_usd !== null && r.usage.cost_usd !== undefined) u.cost_usd += r.usage.cost_usd;
    }
    if (r.unmappable) {
      this.unmappable.answers += r.unmappable;
      this.unmappable.examples++;
    }
    if (r.original_prediction.unmappable !== undefined) this.unmappable.clean++;
    if (r.query_budget_exhausted) this.budgetCut++;
    if (r.window_capped) this.capped++;
    if (r.probe) this.sawProbe = true;
    if (r.status !== 'skipped') this.budget.add(r.status === 'succeeded', r.queries);
    if (r.probe) {
      this.probed++;
      if (r.probe.changed === 0) this.probeNeverChanged++;
      this.probeOriginal.add(r.probe.original_metric);
      this.probeWorst.add(r.probe.worst_metric);
      this.probeBest.add(r.probe.best_metric);
    }
    this.n++;
    if (r.status === 'succeeded') this.succeeded++;
    else if (r.status === 'failed') this.failed++;
    else this.skipped++;
    if (r.original_correct) this.cleanCorrect++;
    if (r.perturbed_correct) this.attackedCorrect++;
    if (r.status === 'succeeded') this.pctSuccess.add(r.perturbed_word_pct);
    if (r.status !== 'skipped') this.pctAll.add(r.perturbed_word_pct);
    this.queries.add(r.queries);
    this.requests += r.requests;
    this.hits += r.cache_hits;

    if (r.status !== 'skipped') this.maxEdits = Math.max(this.maxEdits, editCount(r));
    if (r.original_correct && r.status === 'succeeded') this.brokenAt[r.edits.length] = (this.brokenAt[r.edits.length] ?? 0) + 1;

    if (r.original_correct && r.status !== 'skipped') {
      this.stableN++;
      if (answerUnchanged(r)) this.stableSame++;
    }
    if (r.status === 'succeeded') for (const e of r.edits) this.editTypes[e.type] = (this.editTypes[e.type] ?? 0) + 1;
    if (r.status !== 'skipped') {
      for (const e of r.edits) this.editTypesAll[e.type] = (this.editTypesAll[e.type] ?? 0) + 1;
      for (const [type, n] of Object.entries(r.edit_counts ?? {})) this.editTypesAll[type] = (this.editTypesAll[type] ?? 0) + n;
    }
    if (r.status === 'skipped') {
      const why = r.skip_reason ?? 'unknown';
      this.skipReasons[why] = (this.skipReasons[why] ?? 0) + 1;
    }
    const before = r.original_prediction.entities;
    const after = r.perturbed_prediction.entities;
    if (before && after) {
      this.sawEntities = true;
      this.cleanEntities = addCounts(this.cleanEntities, before);
      this.attackedEntities = addCounts(this.attackedEntities, after);
    }
    this.addAnswers(r.original_prediction, r.perturbed_prediction);
    this.tally?.add(exampleValues(r));
  }

  private addAnswers(before: Prediction, after: Prediction): void {
    if (before.f1 === undefined || after.f1 === undefined) return;
    this.sawAnswers = true;
    this.answers.cleanEm.add(before.em ?? 0);
    this.answers.cleanF1.add(before.f1);
    this.answers.attackedEm.add(after.em ?? 0);
    this.answers.attackedF1.add(after.f1);
  }

  /** @param editCurve whether accuracy by edits means something for this run (see SearchMethod.incremental). */
  finish(editCurve = true): RunMetrics {
    const n = this.n;
    let accuracyByEdits: number[] | null = null;
    let correctAtK: number[] | null = null;
    if (editCurve) {
      accuracyByEdits = [];
      correctAtK = [];
      let correct = this.cleanCorrect;
      for (let k = 0; n && k <= this.maxEdits; k++) {
        correct -= this.brokenAt[k] ?? 0;
        accuracyByEdits.push(correct / n);
        correctAtK.push(correct);
      }
    }
    const budget = this.sawProbe
      ? undefined
      : this.budget.finish({
          seed: String(this.opts.seed ?? 0),
          ...(this.opts.maxQueries !== undefined ? { maxQueries: this.opts.maxQueries } : {}),
          intervals: this.tally !== undefined,
        });
    const budgetFigures = budget
      ? {
          success_by_budget: budget.success_by_budget,
          queries_per_success: budget.queries_per_success,
          queries_per_success_median: budget.queries_per_success_median,
        }
      : {};
    const metrics: RunMetrics = {
      n,
      succeeded: this.succeeded,
      failed: this.failed,
      skipped: this.skipped,
      attacked: this.succeeded + this.failed,
      clean_accuracy: n ? this.cleanCorrect / n : null,
      attacked_accuracy: n ? this.attackedCorrect / n : null,
      attack_success_rate: this.succeeded + this.failed ? this.succeeded / (this.succeeded + this.failed) : null,
      mean_perturbed_word_pct: this.pctSuccess.value,
      mean_perturbed_word_pct_all: this.pctAll.value,
      mean_queries: this.queries.value,
      ...budgetFigures,
      cache_hit_rate: this.requests ? this.hits / this.requests : null,
      accuracy_by_edits: accuracyByEdits,
      stability: this.stableN ? this.stableSame / this.stableN : null,
      stability_n: this.stableN,
      edit_types_in_successes: this.editTypes,
      edit_types_all: this.editTypesAll,
      skip_reasons: this.skipReasons,
    };
    if (this.sawEntities) {
      metrics.clean_f1 = f1(this.cleanEntities);
      metrics.attacked_f1 = f1(this.attackedEntities);
    }
    if (this.sawAnswers) {
      metrics.clean_em = this.answers.cleanEm.value;
      metrics.clean_f1 = this.answers.cleanF1.value;
      metrics.attacked_em = this.answers.attackedEm.value;
      metrics.attacked_f1 = this.answers.attackedF1.value;
    }
    if (this.capped) metrics.window_capped = this.capped;
    if (this.budgetCut) metrics.query_budget_exhausted = this.budgetCut;
    if (this.usage)
      metrics.usage = { ...this.usage, cost_usd: this.usage.cost_usd === null ? null : Math.round(this.usage.cost_usd * 1e9) / 1e9 };
    if (this.usage || this.unmappable.answers || this.unmappable.clean) metrics.unmappable = { ...this.unmappable };
    const chance = this.chance.finish(this.cleanCorrect, n);
    if (chance) metrics.clean_below_chance = chance;
    if (this.probed) {
      metrics.probe = {
        n: this.probed,
        original_metric: this.probeOriginal.value!,
        worst_metric: this.probeWorst.value!,
        best_metric: this.probeBest.value!,
        stability: this.probeNeverChanged / this.probed,
      };
    }
    if (this.tally) {
      metrics.intervals = this.tally.finish({
        n,
        cleanCorrect: this.cleanCorrect,
        attackedCorrect: this.attackedCorrect,
        succeeded: this.succeeded,
        attacked: this.succeeded + this.failed,
        stableSame: this.stableSame,
        stableN: this.stableN,
        probed: this.probed,
        probeNeverChanged: this.probeNeverChanged,
        correctAtK,
        qa: this.qa,
      });
      if (budget?.intervals) Object.assign(metrics.intervals, budget.intervals);
    }
    return metrics;
  }
}

/** The headline metrics of a set of per-example results (see {@link RunMetrics}). */
export function summarize(results: Iterable<ExampleResult>, opts: SummaryOptions = {}): RunMetrics {
  const acc = new SummaryAccumulator(opts);
  for (const r of results) acc.add(r);
  return acc.finish();
}

/**
 * Stability: of the examples the model got right and that were attacked, the share whose prediction did not
 * change at all under the perturbation (same label; for taggers, the same tag sequence); null when there is none.
 */
export function stability(results: Iterable<ExampleResult>): { value: number | null; n: number } {
  const m = summarize(results);
  return { value: m.stability, n: m.stability_n };
}

/** Edits an attack made: listed, or (compact results) counted by type. */
function editCount(r: ExampleResult): number {
  return r.edit_counts ? Object.values(r.edit_counts).reduce((a, b) => a + b, 0) : r.edits.length;
}
