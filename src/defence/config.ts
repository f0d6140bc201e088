/**
 * The RESEMBLE config file (JSON): which entity type it defends, the canonical entities, the temperature, the
 * annotator, and what it was fitted on. `textstress resemble fit` writes it; `--defence FILE` reads it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { z } from 'zod';
import { ENTITY_TYPES } from '../entities/types.ts';
import { TextstressError } from '../util/errors.ts';

/** T when none was fitted (the paper's default). */
export const DEFAULT_TEMPERATURE = 2;

const annotatorSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('gazetteer') }).strict(),
  z
    .object({
      kind: z.literal('model'),
      model: z.string().min(1).describe('token-classification model (folder, built-in name such as demo-ner, hub id or URL)'),
    })
    .strict(),
]);

const fittedSchema = z
  .object({
    model: z.string(),
    data: z.string(),
    examples: z.number().int().min(0),
    applicable: z.number().int().min(0),
    seed: z.number().int(),
    candidates: z.array(z.object({ name: z.string(), accuracy: z.number().nullable() })),
    originalAccuracy: z.number().nullable(),
    temperatureGrid: z.array(z.object({ temperature: z.number(), nll: z.number().nullable() })),
    temperatureFitted: z.boolean(),
  })
  .strict();

/** The config file's schema (zod): validated on read and before every write. */
export const resembleConfigSchema = z
  .object({
    textstress: z.literal('resemble'),
    version: z.literal(1),
    type: z.enum(ENTITY_TYPES),
    canonical: z.array(z.string().min(1)).min(1).max(16).describe('the M canonical entities (M = 1 or 3 in the paper)'),
    temperature: z.number().positive(),
    annotator: annotatorSchema,
    fitted: fittedSchema.optional(),
  })
  .strict();

/** A parsed RESEMBLE config. */
export type ResembleConfig = z.infer<typeof resembleConfigSchema>;
/** How the config finds mentions. */
export type AnnotatorSpec = ResembleConfig['annotator'];

/** Validates a config object; errors name `where` (the file) and the field at fault. */
export function parseResembleConfig(value: unknown, where = 'RESEMBLE config'): ResembleConfig {
  const parsed = resembleConfigSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(top level)'}: ${i.message}`);
  throw new TextstressError(`not a valid RESEMBLE config: ${problems.join('; ')}.`, {
    where,
    hint: 'Write one with `textstress resemble fit … --out resemble.json` (fields: textstress "resemble", version 1, type, canonical, temperature, annotator).',
  });
}

/** Reads and validates a config file. */
export function readResembleConfig(path: string): ResembleConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new TextstressError(`cannot read the RESEMBLE config: ${(err as Error).message}.`, {
      where: path,
      hint: 'Check the --defence path.',
    });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new TextstressError(`the RESEMBLE config is not JSON: ${(err as Error).message}.`, { where: path });
  }
  return parseResembleConfig(json, path);
}

/** Writes a config (validated first, so a written file always reads back). */
export function writeResembleConfig(path: string, config: ResembleConfig): void {
  writeFileSync(path, JSON.stringify(parseResembleConfig(config, path), null, 2) + '\n');
}
