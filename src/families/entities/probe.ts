/**
 * Algorithm 1 of Balasubramanian et al. (2020) as a Probe: find the mentions of one entity type in an example,
 * draw B replacement plans with replacement (every mention of one distinct name replaced the same way, in every
 * field: both sentences of a pair, question and context, all tokens), and let probeExample keep the worst and the
 * best variant by the task's metric. An example with no mention of the type is skipped ("no PER entity").
 */
import type { GoalFactory } from '../../core/goals/index.ts';
import type { Probe, Variant } from '../../core/probe.ts';
import type { Example } from '../../data/types.ts';
import {
  applyPlan,
  planReplacement,
  replacedNames,
  type EntityType,
  type Mention,
  type MentionAnnotator,
  type NameDictionaries,
} from '../../entities/index.ts';
import { spaceBefore, type Edit } from '../../text/edits.ts';
import type { Rng } from '../../util/rng.ts';
import { exampleFields } from '../../core/subject.ts';
import { cooperative } from '../../util/yield.ts';

/** What the entity probe needs: the type, the budget, the goal that scores variants, who finds mentions, the lists. */
export interface EntityProbeOptions {
  type: EntityType;
  budget: number;
  goal: GoalFactory;
  annotator: MentionAnnotator;
  dicts: NameDictionaries;
}

/** The skip reason of an example with no mention of the type. */
export const noEntityReason = (type: EntityType): string => `no ${type} entity`;

/** The entity probe: mentions found once per example (annotated in batches across the examples in flight). */
export function entityProbe(opts: EntityProbeOptions): Probe {
  const mentionsOf = batchedMentions(opts.annotator, opts.type);
  return {
    name: 'entities',
    goal: opts.goal,
    budget: opts.budget,
    async skipReason(example) {
      return (await mentionsOf(example)).length ? undefined : noEntityReason(opts.type);
    },
    async variants(example: Example, rng: Rng, budget: number): Promise<Variant[]> {
      const mentions = await mentionsOf(example);
      const out: Variant[] = [];
      // Each variant rewrites the whole text (a second or so on 600,000 characters): a turn between them lets SIGTERM in.
      const breathe = cooperative();
      for (let b = 0; b < budget; b++) {
        await breathe();
        const plan = planReplacement(mentions, opts.type, opts.dicts, rng);
        if (plan.size === 0) continue;
        const { example: rewritten, edits } = applyPlan(example, mentions, plan);
        const names = replacedNames(plan);
        out.push({ example: rewritten, edits, names, seen: seenNames(example, edits, names, plan) });
      }
      return out;
    },
  };
}

/**
 * Each name as the rewritten text holds its first use: the replacement in the case it took there, after a space when
 * it followed one (Variant.seen); the name itself when no edit put it in.
 */
function seenNames(example: Example, edits: readonly Edit[], names: readonly string[], plan: ReadonlyMap<string, string>): string[] {
  const spaced = spaceBefore(exampleFields(example), edits);
  return names.map((name) => {
    const k = edits.findIndex((e) => e.group !== undefined && plan.get(e.group) === name);
    return k < 0 ? name : `${spaced[k] ? ' ' : ''}${edits[k]!.after}`;
  });
}

/**
 * Mentions of one type per example. Examples asked for in the same turn of the event loop go to the annotator as
 * one batch (a model annotator then runs one forward pass for all the examples in flight); each example's answer
 * is kept until the probe has made its variants.
 */
function batchedMentions(annotator: MentionAnnotator, type: EntityType): (e: Example) => Promise<Mention[]> {
  const known = new WeakMap<Example, Promise<Mention[]>>();
  let pending: { example: Example; resolve: (m: Mention[]) => void; reject: (err: unknown) => void }[] = [];
  const flush = (): void => {
    const batch = pending;
    pending = [];
    annotator.annotate(batch.map((p) => p.example)).then(
      (found) => batch.forEach((p, i) => p.resolve((found[i] ?? []).filter((m) => m.type === type))),
      (err: unknown) => batch.forEach((p) => p.reject(err)),
    );
  };
  return (example) => {
    let p = known.get(example);
    if (!p) {
      p = new Promise<Mention[]>((resolve, reject) => {
        if (pending.length === 0) setImmediate(flush);
        pending.push({ example, resolve, reject });
      });
      known.set(example, p);
    }
    return p;
  };
}
