/**
 * The transfer matrix (issue 27, part 5): the adversarial examples of N runs (every recipe that writes perturbed
 * examples to results.jsonl: typos, noise, grammar, entities …) scored on M models. A cell is the transfer rate:
 * of the run's successful adversarial examples whose clean version the model gets right, the share the model gets
 * wrong once perturbed, with its Wilson interval. Classification runs (text or pair inputs) only: a tagger's or a QA
 * model's "wrong" needs the task's own goal, which a run's results do not name.
 */
import { join } from 'node:path';
import type { ExampleResult } from '../../core/result.ts';
import type { ModelAdapter, ModelInput, ModelOutput } from '../../models/types.ts';
import { readResults } from '../../runner/checkpoint.ts';
import { RESULTS_FILE } from '../../runner/per-example.ts';
import { wilson, type Interval } from '../../stats/index.ts';
import { TextstressError } from '../../util/errors.ts';
import { readRunInfo, type RunInfo } from './load.ts';

/** One adversarial example: the clean and perturbed inputs and the gold label. */
export interface Adversarial {
  id: string;
  gold: string;
  clean: ModelInput;
  perturbed: ModelInput;
}

/** A classification input from a result's fields ({text} or {textA, textB}); undefined for other tasks. */
function inputOf(fields: Record<string, string | string[]>): ModelInput | undefined {
  if (typeof fields.text === 'string') return { kind: 'text', text: fields.text };
  if (typeof fields.textA === 'string' && typeof fields.textB === 'string')
    return { kind: 'pair', textA: fields.textA, textB: fields.textB };
  return undefined;
}

/** The successful adversarial examples of a finished run, read in one streaming pass. */
export async function readAdversarial(dir: string): Promise<{ info: RunInfo; examples: Adversarial[] }> {
  const info = readRunInfo(dir);
  const examples: Adversarial[] = [];
  for await (const r of readResults<ExampleResult>(join(dir, RESULTS_FILE))) {
    if (r.status !== 'succeeded') continue;
    const clean = inputOf(r.original);
    const perturbed = inputOf(r.perturbed);
    if (!clean || !perturbed || typeof r.gold !== 'string') {
      throw new TextstressError(
        `${dir} is not a classification run (its examples are ${Object.keys(r.original).join(', ')}): transfer scores class labels only.`,
        { where: join(dir, RESULTS_FILE) },
      );
    }
    examples.push({ id: r.id, gold: r.gold, clean, perturbed });
  }
  return { info, examples };
}

/** One cell: the transfer rate of one run's adversarial examples to one model. */
export interface TransferCell {
  model: string;
  /** Adversarial examples of the run. */
  adversarial: number;
  /** Of them, those the model gets right clean (the denominator), and those it gets wrong perturbed. */
  clean_correct: number;
  fooled: number;
  rate: Interval;
}

/** One row: a run and its cells, one per model. */
export interface TransferRow {
  run: RunInfo;
  cells: TransferCell[];
}

/** transfer.json. */
export interface TransferMatrix {
  version: 1;
  models: string[];
  rows: TransferRow[];
  definition: string;
}

const DEFINITION =
  'transfer rate = of the run’s successful adversarial examples whose clean version the model classifies correctly, ' +
  'the share it misclassifies once perturbed; 95% Wilson interval.';

function top(o: ModelOutput): string {
  if (o.kind !== 'classes') throw new TextstressError(`the model answered ${o.kind}, not classes: transfer scores classifiers only.`);
  let best = 0;
  for (let i = 1; i < o.probs.length; i++) if (o.probs[i]! > o.probs[best]!) best = i;
  return o.labels[best]!;
}

/** Scores one run's adversarial examples on one model. `query` answers a batch in order (a QueryEngine, or the adapter). */
export async function transferCell(
  spec: string,
  query: (inputs: ModelInput[]) => Promise<ModelOutput[]>,
  examples: readonly Adversarial[],
  labelMap: Record<string, string> = {},
): Promise<TransferCell> {
  const clean = await query(examples.map((e) => e.clean));
  const perturbed = await query(examples.map((e) => e.perturbed));
  const same = (answer: string, gold: string): boolean => answer.toLowerCase() === (labelMap[gold] ?? gold).toLowerCase();
  const labels = new Set(clean.flatMap((o) => (o.kind === 'classes' ? o.labels.map((l) => l.toLowerCase()) : [])));
  const missing = [...new Set(examples.map((e) => labelMap[e.gold] ?? e.gold))].filter((g) => labels.size && !labels.has(g.toLowerCase()));
  if (missing.length) {
    throw new TextstressError(
      `the model ${spec} has no class ${missing.map((g) => `"${g}"`).join(', ')} (its classes: ${[...labels].join(', ')}).`,
      {
        hint: `Map the run's labels to the model's: --label-map "${spec}=negative:unacceptable,positive:acceptable" (run label:model label).`,
      },
    );
  }
  let right = 0;
  let fooled = 0;
  examples.forEach((e, i) => {
    if (!same(top(clean[i]!), e.gold)) return;
    right++;
    if (!same(top(perturbed[i]!), e.gold)) fooled++;
  });
  return { model: spec, adversarial: examples.length, clean_correct: right, fooled, rate: wilson(fooled, right) };
}

/** Options of {@link transferMatrix}. */
export interface TransferOptions {
  models: readonly string[];
  /** Run label → model label, per model spec (models absent here compare labels as they are, ignoring case). */
  labelMaps?: Record<string, Record<string, string>>;
  open(spec: string): Promise<ModelAdapter>;
  /** Answers a batch for an open model (default: its predict). */
  query?(model: ModelAdapter, inputs: ModelInput[]): Promise<ModelOutput[]>;
}

/** The N×M matrix: every run's adversarial examples on every model (each model opened once, closed after). */
export async function transferMatrix(dirs: readonly string[], opts: TransferOptions): Promise<TransferMatrix> {
  const runs = [];
  for (const d of dirs) runs.push(await readAdversarial(d));
  const rows: TransferRow[] = runs.map((r) => ({ run: r.info, cells: [] }));
  for (const spec of opts.models) {
    const model = await opts.open(spec);
    try {
      const query = (inputs: ModelInput[]): Promise<ModelOutput[]> => (opts.query ? opts.query(model, inputs) : model.predict(inputs));
      for (const [i, r] of runs.entries()) rows[i]!.cells.push(await transferCell(spec, query, r.examples, opts.labelMaps?.[spec]));
    } finally {
      await model.close?.();
    }
  }
  return { version: 1, models: [...opts.models], rows, definition: DEFINITION };
}
