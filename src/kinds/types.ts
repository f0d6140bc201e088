/**
 * What a recipe kind is at run time. A recipe declares its kind (attack, probe, stress, generate, experiment) and
 * builds the kind's contract (recipes/registry/define.ts); everything that depends on the kind — which ways of
 * running it supports, how it runs into a folder, its summary, what the terminal prints, how the report loads a
 * finished run and what the gate reads of it — is one {@link KindRuntime} in src/kinds/, looked up in KINDS.
 * Outside src/kinds nothing compares a recipe's kind with a literal, keeps a second table of kinds or guesses a run's
 * kind from its figures (test/architecture/layers.test.ts and kinds.test.ts).
 */
import type { Example } from '../data/types.ts';
import type { GenerateSummary, ProcessStats, RunSummary } from '../metrics/summary.ts';
import type { MetricDisplay } from '../metrics/display.ts';
import type { StressSummary } from '../metrics/stress-summary.ts';
import type { ModelAdapter } from '../models/types.ts';
import type { QueryEngine, QuerySession } from '../query/engine.ts';
import {
  builtAs,
  type AnyRecipe,
  type Built,
  type BuiltOf,
  type ExperimentOutput,
  type RecipeKind,
  type RecipeMetric,
  type SubRunOutcome,
} from '../recipes/registry/define.ts';
import type { Registry } from '../recipes/registry/registry.ts';
import type { GeneratedRun, LoadedRun, StressRun } from '../recipes/report/types.ts';
import type { DataSpec, ModelSpec, RunOptions } from '../options/shared.ts';
import type { ProbeSetFiles } from './probe/sets.ts';
import type { Interval } from '../stats/index.ts';

/** The ways of running a recipe that not every kind supports. */
export const RUN_MODES = ['resume', 'shard', 'queue', 'inMemory', 'dryRun', 'maxQueries'] as const;
/** One of {@link RUN_MODES}. */
export type RunMode = (typeof RUN_MODES)[number];

/** Why a kind refuses a mode, and what to do instead. */
export interface Refusal {
  /** Said after "<mode does …>; <recipe> is <kind noun>": what about the kind rules it out (optional). */
  because?: string;
  hint: string;
}

/** Progress of one run: examples (or steps) done of a total. */
export interface ProgressSink {
  start(label: string, total: number): { update(done: number): void; stop(): void };
}

/**
 * A recipe run into a folder, as runRecipe takes it: the recipe and its settings, the model and (usually) the data
 * with their shared options (src/options/shared.ts), and the run's own.
 */
export interface RunRequest
  extends ModelSpec, Partial<DataSpec>, Omit<RunOptions, 'out' | 'seed' | 'progress' | 'json' | 'queue' | 'blockSize'> {
  registry: Registry;
  recipe: string;
  /** The recipe's settings, camelCase; validated against its schema (defaults applied). */
  settings: Record<string, unknown>;
  out: string;
  seed: number;
  progress?: ProgressSink;
  /** One line about what runs now (experiments announce each sub-run). */
  log?: (line: string) => void;
  /** A model and engine already open (suites, experiments): used and left open. */
  shared?: { model: ModelAdapter; engine: QueryEngine };
}

/** What runRecipe did, by the recipe's kind, and where. */
export type RecipeOutcome =
  /** An attack run: its summary. */
  | { kind: 'attack'; recipe: AnyRecipe; dir: string; summary: RunSummary; text?: string }
  /** A probe run: its summary, its D_worst / D_best files and the text its recipe prints (e.g. Table 3). */
  | { kind: 'probe'; recipe: AnyRecipe; dir: string; summary: RunSummary; sets?: ProbeSetFiles; text?: string }
  | { kind: 'experiment'; recipe: AnyRecipe; dir: string; output: ExperimentOutput; runs: SubRunOutcome[] }
  /** A generator run: its summary and the text its generator prints for it, if it has its own. */
  | { kind: 'generate'; recipe: AnyRecipe; dir: string; summary: GenerateSummary; text?: string }
  /** A stress run: its summary and the text its recipe prints for it (e.g. the paper's table), if it has its own. */
  | { kind: 'stress'; recipe: AnyRecipe; dir: string; summary: StressSummary; text?: string };

