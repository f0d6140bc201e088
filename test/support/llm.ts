/**
 * What the LLM-endpoint tests share: the typo attack they run against `serve --openai` (demo-sst2 behind
 * /v1/chat/completions) and how they compare its outcomes line by line.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUILTIN_RECIPES } from '../../src/families/index.ts';
import { createRegistry } from '../../src/recipes/registry/registry.ts';
import { runRecipe, type RunRequest } from '../../src/kinds/run.ts';
import { SST2_DEV } from '../cli/helpers.ts';

const registry = createRegistry(BUILTIN_RECIPES);

/** A K = 1 typo attack of `openai:demo` on 12 SST-2 dev sentences, seed 3; `over` sets the endpoint, out, key … */
export const llmTypos = (over: Partial<RunRequest> & { out: string }): Promise<unknown> =>
  runRecipe({
    registry,
    recipe: 'typos',
    settings: { k: 1 },
    model: 'openai:demo',
    labels: ['negative', 'positive'],
    data: SST2_DEV,
    limit: 12,
    seed: 3,
    ...over,
  });

/** One results line, as far as these tests read it. */
export type LlmLine = {
  id: string;
  status: string;
  perturbed: unknown;
  edits: unknown;
  original_prediction: { label: string; unmappable?: string };
  perturbed_prediction: { label: string };
  usage?: { input_tokens: number; cost_usd?: number };
  unmappable?: number;
};

export const resultLines = (dir: string): LlmLine[] =>
  readFileSync(join(dir, 'results.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as LlmLine);

/** Each example's outcome (status, texts, edits, labels before and after) by id, for comparing two runs. */
export const outcomesById = (rs: LlmLine[]): Map<string, string> =>
  new Map(
    rs.map((r) => [
      r.id,
      JSON.stringify([r.id, r.status, r.perturbed, r.edits, r.original_prediction.label, r.perturbed_prediction.label]),
    ]),
  );
