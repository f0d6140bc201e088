/**
 * Which class EFSG pushes towards. The paper fools binary classifiers into their positive class; beyond binary
 * tasks (its proposed extension) the user names the class.
 */
import { TextstressError } from '../../../util/errors.ts';

/** Label names read as "the positive class" of a binary task. */
const POSITIVE_NAMES = ['positive', 'pos', 'acceptable', 'entailment', 'equivalent', 'paraphrase', 'true', 'yes', '1', 'label_1'];

/** The target class index: the asked label (case-insensitive), else the positive class of a binary model. */
export function targetClass(labels: readonly string[], asked: string | null, modelId: string): { index: number; label: string } {
  const lower = labels.map((l) => l.toLowerCase());
  if (asked !== null) {
    const index = lower.indexOf(asked.toLowerCase());
    if (index < 0)
      throw new TextstressError(`the model ${modelId} has no class "${asked}"; its classes are ${labels.join(', ')}.`, {
        hint: 'Pass one of them with --target.',
      });
    return { index, label: labels[index]! };
  }
  if (labels.length !== 2) {
    throw new TextstressError(
      `the model ${modelId} has ${labels.length} classes (${labels.join(', ')}), so there is no positive class to aim at.`,
      {
        hint: 'Name the class the fooling sentences should reach with --target.',
      },
    );
  }
  const named = lower.findIndex((l) => POSITIVE_NAMES.includes(l));
  // A binary model whose labels say nothing: index 1 is the positive class by the GLUE convention.
  const index = named >= 0 && !(named === 0 && POSITIVE_NAMES.includes(lower[1]!)) ? named : 1;
  return { index, label: labels[index]! };
}
