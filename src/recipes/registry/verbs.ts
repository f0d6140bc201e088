/**
 * A family's own commands beyond its recipes (tables read from finished runs, a defence's fit and evaluation,
 * fooling sentences scored by other models): declared as data, registered by the family like its recipes, and
 * turned into commands by the CLI. A verb's options are one zod schema, read into flags as a recipe's settings are;
 * it names the shared options it takes; models, data and query engines reach it through its context, so family
 * code never opens a model itself.
 */
import type { z } from 'zod';
import type { Dataset } from '../../data/types.ts';
import type { ModelAdapter } from '../../models/types.ts';
import type { DataSpec, ModelSpec } from '../../options/shared.ts';
import type { QueryEngine } from '../../query/engine.ts';
import type { FlagHint } from '../../util/fields.ts';

/** A positional argument of a verb. */
export interface VerbArgument {
  /** Its name in the usage line, e.g. "run-dirs". */
  name: string;
  description: string;
  /** Takes every remaining argument (at least one). */
  variadic?: boolean;
}

/** What a verb's `run` gets. */
export interface VerbContext<S = Record<string, unknown>> {
  /** The positional arguments, in order (a variadic one's values last). */
  args: string[];
  /** The verb's own options, parsed by its schema (defaults applied). */
  settings: S;
  /** The shared options it takes (see VerbDef.shared), as given (defaults of the table applied by the CLI). */
  shared: Record<string, unknown> & Partial<ModelSpec> & Partial<DataSpec>;
  /** Whether the user gave a setting, rather than its default applying. */
  given(key: string): boolean;
  /** Opens a model (a spec as the shared model options give it, or a bare spec); the caller closes it. */
  openModel(spec: ModelSpec | string): Promise<ModelAdapter>;
  /** Opens a dataset as the shared data options give it. */
  openData(spec: DataSpec): Promise<Dataset>;
  /** A query engine over a model (batching, caching, counting). */
  engine(model: ModelAdapter): QueryEngine;
  /** Writes to standard output (a line break is added). */
  print(text: string): void;
}

/** A family's command that is not a recipe run. */
export interface VerbDef<S extends z.ZodObject = z.ZodObject> {
  /** Kebab-case; the command, or the subcommand under `group`. */
  name: string;
  /** A group verb it lives under (`group: 'resemble', name: 'fit'` → `textstress resemble fit`). */
  group?: string;
  /** One line: the help text. */
  summary: string;
  /** The group's own help line (given by one verb of the group). */
  groupSummary?: string;
  arguments?: readonly VerbArgument[];
  /** Its own options: defaults, bounds and descriptions live here. */
  settings: S;
  /** How settings appear as flags (short letters, parsers, required ones, null = none). */
  cli?: { [K in keyof z.input<S>]?: FlagHint & { required?: boolean } };
  /**
   * The shared options it takes, by group or by key (src/options/shared.ts): `'model'` and `'data'` add every
   * model or data option; keys add one each (e.g. 'seed', 'labelMap', 'json').
   */
  shared?: readonly string[];
  /** Lines shown after the options in its --help: example commands and notes. */
  helpAfter?: readonly string[];
  run(ctx: VerbContext<z.output<S>>): Promise<void>;
}

/** Identity with inference: `run` receives the settings with defaults applied. */
export function defineVerb<S extends z.ZodObject>(def: VerbDef<S>): VerbDef<S> {
  return def;
}

/** A verb of any settings, as registries hold them. */
// The registry stores heterogeneous verbs; each one's run is only ever called with its own parse output.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyVerb = VerbDef<any>;
