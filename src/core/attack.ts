import type { Example } from '../data/types.ts';
import { QueryBudgetError, type QuerySession } from '../query/engine.ts';
import type { Rng } from '../util/rng.ts';
import { isAllowed, isModifiable, nothingToEdit, type Constraint } from './constraints.ts';
import type { GoalFactory } from './goals/index.ts';
import { guardUnmappable, isStandIn } from './goals/types.ts';
import type { ExampleResult } from './result.ts';
import type { Expanded, SearchContext, SearchMethod } from './search/types.ts';
import { applyCandidate, initialState, type AttackState, type Scored } from './state.ts';
import { makeSubject, type AttackSubject, type SubjectOptions } from './subject.ts';
import type { Transformation } from './transformation.ts';
import type { WordCandidate } from '../text/edits.ts';

/** The four parts of an attack, composed. Knows nothing about which model answers. */
export interface Attack {
  name: string;
  transformation: Transformation;
  constraints: Constraint[];
  goal: GoalFactory;
  search: SearchMethod;
  subject?: SubjectOptions;
  /**
   * Why this attack cannot work on the subject at all (e.g. the grammar tagger cannot read the text), or
   * undefined. Checked after the clean query, before the goal's own skip reason; the example is skipped.
   */
  skipReason?(subject: AttackSubject): string | undefined;
  /**
   * The most words it may edit, from the start of the field: the subject keeps the rest as a fixed suffix, so
   * the work per example is bounded for any length. Results of longer texts are marked `window_capped`.
   */
  window?: number;
  /**
   * What the example asked of models and indexes besides the target (a sentence encoder's texts, a masked LM's masked
   * texts, words looked up in embeddings), by name; recorded in the result as `resource_queries` when any is non-zero.
   */
  resourceQueries?(subject: AttackSubject): Record<string, number>;
}

