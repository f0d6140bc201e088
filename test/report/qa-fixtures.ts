/**
 * Real QA runs for the report's browser test, on the random-weight tiny-bert-qa fixture and the SQuAD v1.1 slice:
 * `textstress attack typos` (typos in the question), and noise in the context (qaContextNoise, as the coming
 * `stress qa` noise tests make it), its results written as a run would write them.
 */
import { join } from 'node:path';
import { movedGold } from '../../src/core/attack.ts';
import { QaF1Drop } from '../../src/core/goals/index.ts';
import type { ExampleResult } from '../../src/core/result.ts';
import { exampleFields, exampleInput } from '../../src/core/subject.ts';
import { collect } from '../../src/data/rows.ts';
import { loadSquad } from '../../src/data/squad.ts';
import { openModel } from '../../src/runner/open.ts';
import { qaContextNoise } from '../../src/families/stress/qa/noise.ts';
import { WordSeq } from '../../src/text/word-seq.ts';
import { ROOT, fixtureData, runCli } from '../cli/helpers.ts';
import { writeRun } from './fixtures.ts';

export const QA_MODEL = join(ROOT, 'test', 'fixtures', 'models', 'tiny-bert-qa');
export const SQUAD = fixtureData('squad-v1.1/dev-v1.1.json');

/** `textstress attack typos --k 1 --target max` on the first `limit` questions; throws with stderr on failure. */
export async function runQaTypos(out: string, limit: number): Promise<void> {
  const args = [
    'attack',
    'typos',
    '--model',
    QA_MODEL,
    '--data',
    SQUAD,
    '--k',
    '1',
    '--target',
    'max',
    '--limit',
    String(limit),
    '--seed',
    '1',
    '--out',
    out,
    '--no-progress',
  ];
  const r = await runCli(args);
  if (r.code !== 0) throw new Error(`attack typos failed: ${r.stderr}`);
}

/**
 * Natural noise on every context word outside the gold answers of the first `limit` questions, scored by the model.
 * As in a stress test every question is evaluated on its noisy version; "skipped" marks the ones the model already
 * had wrong (nothing to break), and keeps their noisy texts so the report shows them too.
 */
export async function writeQaContextNoiseRun(dir: string, limit: number): Promise<ExampleResult[]> {
  const examples = (await collect(await loadSquad(SQUAD))).slice(0, limit);
  const model = await openModel({ model: QA_MODEL });
  const noised = examples.map((e) => qaContextNoise(e, 'natural', { seed: 1 }));
  const outputs = await model.predict(examples.flatMap((e, i) => [exampleInput(e), exampleInput(noised[i]!.example)]));
  await model.close?.();
  const results = examples.map((e, i): ExampleResult => {
    const { example: noisy, edits } = noised[i]!;
    const goal = new QaF1Drop().create(e, outputs[2 * i]!);
    const clean = goal.evaluate(outputs[2 * i]!);
    const after = goal.evaluate(outputs[2 * i + 1]!);
    const skip = goal.skipReason(clean);
    const words = WordSeq.parse(e.context).length;
    return {
      id: e.id,
      ...(e.source ? { source: e.source } : {}),
      status: skip ? 'skipped' : after.done ? 'succeeded' : 'failed',
      ...(skip ? { skip_reason: skip } : {}),
      gold: e.answers,
      ...movedGold(e, noisy),
      field: 'context',
      original: exampleFields(e),
      perturbed: exampleFields(noisy),
      original_prediction: clean.prediction,
      perturbed_prediction: after.prediction,
      original_correct: clean.correct,
      perturbed_correct: after.correct,
      edits,
      num_words: words,
      words_perturbed: edits.length,
      perturbed_word_pct: (100 * edits.length) / words,
      queries: 2,
      requests: 2,
      cache_hits: 0,
      trace: [],
    };
  });
  writeRun(dir, 'qa-context-noise', { noise: 'natural' }, results, { model: QA_MODEL, dataset: SQUAD });
  return results;
}
