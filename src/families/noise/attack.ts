import type { Attack } from '../../core/attack.ts';
import { editZone, minWordLength, protectWords, type Constraint } from '../../core/constraints.ts';
import type { Edit } from '../../text/edits.ts';
import type { GoalFactory } from '../../core/goals/index.ts';
import { OneShotSearch } from '../../core/search/one-shot.ts';
import type { SubjectOptions } from '../../core/subject.ts';
import { applyNoise, type NoiseType } from '../../perturb/index.ts';
import { noiseSettings } from './settings.ts';

/** What an option left out means: the recipe's defaults, from its settings schema (the one place they live). */
const DEFAULTS = noiseSettings.parse({});

/** Options left out take the noise recipe's defaults (settings.ts). */
export interface NoiseAttackOptions {
  goal: GoalFactory;
  noise: NoiseType;
  minLength?: number;
  protect?: string[];
  subject?: SubjectOptions;
}

/** The stress-test noise setting: every eligible word gets the noise at once, the model answers once. */
export function noiseAttack(opts: NoiseAttackOptions): Attack {
  const constraints: Constraint[] = [editZone(), minWordLength(opts.minLength ?? DEFAULTS.minLength)];
  const protect = opts.protect ?? DEFAULTS.protect;
  if (protect.length) constraints.push(protectWords(protect));
  const type = `noise:${opts.noise}`;
  return {
    name: `noise(${opts.noise})`,
    // Candidates are not proposed word by word here; the one-shot search rewrites the whole text.
    transformation: { name: type, candidates: () => [] },
    constraints,
    goal: opts.goal,
    subject: opts.subject,
    search: new OneShotSearch(type, (state, rng, modifiable, field) => {
      const { seq, changed } = applyNoise(state.seq, opts.noise, rng, { protect: (i) => !modifiable(i) });
      const edits: Edit[] = changed.map((c) => ({
        type,
        field,
        wordIndex: c.wordIndex,
        start: state.seq.offsetOf(c.wordIndex),
        before: c.before,
        after: c.after,
      }));
      // Same gaps, so the seq keeps the state's open end (a window's head) too.
      return { seq: state.seq.withWords(seq.words), edits: [...state.edits, ...edits], modified: new Set(changed.map((c) => c.wordIndex)) };
    }),
  };
}
