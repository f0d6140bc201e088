/**
 * The recipe kinds, as a table: each kind's runtime (src/kinds/<kind>/) says what it supports and implements how it
 * runs, prints, loads and gates, and where the CLI shows it (its help group, the group verb it owns and that verb's
 * words). Suites, the queue, merge, runs in memory, the report, `view` and the CLI look a kind up here; a finished
 * run's kind is the `kind` its summary.json records (kindOfSummary). test/architecture/kinds.test.ts keeps it so.
 */
import type { AnyRecipe, RecipeKind } from '../recipes/registry/define.ts';
import type { Registry } from '../recipes/registry/registry.ts';
import { TextstressError } from '../util/errors.ts';
import { ATTACK_KIND } from './attack/index.ts';
import { EXPERIMENT_KIND } from './experiment/index.ts';
import { GENERATE_KIND } from './generate/index.ts';
import { PROBE_KIND } from './probe/index.ts';
import { STRESS_KIND } from './stress/index.ts';
import { prepareRecipe, type PrepareOptions } from './prepare.ts';
import { RUN_MODES, type KindRuntime, type RunMode } from './types.ts';
import type { DatasetInfo } from '../data/types.ts';
import type { ModelInfo } from '../models/types.ts';
import type { Built } from '../recipes/registry/define.ts';

export * from './types.ts';

/** Every kind's runtime, in the order the docs list them. */
export const KINDS: Readonly<Record<RecipeKind, KindRuntime>> = {
  attack: ATTACK_KIND,
  probe: PROBE_KIND,
  stress: STRESS_KIND,
  generate: GENERATE_KIND,
  experiment: EXPERIMENT_KIND,
};

/** How each mode is named and what it does, in the words of a refusal ("<does>; <recipe> is <noun> …"). */
export const MODES: Readonly<Record<RunMode, { name: string; does: string }>> = {
  resume: { name: '--resume', does: '--resume continues an interrupted run' },
  shard: { name: '--shard', does: '--shard splits per-example runs' },
  queue: { name: '--queue', does: '--queue distributes per-example runs' },
  inMemory: { name: 'attackInMemory', does: 'a run in memory streams per-example results' },
  dryRun: { name: '--dry-run', does: '--dry-run estimates a run against a stand-in model' },
  maxQueries: { name: '--max-queries', does: "--max-queries bounds an attack's search" },
};

export { RUN_MODES };

/** The runtime of a recipe's kind. */
export function kindOf(def: Pick<AnyRecipe, 'kind'>): KindRuntime {
  return KINDS[def.kind];
}

/** Whether a recipe's kind supports a mode. */
export function supports(def: Pick<AnyRecipe, 'kind'>, mode: RunMode): boolean {
  return kindOf(def).supports[mode] === true;
}

/** The refusal of a mode the recipe's kind does not support, in the table's words; undefined when it does. */
export function refusal(def: Pick<AnyRecipe, 'kind' | 'name'>, mode: RunMode): TextstressError | undefined {
  const kind = kindOf(def);
  const r = kind.supports[mode];
  if (r === true) return undefined;
  return new TextstressError(`${MODES[mode].does}; ${def.name} is ${kind.noun}${r.because ? ` ${r.because}` : ''}.`, { hint: r.hint });
}

/** Throws the refusal when the recipe's kind does not support the mode. */
export function assertSupports(def: Pick<AnyRecipe, 'kind' | 'name'>, mode: RunMode): void {
  const err = refusal(def, mode);
  if (err) throw err;
}

const isRecipeKind = (k: unknown): k is RecipeKind => typeof k === 'string' && Object.hasOwn(KINDS, k);

/**
 * The kind of a finished run's summary.json: the `kind` it records (every summary does); else its recipe's kind when
 * the registry knows the recipe.
 */
export function kindOfSummary(summary: { recipe?: unknown; kind?: unknown; probe?: unknown }, registry?: Registry): KindRuntime {
  if (isRecipeKind(summary.kind)) return KINDS[summary.kind];
  if (registry && typeof summary.recipe === 'string' && registry.has(summary.recipe)) return kindOf(registry.get(summary.recipe));
  // Only for attack and probe summaries written before summary.json recorded `kind` (stress and generator summaries
  // always did): a probe's carries its `probe` figures. Nothing written now reaches this line.
  return summary.probe ? KINDS.probe : KINDS.attack;
}

/** The command words that run a recipe: ["attack", name], ["probe", name], ["stress", verb], [group, verb] or [verb]. */
export function commandOf(def: AnyRecipe): string[] {
  const { under } = kindOf(def).command;
  const verb = def.verb ?? def.name;
  if (under) return [under, verb];
  return def.group ? [def.group, verb] : [verb];
}

/** Every command that runs the recipe: its own, and the group where its kind is also reachable (probes under `attack`). */
export function commandsOf(def: AnyRecipe): string[][] {
  const also = kindOf(def).command.alsoUnder;
  return also ? [commandOf(def), [also, def.verb ?? def.name]] : [commandOf(def)];
}

/** Builds a recipe for a model and data as its kind prepares it (the queue's coordinator and workers, runs in memory). */
export function prepareFor(
  def: AnyRecipe,
  settings: Record<string, unknown>,
  model: ModelInfo,
  data: DatasetInfo,
  opts: Omit<PrepareOptions, 'mapsLabels'>,
): Promise<Built> {
  return prepareRecipe(def, settings, model, data, { ...opts, ...(kindOf(def).mapsLabels ? { mapsLabels: true } : {}) });
}
