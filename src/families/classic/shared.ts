/** What the classic recipes' builders share: the field they edit and the TextAttack summary they add. */
import type { SubjectOptions } from '../../core/subject.ts';
import { TextAttackTally } from '../../metrics/textattack.ts';
import type { BuildContext, ResultsDigest } from '../../recipes/registry/define.ts';
import type { EDITABLE_FIELDS } from '../../recipes/shared.ts';

/**
 * The field a classic recipe edits: the one asked for, else the text, or for every pair task the second text (the
 * NLI hypothesis, the second sentence of MRPC and QNLI), as TextAttack's recipes attack only the hypothesis.
 */
export function classicSubject(field: (typeof EDITABLE_FIELDS)[number] | null, ctx: BuildContext): SubjectOptions {
  return { field: field ?? (ctx.task === 'pair-classification' ? 'textB' : 'text'), ...(ctx.data ? { dataset: ctx.data.name } : {}) };
}

/** summary.json's `details.textattack`: TextAttack's "Attack Results" figures with intervals (metrics/textattack.ts). */
export function textAttackDetails(seed: number): () => ResultsDigest {
  return () => {
    const tally = new TextAttackTally(seed);
    return { add: (r) => tally.add(r), finish: () => ({ textattack: tally.finish() }) };
  };
}
