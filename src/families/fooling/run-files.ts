/** Reading a finished fooling run back (fool-transfer, fool-augment, the sweep): its summary and its fooling sentences. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readLines } from '../../data/index.ts';
import { TextstressError } from '../../util/errors.ts';
import type { FoolingSettings } from './settings.ts';
import { detailsOf, type FoolingDetails } from './tables.ts';

/** What the tools that read a fooling run need from its summary.json. */
export interface FoolingRun {
  dir: string;
  model: string;
  seed: number;
  settings: FoolingSettings;
  details: FoolingDetails;
  metrics: Record<string, number | null>;
}

export function readFoolingRun(dir: string): FoolingRun {
  const path = join(dir, 'summary.json');
  if (!existsSync(path))
    throw new TextstressError(`no finished run in ${dir} (no summary.json).`, {
      hint: 'Pass the --out folder of a finished `textstress fool` run (finish it with --resume first).',
    });
  let summary: {
    recipe?: unknown;
    model?: unknown;
    seed?: unknown;
    settings?: unknown;
    details?: Record<string, unknown>;
    metrics?: unknown;
  };
  try {
    summary = JSON.parse(readFileSync(path, 'utf8')) as typeof summary;
  } catch (err) {
    throw new TextstressError(`summary.json is not valid JSON: ${(err as Error).message}`, { where: path });
  }
  const details = detailsOf({ details: summary.details });
  if (summary.recipe !== 'fooling' || !details)
    throw new TextstressError(`${dir} holds a ${String(summary.recipe)} run, not a fooling (textstress fool) run.`, { where: path });
  return {
    dir,
    model: String(summary.model),
    seed: Number(summary.seed),
    settings: summary.settings as FoolingSettings,
    details,
    metrics: summary.metrics as Record<string, number | null>,
  };
}

/** The run's distinct fooling sentences (results.jsonl), in the order they were found. */
export async function readFoolingSentences(dir: string): Promise<string[]> {
  const path = join(dir, 'results.jsonl');
  const out: string[] = [];
  if (!existsSync(path)) return out;
  for await (const { text, line } of readLines(path)) {
    if (text.trim() === '') continue;
    let value: { text?: unknown };
    try {
      value = JSON.parse(text) as { text?: unknown };
    } catch (err) {
      throw new TextstressError(`line ${line} is not valid JSON: ${(err as Error).message}`, { where: path });
    }
    if (typeof value.text !== 'string') throw new TextstressError(`line ${line} has no text.`, { where: path });
    out.push(value.text);
  }
  return out;
}