/** What runRecipe did for a recipe of kind K. */
export type OutcomeOf<K extends RecipeKind> = Extract<RecipeOutcome, { kind: K }>;

/** What a kind's `run` gets: the recipe with its parsed settings, the request, the open model and engine. */
export interface KindRunContext {
  /** The runtime of the recipe's kind (the one being run). */
  kind: KindRuntime;
  def: AnyRecipe;
  settings: Record<string, unknown>;
  req: RunRequest;
  model: ModelAdapter;
  engine: QueryEngine;
  /** Runs another recipe (an experiment's sub-runs) the way the caller runs this one. */
  runRecipe(req: RunRequest): Promise<RecipeOutcome>;
}

/** How one example becomes one results.jsonl line: what the queue's workers and a local run both call. */
export type ExampleJob = (example: Example, session: QuerySession) => Promise<unknown>;

/** The per-example part of a kind (attacks, probes, stress suites): what the queue, shards and merge need. */
export interface PerExampleRuntime<K extends RecipeKind = RecipeKind> {
  /** The job for one example of a built recipe: seeded by the run's seed and the example's id. */
  job(built: BuiltOf<K>, model: ModelAdapter, run: { seed: number; compact: boolean; engine: QueryEngine }): ExampleJob;
  /** Which examples of the data the built recipe runs on (default: all); called once per example in data order. */
  select?(built: BuiltOf<K>): ((example: Example) => boolean) | undefined;
  /** Whether a data example may have no result by design (a selection): merge then does not ask for one. */
  mayLeaveOut: boolean;
  /** Whether accuracy by edits means something for the built recipe (attacks whose search adds edits one at a time). */
  editCurve?(built: BuiltOf<K>): boolean;
}

/** What the terminal gets for a finished run: stdout text, warnings for stderr, and whether it counts as a failure. */
export interface Printed {
  text: string;
  warnings: string[];
  /** The run measured nothing (zero examples): the command exits non-zero. */
  failed: boolean;
}

/** One run an outcome stands for: its examples (records, for a generator) and this process's traffic with the model. */
export interface RunRow {
  name: string;
  n: number;
  /** Absent for a generator, whose summary counts its queries over the whole run instead. */
  process?: ProcessStats;
}

/** A finished run as the report loads it. */
export type AnyLoadedRun = LoadedRun | StressRun | GeneratedRun;
/** Where a group keeps a kind's loaded runs (see RunGroup). */
export type ReportSlot = AnyLoadedRun['slot'];

/** A finished run of the kind, to the report (how it loads) and the gate (what it reads). */
export interface FinishedRuns {
  slot: ReportSlot;
  /** Reads summary.json and a bounded sample of results.jsonl. */
  load(dir: string, name: string, group: string, summary: Record<string, unknown>, opts: { sampleSize?: number }): Promise<AnyLoadedRun>;
  gate: GateRuntime;
}

/** What the gate and the suite's lines read of a finished run of the kind. */
export interface GateRuntime {
  /** A metric's value: null = n/a (over zero cases), undefined = not reported by this kind of run. */
  value(metric: string, run: AnyLoadedRun, extra: Record<string, RecipeMetric>): number | null | undefined;
  /**
   * A metric's 95% interval with its n (the units behind it): what min_n and `.low` / `.high` checks read. Undefined
   * when the run's summary does not carry it: the gate then refuses a check on it (its n is not known).
   */
  interval(metric: string, run: AnyLoadedRun, extra: Record<string, RecipeMetric>): Interval | undefined;
  /**
   * The built-in metrics its runs report, besides those their recipe declares (RecipeDef.metrics): what a suite's
   * thresholds are checked against before anything runs.
   */
  builtIn: readonly string[];
  /** Why a metric it reports is n/a. */
  naReason(metric: string, run: AnyLoadedRun): string;
  /** What it measured: a run that measured nothing fails the gate whatever its thresholds. */
  measured(run: AnyLoadedRun): { n: number; unit: string };
  /**
   * The suite's progress line for the finished run (without the test name and time); `displays` names and writes the
   * recipes' own figures (the registry's figureDisplays), as the report does.
   */
  line(run: AnyLoadedRun, displays?: Record<string, MetricDisplay>): string;
  /** The suite table's cells: recipe, n, clean, attacked, success, stability, and (kinds without those) other figures. */
  row(run: AnyLoadedRun, displays?: Record<string, MetricDisplay>): string[];
}

