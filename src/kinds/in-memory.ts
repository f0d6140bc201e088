/**
 * Running an attack or probe recipe on examples a program already holds, with no files: results stream back as
 * an async iterable in input order, and the run's metrics come when it ends. For notebooks, services and tests
 * that keep their data in memory; runs that must survive a crash use runRecipe (checkpointed folders).
 */
import type { ExampleResult } from '../core/result.ts';
import { parseLabelMap } from '../core/labels.ts';
import type { DatasetInfo, Example } from '../data/types.ts';
import { SummaryAccumulator, type RunSummary } from '../metrics/summary.ts';
import type { ModelAdapter } from '../models/types.ts';
import { QueryEngine } from '../query/engine.ts';
import { builtinRegistry } from '../families/index.ts';
import type { Registry } from '../recipes/registry/registry.ts';
import type { Built } from '../recipes/registry/define.ts';
import { TextstressError, errorMessage } from '../util/errors.ts';
import { orderedPool } from '../runner/pool.ts';
import { processStats } from '../runner/summary.ts';
import { openModel, type ModelSpec } from '../runner/open.ts';
import { assertSupports, kindOf, prepareFor } from './index.ts';
import { closeBuilt } from './prepare.ts';
import { recipeSettings } from './run.ts';

/** What {@link attackInMemory} takes: a recipe, a model and the examples, with optional settings. */
export interface InMemoryRequest {
  /** Where the recipe is looked up (default: the built-in recipes). */
  registry?: Registry;
  /** An attack or probe recipe, e.g. "typos". */
  recipe: string;
  /** The recipe's settings, camelCase; validated against its schema (defaults applied). */
  settings?: Record<string, unknown>;
  /** An open adapter (left open), or a model spec / name (opened and closed by the run). */
  model: ModelAdapter | string | ModelSpec;
  /** The examples, all of one kind; consumed once, lazily, as the results are read. */
  examples: Iterable<Example> | AsyncIterable<Example>;
  /**
   * About the examples: a name for the summary and, for classifiers, the label names in index order. Without
   * label names, an array's gold labels are read up front (so a label the model lacks fails before any query);
   * a stream's are checked as each example runs.
   */
  dataset?: { name?: string; labelNames?: string[] };
  seed?: number;
  /** Examples worked on at once; their queries share model batches (default 32). */
  concurrency?: number;
  /** Dataset label → model label, as an object or "neg=NEGATIVE,pos=POSITIVE". */
  labelMap?: Record<string, string> | string;
  /** A query engine to share with other runs (its cache and counters); default a new one. */
  engine?: QueryEngine;
}

/** The metrics of an in-memory run, as summary.json has them; `complete` is false when the caller stopped reading early. */
export type InMemorySummary = Omit<RunSummary, 'complete' | 'skipped_rows' | 'compact_results' | 'replacement_chars'> & {
  complete: boolean;
};

/** The per-example results of {@link attackInMemory}, read once with `for await`, and the run's summary. */
export interface InMemoryRun extends AsyncIterable<ExampleResult> {
  /** Settles when the results have been read to the end (or reading stopped); rejects when the run failed. */
  readonly summary: Promise<InMemorySummary>;
}

/**
 * Attacks (or probes) examples in memory. Nothing runs until the results are read; reading them twice is an
 * error (the examples are consumed once). A failed example stops the run: the iteration throws, and so does
 * `summary`.
 *
 *   const run = attackInMemory({ recipe: 'typos', model: 'demo-sst2', examples });
 *   for await (const r of run) console.log(r.status, r.perturbed);
 *   console.log((await run.summary).attack_success_rate);
 */
export function attackInMemory(req: InMemoryRequest): InMemoryRun {
  let settle!: { resolve: (s: InMemorySummary) => void; reject: (e: unknown) => void };
  const summary = new Promise<InMemorySummary>((resolve, reject) => (settle = { resolve, reject }));
  // A caller that only iterates must not see an unhandled rejection; one that awaits `summary` still gets it.
  summary.catch(() => undefined);
  let used = false;
  return {
    summary,
    [Symbol.asyncIterator]() {
      if (used)
        throw new TextstressError('an in-memory run can be read once: its examples are consumed as it runs.', {
          hint: 'Call attackInMemory again to rerun.',
        });
      used = true;
      return run(req, settle)[Symbol.asyncIterator]();
    },
  };
}

