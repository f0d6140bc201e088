/**
 * The families' own commands (registry.verbs(): grammar-tables, fool-transfer, resemble fit, …), derived from their
 * declarations like the recipe commands: their own flags from their settings schema, the shared options they name,
 * and a context that opens models and data for them.
 */
import { Command } from 'commander';
import type { z } from 'zod';
import { optionsOf } from '../../options/derive.ts';
import { QueryEngine } from '../../query/engine.ts';
import type { Registry } from '../../recipes/registry/registry.ts';
import type { AnyVerb, VerbContext } from '../../recipes/registry/verbs.ts';
import { openData, openModel } from '../../runner/open.ts';
import { kebab } from '../../util/casing.ts';
import { TextstressError } from '../../util/errors.ts';
import { fieldOf, type FlagHint } from '../../util/fields.ts';
import { terminalSafe } from '../../util/terminal.ts';
import { addFieldOptions, typedValues } from '../derive.ts';
import { addOptions } from '../options.ts';

/** The verb's shared option keys: groups ('model', 'data') expanded, in the table's order. */
function sharedKeys(verb: AnyVerb): { keys: string[]; required: string[] } {
  const asked = verb.shared ?? [];
  const keys = asked.flatMap((k: string) => (k === 'model' || k === 'data' ? optionsOf(k).map((o) => o.key) : [k]));
  return { keys, required: asked.filter((k: string) => k === 'model' || k === 'data') };
}

function fieldsOf(verb: AnyVerb) {
  const shape = (verb.settings as z.ZodObject).shape as Record<string, z.ZodType>;
  return Object.entries(shape).map(([key, schema]) =>
    fieldOf(key, schema, (verb.cli as Record<string, FlagHint | undefined> | undefined)?.[key]),
  );
}

function verbCommand(verb: AnyVerb): Command {
  const cmd = new Command(verb.name).description(verb.summary);
  for (const a of verb.arguments ?? []) cmd.argument(a.variadic ? `<${a.name}...>` : `<${a.name}>`, a.description);
  const fields = fieldsOf(verb);
  addFieldOptions(cmd, fields);
  const { keys, required } = sharedKeys(verb);
  addOptions(cmd, keys, required);
  if (verb.helpAfter?.length) cmd.addHelpText('after', `\n${verb.helpAfter.join('\n')}`);
  return cmd.action(async (...params: unknown[]) => {
    const args = (verb.arguments ?? []).flatMap((_a: unknown, i: number) => [params[i]].flat() as string[]);
    const parsed = (verb.settings as z.ZodObject).safeParse(typedValues(cmd, fields));
    if (!parsed.success) {
      const problems = parsed.error.issues.map((i) => `--${kebab(String(i.path[0] ?? ''))}: ${i.message}`);
      throw new TextstressError(`invalid options for ${[verb.group, verb.name].filter(Boolean).join(' ')}: ${problems.join('; ')}.`);
    }
    const values = cmd.opts();
    const ctx: VerbContext<Record<string, unknown>> = {
      args,
      settings: parsed.data,
      shared: Object.fromEntries(keys.filter((k) => values[k] !== undefined).map((k) => [k, values[k]])),
      given: (key) => cmd.getOptionValueSource(key) === 'cli',
      openModel: (spec) => openModel(typeof spec === 'string' ? { model: spec } : spec),
      openData: (spec) => openData(spec),
      engine: (model) => new QueryEngine(model),
      print: (text) => void process.stdout.write(terminalSafe(text, { keepLayout: true }) + '\n'),
    };
    await verb.run(ctx);
  });
}

/** One command per verb; verbs with a group (resemble fit, resemble eval) as subcommands of one group command. */
export function verbCommands(registry: Registry): Command[] {
  const out: Command[] = [];
  const groups = new Map<string, Command>();
  for (const verb of registry.verbs()) {
    if (!verb.group) {
      out.push(verbCommand(verb));
      continue;
    }
    let group = groups.get(verb.group);
    if (!group) {
      group = new Command(verb.group);
      groups.set(verb.group, group);
      out.push(group);
    }
    if (verb.groupSummary) group.description(verb.groupSummary);
    group.addCommand(verbCommand(verb));
  }
  return out;
}