/** The group verb a kind owns (`attack`, `probe`, `stress`): its help and the words its errors use. */
export interface GroupVerb {
  /** The verb's one line in --help. */
  description: string;
  /** How its --help names its members: "Recipes", "Probes", "Suites". */
  plural: string;
  /** The error when no member is named. */
  ask: string;
  /** How an unknown member is called: "unknown recipe …", "unknown stress suite …". */
  unknown: string;
  /** The positional argument's name in its usage line ("[recipe]"). */
  argument: string;
}

/**
 * A recipe kind at run time: its table row (what it supports) and its implementation. Written as `KindRuntime<K>`
 * (its builds and outcomes are its own kind's) and registered through {@link defineKind}, which gives the
 * kind-erased `KindRuntime` the tables hold.
 */
export interface KindRuntime<K extends RecipeKind = RecipeKind> {
  kind: K;
  /** How a sentence names a recipe of this kind: "an attack", "a stress suite". */
  noun: string;
  /**
   * Where its recipes' commands go: under a group verb (`attack <name>`, `stress <verb>`), and where else they may
   * be reached; none: a top-level verb (or the recipe's own group, e.g. `probe layers`). `group`: the words of the
   * group verb this kind owns (its `under`).
   */
  command: { under?: string; alsoUnder?: string; group?: GroupVerb };
  /** The top-level --help group its recipes' own verbs are listed in (cli/groups.ts' HELP_GROUPS ids). */
  helpGroup: string;
  /** Its recipes map labels themselves (see PrepareOptions.mapsLabels). */
  mapsLabels?: boolean;
  /** Per mode: supported (true), or refused with the reason and what to do instead. */
  supports: Record<RunMode, true | Refusal>;
  /** Runs a recipe of the kind into req.out (resumable). */
  run(ctx: KindRunContext): Promise<OutcomeOf<K>>;
  /** Per-example kinds: one example's job (queue workers), the selection (merge, queue). */
  perExample?: PerExampleRuntime<K>;
  /** The terminal's text for a finished run. */
  print(outcome: OutcomeOf<K>, opts: { json: boolean }): Promise<Printed>;
  /**
   * The runs an outcome stands for, each with its examples and process figures (one; an experiment's sub-runs):
   * the rows of a dry run's table, the lines of a merge.
   */
  runRows(outcome: OutcomeOf<K>): RunRow[];
  /** Its finished runs to the report and the gate (none: an experiment's sub-runs are runs of their own kinds). */
  finished?: FinishedRuns;
}

/** Whether an outcome is of kind K (a type guard: what lets a kind take its own outcomes without a cast). */
export function isOutcomeOf<K extends RecipeKind>(outcome: RecipeOutcome, kind: K): outcome is OutcomeOf<K> {
  return outcome.kind === kind;
}

/**
 * A kind's runtime as the tables hold it: its methods take any build or outcome and hand the kind's own to it,
 * checked at run time (a build or outcome of another kind reaching it is a bug, said with both kinds).
 */
export function defineKind<K extends RecipeKind>(rt: KindRuntime<K>): KindRuntime {
  const { perExample: pe, ...rest } = rt;
  const { kind } = rt;
  const own = (built: Built): BuiltOf<K> => builtAs(built, kind, `a ${kind} run`);
  const outcomeOf = (outcome: RecipeOutcome): OutcomeOf<K> => {
    if (isOutcomeOf(outcome, kind)) return outcome;
    throw new Error(`the ${kind} kind was handed a ${outcome.kind} outcome (${outcome.recipe.name})`);
  };
  const perExample: PerExampleRuntime | undefined = pe && {
    mayLeaveOut: pe.mayLeaveOut,
    job: (built, model, run) => pe.job(own(built), model, run),
    ...(pe.select ? { select: (built: Built) => pe.select?.(own(built)) } : {}),
    ...(pe.editCurve ? { editCurve: (built: Built) => pe.editCurve?.(own(built)) === true } : {}),
  };
  return {
    ...rest,
    run: (ctx) => rt.run(ctx),
    ...(perExample ? { perExample } : {}),
    print: (outcome, opts) => rt.print(outcomeOf(outcome), opts),
    runRows: (outcome) => rt.runRows(outcomeOf(outcome)),
  };
}
