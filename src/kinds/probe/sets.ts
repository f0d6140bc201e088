/**
 * A probe's D_worst and D_best (the entity paper's Algorithm 1): the dataset again, each example replaced by its
 * worst (best) variant, written in the input's own format so the same scripts read them. An example the probe did
 * not vary (no entity of the type) appears unchanged, so both sets have exactly the examples of the run, in order.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ExampleResult } from '../../core/result.ts';
import { extensionOf, toJsonl, writeInFormat } from '../../data/export.ts';
import type { DataFormat, DatasetInfo, Example, QaAnswer } from '../../data/types.ts';
import { TextstressError } from '../../util/errors.ts';

/** Where the two sets went. */
export interface ProbeSetFiles {
  worst: string;
  best: string;
}

/**
 * Pairs each example with its result by id and writes d_worst.<ext> and d_best.<ext> into `outDir`: the format's
 * own writer (SST-2, GLUE, SICK, CoNLL, SQuAD), else JSON Lines. Results come in data order (then nothing waits);
 * a folder an older version left out of order (a failure wrote later examples first) is read all the same.
 */
export async function writeProbeSets(
  outDir: string,
  examples: AsyncIterable<Example>,
  results: AsyncIterable<ExampleResult>,
  format: DataFormat,
  info: DatasetInfo,
  resultsPath = join(outDir, 'results.jsonl'),
): Promise<ProbeSetFiles> {
  const worst: Example[] = [];
  const best: Example[] = [];
  const it = results[Symbol.asyncIterator]();
  // Results read ahead of their example (out of data order), by id.
  const ahead = new Map<string, ExampleResult>();
  const resultOf = async (id: string): Promise<ExampleResult | undefined> => {
    const early = ahead.get(id);
    if (early) {
      ahead.delete(id);
      return early;
    }
    for (let next = await it.next(); !next.done; next = await it.next()) {
      if (next.value.id === id) return next.value;
      ahead.set(next.value.id, next.value);
    }
    return undefined;
  };
  for await (const e of examples) {
    const r = await resultOf(e.id);
    if (!r) {
      throw new TextstressError(`the results hold no line for example ${e.id}, so D_worst and D_best cannot be written.`, {
        where: resultsPath,
        hint: 'Rerun the same command with --resume to finish the run (or --overwrite to start afresh).',
      });
    }
    worst.push(r.probe ? withFields(e, r.perturbed, r.perturbed_gold) : e);
    best.push(r.probe ? withFields(e, r.probe.best.fields, r.probe.best.perturbed_gold) : e);
  }
  const extra = ahead.size ? [...ahead.keys()][0] : (await it.next()).value?.id;
  if (extra !== undefined) {
    throw new TextstressError(`the results hold example ${extra}, which the data does not: results and data are out of step.`, {
      where: resultsPath,
      hint: 'Resume with the data the run started with, or start afresh with --overwrite.',
    });
  }
  const write = (name: string, set: Example[]): string => {
    const own = writeInFormat(format, info, set);
    const path = join(outDir, own === undefined ? `${name}.jsonl` : `${name}.${extensionOf(format)}`);
    writeFileSync(path, own ?? toJsonl(set));
    return path;
  };
  return { worst: write('d_worst', worst), best: write('d_best', best) };
}

/** The example with a variant's fields, and its gold where the rewrite moved it (tags, answer offsets). */
function withFields(e: Example, fields: Record<string, string | string[]>, gold: unknown): Example {
  // Compact results of old runs may hold no texts: the example stays as it was.
  if (Object.keys(fields).length === 0) return e;
  const next = { ...e, ...fields };
  if (gold === undefined) return next;
  if (next.kind === 'tokens') return { ...next, tags: gold as string[] };
  if (next.kind === 'qa') return { ...next, answers: gold as QaAnswer[] };
  return next;
}
