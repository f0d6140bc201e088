/**
 * The registry is a value, not a module global: `createRegistry(BUILTIN_RECIPES)` makes the built-in one, and a
 * program, test or plugin adds its own recipes to a registry of its own without touching src/.
 */
import { TextstressError } from '../../util/errors.ts';
import { RESERVED_SETTING_KEYS } from '../../options/derive.ts';
import type { ReportFamily, ReportSections } from '../report/types.ts';
import { kebab, roundTrips } from '../../util/casing.ts';
import { RECIPE_KINDS, TASK_KINDS, type AnyRecipe, type RecipeMetric } from './define.ts';
import type { AnyVerb } from './verbs.ts';
import type { FamilyManifest } from './family.ts';
import { CORE_METRIC_NAMES } from '../../metrics/names.ts';
import type { MetricDisplay } from '../../metrics/display.ts';
import { settingFields, settingLabels } from './fields.ts';

/** How pages name and write every figure the registry's recipes report: their other figures, then their gate metrics. */
export const figureDisplays = (registry: Pick<Registry, 'all'>): Record<string, MetricDisplay> =>
  Object.assign({}, ...registry.all().map((d) => ({ ...d.figures, ...d.metrics }))) as Record<string, MetricDisplay>;

/** A recipe's own setting labels, by name (none for a recipe the registry does not know). */
export const settingLabelsOf = (registry: Pick<Registry, 'has' | 'get'>, recipe: string): Record<string, string> =>
  settingLabels(registry.has(recipe) ? registry.get(recipe) : undefined);

export { RESERVED_SETTING_KEYS };

/** One-letter flags the shared options take (`-m` model, `-d` data, `-n` limit, `-o` out, `-s` seed, `-h` help, `-V` version). */
export const RESERVED_SHORT_FLAGS: readonly string[] = ['m', 'd', 'n', 'o', 's', 'h', 'V'];

/** The recipes known to a run, the CLI and suites, by name. */
export interface Registry {
  /** Adds a recipe; throws when its name is taken or its declaration cannot be derived (see assertDerivable). */
  add(def: AnyRecipe): Registry;
  /** The recipe of that name; a TextstressError naming the known ones (and the closest) otherwise. */
  get(name: string): AnyRecipe;
  has(name: string): boolean;
  /** Every recipe, in the order added. */
  all(): AnyRecipe[];
  /** Report sections of the recipes that have one, in the order added (a section two recipes share, once). */
  families(): ReportFamily[];
  /** Which section shows each recipe's runs, and their order on the page. */
  sections(): ReportSections;
  /** Gate metrics the recipes add, by name. */
  metrics(): Record<string, RecipeMetric>;
  /** Adds a family's own command (see VerbDef); throws when its command is taken. */
  addVerb(verb: AnyVerb): Registry;
  /** The families' own commands, in the order added. */
  verbs(): AnyVerb[];
  /** Adds a family: its recipes, its verbs and where its commands show in --help (see FamilyManifest). */
  addFamily(family: FamilyManifest): Registry;
  /** The --help group a family placed a top-level command in (FamilyManifest.helpGroups); undefined if none did. */
  helpGroupOf(command: string): string | undefined;
}

/** A registry holding `initial` (see {@link Registry.add} for what is refused). */
export function createRegistry(initial: readonly AnyRecipe[] = [], initialVerbs: readonly AnyVerb[] = []): Registry {
  const byName = new Map<string, AnyRecipe>();
  const verbs: AnyVerb[] = [];
  const helpGroups = new Map<string, string>();
  const reg: Registry = {
    add(def) {
      if (byName.has(def.name)) throw new Error(`recipe "${def.name}" registered twice`);
      // A verb names one command: two recipes with the same one would claim the same `textstress … <verb>`.
      const verb = def.verb ?? def.name;
      for (const other of byName.values()) {
        if ((other.verb ?? other.name) === verb) throw new Error(`recipes "${other.name}" and "${def.name}" both claim the verb "${verb}"`);
      }
      assertDerivable(def);
      // A gate metric name must mean one thing across the registry, or a suite threshold would read the wrong one.
      for (const name of Object.keys(def.metrics ?? {})) {
        const owner = [...byName.values()].find((o) => o.metrics && name in o.metrics);
        if (owner) throw new Error(`recipe "${def.name}": the metric "${name}" is already declared by recipe "${owner.name}"`);
      }
      byName.set(def.name, def);
      return reg;
    },
    get(name) {
      const def = byName.get(name);
      if (def) return def;
      const known = [...byName.keys()];
      const close = closest(name, known);
      throw new TextstressError(`unknown recipe "${name}"${close ? ` (did you mean "${close}"?)` : ''}.`, {
        hint: `Known recipes: ${known.join(', ')}.`,
      });
    },
    has: (name) => byName.has(name),
    all: () => [...byName.values()],
    families: () => [...new Set([...byName.values()].flatMap((d) => (d.report ? [d.report] : [])))],
    sections: () => ({ familyOf: (recipe) => byName.get(recipe)?.report, order: reg.families() }),
    addVerb(verb) {
      if (!/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(verb.name)) throw new Error(`verb "${verb.name}": the name must be kebab-case`);
      const command = [verb.group, verb.name].filter(Boolean).join(' ');
      if (verbs.some((v) => [v.group, v.name].filter(Boolean).join(' ') === command))
        throw new Error(`the verb "${command}" is registered twice`);
      verbs.push(verb);
      return reg;
    },
    verbs: () => [...verbs],
    addFamily(family) {
      for (const r of family.recipes) reg.add(r);
      for (const v of family.verbs ?? []) reg.addVerb(v);
      for (const [command, group] of Object.entries(family.helpGroups ?? {})) {
        const other = helpGroups.get(command);
        if (other !== undefined && other !== group) throw new Error(`two families put the command "${command}" in different --help groups`);
        helpGroups.set(command, group);
      }
      return reg;
    },
    helpGroupOf: (command) => helpGroups.get(command),
    metrics: () => Object.assign({}, ...[...byName.values()].map((d) => d.metrics ?? {})) as Record<string, RecipeMetric>,
  };
  for (const d of initial) reg.add(d);
  for (const v of initialVerbs) reg.addVerb(v);
  return reg;
}

