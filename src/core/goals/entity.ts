import { entityCounts, entitySpans, f1, type EntityCounts } from '../../data/entities.ts';
import type { Example } from '../../data/types.ts';
import type { ModelOutput } from '../../models/types.ts';
import { asTags, type Goal, type GoalFactory } from './types.ts';

/**
 * NER: succeed when the sentence's entity F1 falls below the clean prediction's F1 (entity tokens themselves
 * are frozen by the subject, so any loss comes from edits to the context).
 */
export class EntityF1Drop implements GoalFactory {
  readonly name = 'entity-f1-drop';

  /** minDrop: how far F1 must fall below the clean F1 to count as success. */
  constructor(private readonly minDrop = 1e-9) {}

  create(example: Example, clean: ModelOutput): Goal {
    if (example.kind !== 'tokens') throw new Error(`entity-F1 goal needs token examples, got ${example.kind}`);
    const gold = example.tags;
    const cleanTags = asTags(clean).tags;
    // A variant with another token count (a name of two words swapped for one) has no clean F1 to compare with.
    const cleanF1 = cleanTags.length === gold.length ? sentenceF1(entityCounts(gold, cleanTags)) : 1;
    const minDrop = this.minDrop;
    return {
      evaluate(output, origin) {
        const { tags, scores } = asTags(output);
        // Gold tags follow inserts (a new token is 'O') and deletes (its tag goes too).
        const aligned = origin ? origin.map((o) => (o < 0 ? 'O' : gold[o]!)) : gold;
        const counts = entityCounts(aligned, tags);
        const value = sentenceF1(counts);
        const mean = scores.length ? scores.reduce((s, x) => s + x, 0) / scores.length : 0;
        return {
          score: cleanF1 - value,
          done: cleanF1 - value >= minDrop,
          correct: counts.fp === 0 && counts.fn === 0,
          metric: value,
          prediction: { label: `F1=${value.toFixed(3)}`, score: mean, tags: tags.slice(), entities: counts },
        };
      },
      skipReason: () => {
        if (cleanF1 > 0) return undefined;
        return entitySpans(gold).length === 0
          ? 'no gold entities, and the model already predicts some in the clean sentence'
          : 'the model finds none of the entities in the clean sentence';
      },
    };
  }
}

/** One sentence's F1: a sentence with no entity, none predicted, has nothing to get wrong (1), unlike a corpus. */
function sentenceF1(c: EntityCounts): number {
  return f1(c) ?? 1;
}