/** Runs one attack on one example; all model queries go through the example's own session. */
export async function attackExample(attack: Attack, example: Example, session: QuerySession, rng: Rng): Promise<ExampleResult> {
  const subject = makeSubject(example, { ...attack.subject, ...(attack.window !== undefined ? { window: attack.window } : {}) });
  const [clean] = await session.query([subject.toInput(subject.original)]);
  const goal = guardUnmappable(attack.goal.create(example, clean!));
  const initial: Scored = { state: initialState(subject.original), status: goal.evaluate(clean!) };

  // The example's own transformation (prepare: names found once in its text), set before the search starts.
  let transformation = attack.transformation;
  const { constraints } = attack;
  const accepting = constraints.filter((c) => c.accepts);
  const batched = constraints.filter((c) => c.acceptsAll);
  const preFilter = (state: AttackState, found: WordCandidate[]): WordCandidate[] =>
    found.filter(
      (candidate) =>
        // A swap changes two words: the second must be editable too. A span's other words too.
        !(candidate.op === 'swap' && !isModifiable(constraints, state, candidate.wordIndex + 1, subject)) &&
        !spanBlocked(constraints, state, candidate, subject) &&
        isAllowed(constraints, state, candidate, subject),
    );
  const applied = (state: AttackState, found: WordCandidate[]): { candidate: WordCandidate; state: AttackState }[] =>
    preFilter(state, found)
      .map((candidate) => ({ candidate, state: applyCandidate(state, candidate, subject.field) }))
      .filter((x) => accepting.every((c) => c.accepts!(x.state, subject, state)));
  const syncOnly = (): void => {
    if (batched.length)
      throw new Error(
        `the constraint ${batched.map((c) => c.name).join(', ')} is asynchronous: attack ${attack.name} needs a search ` +
          `that awaits candidates (${attack.search.name} does not)`,
      );
  };
  const ctx: SearchContext = {
    subject,
    initial,
    rng,
    ...(isStandIn(initial.status) ? { worstCase: true } : {}),
    modifiable: (state, i) => isModifiable(constraints, state, i, subject),
    candidates: (state, indices) => {
      syncOnly();
      const pre = preFilter(state, transformation.candidates(state, indices, rng));
      return accepting.length
        ? pre.filter((c) => accepting.every((k) => k.accepts!(applyCandidate(state, c, subject.field), subject, state)))
        : pre;
    },
    apply: (state, candidate) => applyCandidate(state, candidate, subject.field),
    expand: (state: AttackState, indices) => {
      syncOnly();
      return applied(state, transformation.candidates(state, indices, rng));
    },
    expandAsync: async (state, indices) => {
      const found = transformation.candidatesAsync
        ? await transformation.candidatesAsync(state, indices, rng)
        : transformation.candidates(state, indices, rng);
      let out: Expanded[] = applied(state, found);
      for (const c of batched) {
        if (!out.length) break;
        const verdicts = await c.acceptsAll!(
          out.map((x) => x.state),
          subject,
          state,
        );
        out = out.flatMap((x, k) => {
          const v = verdicts[k]!;
          if (!v.ok) return [];
          return [v.similarity === undefined ? x : { ...x, similarity: Math.min(v.similarity, x.similarity ?? Infinity) }];
        });
      }
      return out;
    },
    evaluate: async (states) => {
      const outputs = await session.query(states.map((s) => subject.toInput(s.seq)));
      const scored = states.map((state, k) => ({ state, status: goal.evaluate(outputs[k]!, subject.fullOrigin(state.origin)) }));
      // Occluded copies (word importance) carry no edits: they are probes of the model, never a result.
      for (const s of scored) {
        if (s.state.edits.length === 0) continue;
        if (s.status.done ? !best.status.done : !best.status.done && s.status.score > best.status.score) best = s;
      }
      return scored;
    },
  };
  // The best state evaluated so far (goal reached first, then score): what a search cut short by the query budget ends on.
  let best: Scored = initial;

  // Skipped, with the first reason that applies: the attack cannot read it, the goal is already met (or cannot
  // be), or no word may be edited (a search would end where it started, counted as a failed attack).
  const skip = attack.skipReason?.(subject) ?? goal.skipReason(initial.status) ?? nothingToEdit(attack.constraints, initial.state, subject);
  let exhausted = false;
  if (!skip && transformation.prepare) transformation = await transformation.prepare(subject, rng);
  // Asking whether a word offers an edit costs a search nothing where the transformation draws no random numbers and
  // every constraint answers at once (see SearchContext.proposes).
  if (transformation.deterministic && !transformation.candidatesAsync && !batched.length)
    ctx.proposes = (state, i) => ctx.modifiable(state, i) && ctx.candidates(state, [i]).length > 0;
  const outcome = skip
    ? { final: initial, trace: [] }
    : await attack.search.search(ctx).catch((err: unknown) => {
        if (!(err instanceof QueryBudgetError)) throw err;
        exhausted = true;
        return { final: best, trace: [] };
      });
  const final = outcome.final;
  const numWords = subject.totalWords;
  // The share is of the words the attack could edit (the window of a capped text), as its edit budget is: 3 edits
  // in a 512-word window of a 20,000-word text are 0.6%, not 0.015%.
  const attackedWords = subject.original.length;
  // Each edit changes one word (a swap is recorded as two edits); searches never edit a word twice, but
  // after inserts/deletes the same wordIndex can name different words, so count edits, not indices.
  const perturbed = final.state.edits.length;
  return {
    id: example.id,
    source: example.source,
    status: skip ? 'skipped' : final.status.done ? 'succeeded' : 'failed',
    ...(skip ? { skip_reason: skip } : {}),
    gold: goldOf(example),
    field: subject.field,
    original: subject.fields(subject.original),
    perturbed: subject.fields(final.state.seq),
    original_prediction: initial.status.prediction,
    perturbed_prediction: final.status.prediction,
    original_correct: initial.status.correct,
    perturbed_correct: final.status.correct,
    edits: final.state.edits.slice(),
    num_words: numWords,
    words_perturbed: perturbed,
    perturbed_word_pct: attackedWords ? (100 * perturbed) / attackedWords : 0,
    ...(numWords > attackedWords ? { window_capped: true as const, attacked_words: attackedWords } : {}),
    ...(exhausted ? { query_budget_exhausted: true as const } : {}),
    ...resourceQueriesOf(attack, subject),
    queries: session.queries,
    requests: session.requests,
    cache_hits: session.cacheHits,
    trace: outcome.trace.map((s) => ({
      edits: s.state.edits.length,
      correct: s.status.correct,
      done: s.status.done,
      score: round(s.status.score),
      label: s.status.prediction.label,
    })),
  };
}

/** A span replacement (CheckList's "do not" → "don't") whose words after the first are not all editable. */
function spanBlocked(constraints: readonly Constraint[], state: AttackState, candidate: WordCandidate, subject: AttackSubject): boolean {
  const span = candidate.op === undefined || candidate.op === 'replace' ? (candidate.span ?? 1) : 1;
  for (let k = 1; k < span; k++) if (!isModifiable(constraints, state, candidate.wordIndex + k, subject)) return true;
  return false;
}

/** `{ resource_queries }` when the attack counts any for this example, else `{}`. */
function resourceQueriesOf(attack: Attack, subject: AttackSubject): { resource_queries?: Record<string, number> } {
  const counts = attack.resourceQueries?.(subject);
  return counts && Object.values(counts).some((n) => n > 0) ? { resource_queries: counts } : {};
}

/** The gold annotation of an example, as result records keep it. */
export function goldOf(example: Example): unknown {
  switch (example.kind) {
    case 'text':
    case 'pair':
      return example.label;
    case 'tokens':
      return example.tags;
    case 'qa':
      return example.answers;
  }
}

/** `{ perturbed_gold }` when rewriting `example` into `perturbed` moved its gold annotation (QA answer offsets), else `{}`. */
export function movedGold(example: Example, perturbed: Example): { perturbed_gold?: unknown } {
  const after = goldOf(perturbed);
  return JSON.stringify(after) === JSON.stringify(goldOf(example)) ? {} : { perturbed_gold: after };
}

function round(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}
