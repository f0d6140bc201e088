/**
 * Adversarial training data from a fooling run (EFSG §6.5): its fooling sentences labelled with the class they
 * should have got (the non-target class of a binary task, or --label), written in the training file's own format
 * so the training script reads them as extra examples (`train_bert.py --extra-train FILE`).
 */
import { writeFileSync } from 'node:fs';
import { detectFormat, openDataset } from '../../data/index.ts';
import { toJsonl, writeInFormat } from '../../data/export.ts';
import type { DataFormat, Example } from '../../data/types.ts';
import { TextstressError } from '../../util/errors.ts';
import { readFoolingRun, readFoolingSentences } from './run-files.ts';

export interface AugmentResult {
  out: string;
  written: number;
  label: string;
  format: DataFormat | 'jsonl';
}

/** Writes the run's fooling sentences, labelled, to `out`; returns what it wrote. */
export async function foolingAugment(dir: string, out: string, asked: string | null = null): Promise<AugmentResult> {
  const run = readFoolingRun(dir);
  const sentences = await readFoolingSentences(dir);
  if (sentences.length === 0) throw new TextstressError(`the run in ${dir} found no fooling sentences, so there is nothing to add.`);
  const train = run.settings.train ?? run.details.threshold.train;
  const info = (await openDataset(train)).info;
  const names = info.labelNames ?? [];
  const target = run.details.target.label.toLowerCase();
  let label: string;
  if (asked !== null) {
    if (names.length && !names.some((n) => n.toLowerCase() === asked.toLowerCase())) {
      throw new TextstressError(`the training file has no label "${asked}" (its labels: ${names.join(', ')}).`, { where: train });
    }
    label = names.find((n) => n.toLowerCase() === asked.toLowerCase()) ?? asked;
  } else {
    const others = names.filter((n) => n.toLowerCase() !== target);
    if (names.length !== 2 || others.length !== 1) {
      throw new TextstressError(
        `cannot tell which label the fooling sentences should get (the training file's labels: ${names.join(', ') || 'not fixed by its format'}).`,
        {
          where: train,
          hint: 'Name it with --label.',
        },
      );
    }
    label = others[0]!;
  }
  const pair = run.details.pair;
  const examples: Example[] = sentences.map((text, i) => {
    const id = `fooling-${i + 1}`;
    if (!pair) return { kind: 'text', id, text, label };
    return pair.side === 'second'
      ? { kind: 'pair', id, textA: pair.fixed, textB: text, label }
      : { kind: 'pair', id, textA: text, textB: pair.fixed, label };
  });
  const format = await detectFormat(train);
  const text = writeInFormat(format, info, examples);
  writeFileSync(out, text ?? toJsonl(examples));
  return { out, written: examples.length, label, format: text === undefined ? 'jsonl' : format };
}
