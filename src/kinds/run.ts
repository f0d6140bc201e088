/**
 * runRecipe: the entry point of every run into a folder, the same for a program, a suite and the CLI. It checks the
 * request against what the recipe's kind supports, validates the settings, opens the model (unless shared), and
 * hands over to the kind's runtime, which opens the data, builds the recipe and runs it resumably.
 */
import { isHttpSpec, isOpenAiSpec } from '../models/load.ts';
import { openEngine, openModel, openModelToInspect } from '../runner/open.ts';
import { TextstressError } from '../util/errors.ts';
import { parseSettings } from '../recipes/registry/settings.ts';
import type { AnyRecipe, RecipeKind } from '../recipes/registry/define.ts';
import type { QueryEngine } from '../query/engine.ts';
import { assertSupports, commandOf, KINDS, kindOf } from './index.ts';
import { isOutcomeOf, type OutcomeOf, type RecipeOutcome, type RunMode, type RunRequest } from './types.ts';

export type { RecipeOutcome, RunRequest, ProgressSink } from './types.ts';
export { EXPERIMENT_FILE } from './experiment/manifest.ts';

/** The modes a request asks for. */
function modesOf(req: RunRequest): RunMode[] {
  const asked: [RunMode, unknown][] = [
    ['resume', req.resume],
    ['shard', req.shard],
    ['dryRun', req.dryRun],
    ['maxQueries', req.maxQueries !== undefined],
  ];
  return asked.filter(([, on]) => on).map(([mode]) => mode);
}

/**
 * A recipe that reads a model's inner layers cannot work through an endpoint that gives answers only: said before
 * the model is opened (an openai: model would first ask for labels and a key, then read as a missing folder).
 */
function refuseRemoteModel(command: string, spec: string): void {
  if (!isOpenAiSpec(spec) && !isHttpSpec(spec)) return;
  throw new TextstressError(
    `${command} reads the model's inner layers (hidden states and attentions), which ${spec} does not give: ` +
      'an endpoint answers with predictions only.',
    {
      hint:
        'The encoder probes need a local transformers.js model folder (config.json, tokenizer.json, onnx/model.onnx) or a ' +
        'hub id, e.g. --model models/demo-mlm.',
    },
  );
}

/** A recipe's settings with defaults applied; a bad one is named, with where the recipe's settings are listed. */
export function recipeSettings(def: AnyRecipe, raw: Record<string, unknown>, name?: (key: string) => string): Record<string, unknown> {
  return parseSettings(def, raw, name, `\`textstress ${commandOf(def).join(' ')} --help\` lists its settings.`) as Record<string, unknown>;
}

/**
 * Runs one recipe into `req.out` (resumable): checks the modes asked for, validates settings, opens the model and
 * runs it as its kind runs. Closes the model unless it was `shared`. A mode the kind does not support, or a missing
 * dataset the recipe needs, is a TextstressError before any work.
 */
export async function runRecipe(req: RunRequest): Promise<RecipeOutcome> {
  const def = req.registry.get(req.recipe);
  for (const mode of modesOf(req)) assertSupports(def, mode);
  const settings = recipeSettings(def, req.settings);
  if (def.inspectsModel) refuseRemoteModel(`textstress ${commandOf(def).join(' ')}`, req.model);
  // A recipe that reads the inner layers opens its own session: the run's model opens only if it is asked for predictions.
  const model = req.shared?.model ?? (def.inspectsModel ? await openModelToInspect(req) : await openModel(req));
  let owned: QueryEngine | undefined;
  try {
    const engine = req.shared?.engine ?? (owned = openEngine(model, req));
    const kind = kindOf(def);
    return await kind.run({ kind, def, settings, req, model, engine, runRecipe });
  } finally {
    if (!req.shared) {
      await owned?.flushed();
      await model.close?.();
    }
  }
}

/**
 * `runRecipe` for a caller that knows which kind of recipe it names: the outcome comes back as that kind's (its
 * summary typed), with no narrowing at the call. A recipe of another kind is refused before anything runs.
 */
export async function runRecipeAs<K extends RecipeKind>(kind: K, req: RunRequest): Promise<OutcomeOf<K>> {
  const def = req.registry.get(req.recipe);
  if (def.kind !== kind)
    throw new TextstressError(`${def.name} is ${kindOf(def).noun}, not ${KINDS[kind].noun}: it runs as its own kind.`, {
      hint: `run it with runRecipe, or ask for runRecipeAs('${def.kind}', …)`,
    });
  const outcome = await runRecipe(req);
  // Unreachable unless a kind's runtime answers with another kind's outcome: a bug, said with both kinds.
  if (!isOutcomeOf(outcome, kind)) throw new Error(`internal error: ${def.name} (${kind}) ran into a ${outcome.kind} outcome`);
  return outcome;
}