async function* run(
  req: InMemoryRequest,
  settle: { resolve: (s: InMemorySummary) => void; reject: (e: unknown) => void },
): AsyncGenerator<ExampleResult> {
  const started = Date.now();
  let complete = false;
  let failed = false;
  let model: ModelAdapter | undefined;
  let owned = false;
  let built: Built | undefined;
  try {
    const registry = req.registry ?? builtinRegistry();
    const def = registry.get(req.recipe);
    assertSupports(def, 'inMemory');
    const settings = recipeSettings(def, req.settings ?? {});
    const seed = req.seed ?? 0;
    owned = typeof req.model === 'string' || !('predict' in req.model);
    model =
      typeof req.model === 'string'
        ? await openModel({ model: req.model })
        : 'predict' in req.model
          ? req.model
          : await openModel(req.model);

    const array = Array.isArray(req.examples) ? (req.examples as Example[]) : undefined;
    const { first, stream } = await peek(req.examples);
    // No examples: nothing to check the model against; the metrics are n/a.
    const kind: Example['kind'] =
      first?.kind ?? (model.info.task === 'token-classification' ? 'tokens' : model.info.task === 'question-answering' ? 'qa' : 'text');
    const info: DatasetInfo = {
      name: req.dataset?.name ?? 'in-memory',
      path: req.dataset?.name ?? 'in-memory examples',
      kind,
      ...(req.dataset?.labelNames ? { labelNames: req.dataset.labelNames } : {}),
    };
    const observed = array ? array.flatMap((e) => (e.kind === 'text' || e.kind === 'pair' ? [e.label] : [])) : [];
    const labelMap = typeof req.labelMap === 'string' ? parseLabelMap(req.labelMap) : (req.labelMap ?? {});
    built = await prepareFor(def, settings, model.info, info, { seed, labelMap, observedLabels: observed });
    const perExample = kindOf(def).perExample!;
    const editCurve = perExample.editCurve?.(built) ?? false;

    const engine = req.engine ?? new QueryEngine(model);
    const stats0 = engine.snapshot();
    const acc = new SummaryAccumulator({ qa: kind === 'qa', seed });
    const work = perExample.job(built, model, { seed, compact: false, engine });
    const job = async (example: Example): Promise<ExampleResult> => (await work(example, engine.session())) as ExampleResult;
    const failures: { example: Example; error: unknown }[] = [];
    const summarize = (): InMemorySummary => {
      return {
        complete,
        recipe: def.name,
        model: model!.info.id,
        dataset: info.name,
        seed,
        settings,
        ...acc.finish(editCurve),
        wall_seconds: (Date.now() - started) / 1000,
        process: processStats(stats0, engine.snapshot(), engine.adapter),
      };
    };
    try {
      for await (const outcome of orderedPool(stream, job, { concurrency: req.concurrency ?? 32 })) {
        if (!outcome.ok) {
          failures.push({ example: outcome.item, error: outcome.error });
          continue;
        }
        acc.add(outcome.value);
        yield outcome.value;
      }
      if (failures.length) {
        const f = failures[0]!;
        throw new TextstressError(
          `the in-memory run stopped at example ` +
            `${f.example.source ?? f.example.id}${failures.length > 1 ? ` (and ${failures.length - 1} more)` : ''}: ` +
            `${errorMessage(f.error)}`,
          { cause: f.error },
        );
      }
      complete = true;
    } catch (err) {
      failed = true;
      throw err;
    } finally {
      // Reached on the end and when the caller stops reading (break / return); an error rejects below.
      if (!failed) settle.resolve(summarize());
    }
  } catch (err) {
    settle.reject(err);
    throw err;
  } finally {
    await closeBuilt(built);
    if (owned) await model?.close?.();
  }
}

/** The first example (its kind decides the task) and a stream of all of them, the first included. */
async function peek(examples: Iterable<Example> | AsyncIterable<Example>): Promise<{ first?: Example; stream: AsyncIterable<Example> }> {
  const it = Symbol.asyncIterator in examples ? examples[Symbol.asyncIterator]() : examples[Symbol.iterator]();
  const head = await it.next();
  async function* stream(): AsyncGenerator<Example> {
    if (head.done) return;
    yield head.value;
    const kind = head.value.kind;
    for (let next = await it.next(); !next.done; next = await it.next()) {
      if (next.value.kind !== kind) {
        throw new TextstressError(`example ${next.value.source ?? next.value.id} is a ${next.value.kind} example among ${kind} examples.`, {
          hint: 'Give one kind of example per run.',
        });
      }
      yield next.value;
    }
  }
  return { ...(head.done ? {} : { first: head.value }), stream: stream() };
}
