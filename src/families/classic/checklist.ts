/**
 * CheckList's invariance attack (Ribeiro et al. 2020, "Beyond Accuracy: Behavioral Testing of NLP models with
 * CheckList"), as TextAttack's checklist_ribeiro_2020.py composes it: contractions expanded or contracted, names,
 * numbers and locations changed; no word modified twice; untargeted classification; greedy search (a beam of
 * width 1 over every edit at every word, until the label flips or nothing is left to edit).
 */
import { z } from 'zod';
import type { Attack } from '../../core/attack.ts';
import { editZone, noRepeatEdits } from '../../core/constraints.ts';
import type { GoalFactory } from '../../core/goals/index.ts';
import { BeamSearch } from '../../core/search/beam.ts';
import type { SubjectOptions } from '../../core/subject.ts';
import { defineAttack } from '../../recipes/registry/define.ts';
import { checklistTransformation } from './checklist-edits.ts';
import { classicFamily } from './report.ts';
import { classicSettings } from './settings.ts';
import { classicSubject, textAttackDetails } from './shared.ts';

/** Settings of the `checklist` recipe: its defaults are TextAttack's. */
export const checklistSettings = z.strictObject({
  ...classicSettings,
  replacements: z.number().int().min(1).default(3).describe('replacements drawn for each name, number and location, each time it is tried'),
  numberChange: z
    .number()
    .positive()
    .default(1)
    .describe("how far a number may move, as a share of it (TextAttack's max_change: 1 = ±100%; CheckList's own change_number uses 0.2)"),
});

/** What checklistAttack needs. */
export interface ChecklistAttackOptions {
  goal: GoalFactory;
  replacements: number;
  numberChange: number;
  maxWords: number;
  subject: SubjectOptions;
}

/** CheckList composed (see the file comment). */
export function checklistAttack(o: ChecklistAttackOptions): Attack {
  return {
    name: 'checklist',
    transformation: checklistTransformation({ n: o.replacements, maxChange: o.numberChange }),
    constraints: [editZone(), noRepeatEdits],
    goal: o.goal,
    search: new BeamSearch(1),
    window: o.maxWords,
    subject: o.subject,
  };
}

/** The `checklist` attack recipe (CheckList, as TextAttack composes it). */
export const checklistRecipe = defineAttack({
  name: 'checklist',
  summary:
    'CheckList invariance attack: expands or contracts contractions and changes names, numbers and locations (3 random ' +
    'replacements each), greedily keeping the edit that lowers the true class most, until the label flips or nothing is left to change',
  paper: 'Ribeiro et al. 2020 (CheckList); TextAttack checklist_ribeiro_2020',
  resources: [
    'name, city, country and nationality lists (bundled: @stdlib first names, @faker-js last names and cities, i18n-iso-countries, compromise)',
    'number words (bundled: number-to-words)',
  ],
  tasks: ['text-classification', 'pair-classification'],
  settings: checklistSettings,
  build: (s, ctx) => ({
    attack: checklistAttack({
      goal: ctx.goal,
      replacements: s.replacements,
      numberChange: s.numberChange,
      maxWords: s.maxWords,
      subject: classicSubject(s.field, ctx),
    }),
    details: textAttackDetails(ctx.seed),
  }),
  report: classicFamily,
});
