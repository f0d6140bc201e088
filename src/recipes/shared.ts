/** Settings several word-level recipes share, declared once. */
import { z } from 'zod';
import type { SubjectOptions } from '../core/subject.ts';
import type { BuildContext } from './registry/define.ts';

export const EDITABLE_FIELDS = ['text', 'textA', 'textB', 'tokens', 'question', 'context'] as const;

export const fieldSetting = z
  .enum(EDITABLE_FIELDS)
  .nullable()
  .default(null)
  .describe("field to perturb (pairs: textA or textB; QA: question or context); none = the task's usual field");

export const protectSetting = z.array(z.string()).default([]).describe('words never to perturb');

export const minLengthSetting = z.number().int().min(1).default(2).describe('shortest word that may be perturbed');

export const maxWordsSetting = z
  .number()
  .int()
  .min(1)
  .default(512)
  .describe(
    'only the first N words of a text are ranked and edited, which bounds the work per example (results of longer texts are marked window_capped)',
  );

/** Which field of the examples an attack edits. */
export function subjectOf(field: (typeof EDITABLE_FIELDS)[number] | null, ctx: BuildContext): SubjectOptions {
  return { ...(field ? { field } : {}), ...(ctx.data ? { dataset: ctx.data.name } : {}) };
}