/**
 * Everything derived from a declaration must be derivable: a kebab-case name, known kinds and tasks, setting keys
 * that round-trip camel ↔ snake ↔ kebab and do not clash with shared flags, and a flag form (or an explicit
 * `null`) for every setting whose value is not a number, boolean, string or list.
 */
export function assertDerivable(def: AnyRecipe): void {
  const fail = (why: string): never => {
    throw new Error(`recipe "${def.name}": ${why}`);
  };
  if (!/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(def.name)) fail('the name must be kebab-case (letters, digits and single hyphens)');
  if (def.verb !== undefined && !/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(def.verb)) fail(`the verb "${def.verb}" must be kebab-case`);
  if (!RECIPE_KINDS.includes(def.kind)) fail(`unknown kind "${String(def.kind)}"; use ${RECIPE_KINDS.join(', ')}`);
  if (!def.summary || /\n/.test(def.summary)) fail('the summary must be one line');
  if (def.tasks.length === 0) fail('it must name the task kinds it supports');
  for (const t of def.tasks) if (!TASK_KINDS.includes(t)) fail(`unknown task kind "${t}"; use ${TASK_KINDS.join(', ')}`);
  const fields = settingFields(def);
  for (const f of fields) {
    if (!roundTrips(f.key)) fail(`the setting "${f.key}" must be camelCase that round-trips to snake_case and back (${kebab(f.key)})`);
    if (RESERVED_SETTING_KEYS.includes(f.key)) fail(`the setting "${f.key}" would clash with the shared --${kebab(f.key)} option`);
    if (f.shape.type === 'other' && f.hint === undefined) {
      fail(`the setting "${f.key}" has no flag form: give cli.${f.key} a parse function, or null for a suite-only setting`);
    }
    const short = f.hint?.short;
    if (short !== undefined) {
      if (!/^[a-zA-Z]$/.test(short)) fail(`the short flag of "${f.key}" must be one letter`);
      if (RESERVED_SHORT_FLAGS.includes(short)) fail(`the short flag -${short} of "${f.key}" is taken by a shared option`);
      const other = fields.slice(0, fields.indexOf(f)).find((g) => g.hint?.short === short);
      if (other) fail(`the settings "${other.key}" and "${f.key}" both want the short flag -${short}`);
    }
  }
  for (const key of Object.keys(def.cli ?? {})) {
    if (!fields.some((f) => f.key === key)) fail(`cli.${key} names no setting`);
  }
  for (const name of Object.keys(def.metrics ?? {})) {
    if (!/^[a-z][a-z0-9_]*$/.test(name)) fail(`the metric "${name}" must be snake_case`);
    if (CORE_METRIC_NAMES.includes(name)) fail(`the metric "${name}" would shadow the built-in gate metric of that name`);
  }
}

/** The closest name (edit distance ≤ 2), for "did you mean". */
export function closest(word: string, names: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestD = 3;
  for (const n of names) {
    const d = editDistance(word.toLowerCase(), n.toLowerCase());
    if (d < bestD) {
      bestD = d;
      best = n;
    }
  }
  return best;
}

export function editDistance(a: string, b: string): number {
  const dp = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = dp[0]!;
    dp[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = dp[j]!;
      dp[j] = Math.min(dp[j]! + 1, dp[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return dp[b.length]!;
}
