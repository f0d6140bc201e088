/**
 * AddAny and AddCommon (Jia & Liang 2017, "Adversarial Examples for Evaluating Reading Comprehension Systems",
 * §3.3): a distractor of d words appended to the paragraph, chosen word by word to make the model's answer miss
 * the gold answers. Only the model's answers are used (black box): every candidate distractor is a model query.
 *
 * Our reading of the paper, checked against their code (`src/py/adversarial_squad.py`, modes `basic` =
 * AddCommon and `add-question-words` = AddAny, `-n 10 -k 20 -T 3 -p 1,5`):
 * - The distractor is d = 10 words drawn at random (without repeats) from the common words, joined by spaces
 *   with a full stop added, appended after a space: context + " " + "w1 … w10." Text is only appended, so every
 *   gold answer keeps its offset. Both variants start from the same words for the same seed.
 * - Local search, one round ("epoch") after another; each round visits every position once, in an order
 *   shuffled per round (their code shuffles; `order: 'left-to-right'` visits 1…d instead). At position i the
 *   candidates are 20 common words sampled without repeats, plus, for AddAny, every word of the question
 *   (lower-cased, each once, added when not already sampled). Each candidate replaces word i, and all of them go
 *   to the model as one batch (one `session.query`, so one model call per step, or one shared call for all
 *   questions in flight with cross-example batching).
 * - What is minimised: the paper minimises the expected F1 over the model's answer distribution (a 10-span beam,
 *   probabilities renormalised). We minimise first the F1 of the model's best answer (the score that is
 *   reported), and among equal F1 the expected F1 over the spans the adapter returns, weighted by their scores
 *   and renormalised (uniform when the scores sum to 0); so with one span per answer the tie-break is that span's
 *   F1 again. Word i changes only when the best candidate is strictly lower than the current distractor on
 *   (F1, expected F1), as in their code; among equal candidates the first in candidate order wins. Deterministic.
 * - Early stop: the paper "returns immediately if the model's argmax prediction has 0 F1", and their code checks
 *   it before every step. `stopAtZero` (default true) does that; false spends the whole budget.
 * - Budget: the issue asks for 6 rounds of one distractor. The paper runs 3 rounds, then, for questions not yet
 *   at F1 = 0, 4 more random distractors beside the current one and 3 more rounds over all 5 (`-p 1,5`). Those
 *   restarts are left out here: 6 rounds of one distractor, so a question costs at most
 *   2 + rounds · d · (20 + question words) queries (1 clean paragraph + 1 initial distractor, sent together, then
 *   one batch per step); AddCommon at most 2 + 6 · 10 · 20 = 1,202.
 * - Common words: see common-words.ts (SUBTLEX-US top 1000, where the paper used the Brown corpus).
 *
 * A context with no words, or a question with no gold answer, is a counted skip (status "skipped", with the
 * reason, no query), as the attacks skip such examples; an answer not at its offset is an error naming the
 * example, as in the noise test.
 */
import { bestOverGold } from '../../../data/answers.ts';
import { rewriteExample } from '../../../data/rewrite.ts';
import type { Example, QaExample } from '../../../data/types.ts';
import { asSpans } from '../../../core/goals/types.ts';
import type { ModelOutput } from '../../../models/types.ts';
import type { QuerySession } from '../../../query/engine.ts';
import type { Edit } from '../../../text/edits.ts';
import { WordSeq } from '../../../text/word-seq.ts';
import { TextstressError } from '../../../util/errors.ts';
import { Rng } from '../../../util/rng.ts';
import { checkAnswerOffsets } from './checks.ts';
import { commonWords } from './common-words.ts';

/** AddAny draws candidates from the common words and the question's words; AddCommon from the common words only. */
export const ADD_ANY_VARIANTS = ['addany', 'addcommon'] as const;
/** One of {@link ADD_ANY_VARIANTS}. */
export type AddAnyVariant = (typeof ADD_ANY_VARIANTS)[number];

/** Options of {@link addAnyExample}; the defaults are the paper's. */
export interface AddAnyOptions {
  variant: AddAnyVariant;
  /** Seed of the random choices (default 0), mixed with the example id: an example's result depends on nothing else. */
  seed?: number;
  /** Words in the distractor, d (default 10). */
  words?: number;
  /** Rounds of local search, each visiting every position once (default 6). */
  rounds?: number;
  /** Common words sampled as candidates per step (default 20). */
  candidates?: number;
  /** Stop a question as soon as its answer's F1 is 0 (default true, as the paper). */
  stopAtZero?: boolean;
  /** Position order within a round: shuffled per round (default, as their code) or 1…d. */
  order?: 'shuffled' | 'left-to-right';
  /** The pool of common words (default {@link commonWords}: 1,000 words); each a single word. */
  commonWords?: readonly string[];
}

/** The model's answer to one version of the paragraph, scored against the gold answers. */
export interface AnswerScore {
  /** The best span's text ('' when the model gave none). */
  answer: string;
  /** SQuAD exact match and F1 of `answer`, best over the gold answers (0–1). */
  em: number;
  f1: number;
  /** F1 averaged over the returned spans by their scores (the tie-break). */
  expectedF1: number;
}

/** The state after one round (or after the steps run of a round cut short by the early stop). */
export interface AddAnyRound {
  /** 1-based. */
  round: number;
  /** Steps (positions visited, one model batch each) in this round. */
  steps: number;
  distractor: string[];
  score: AnswerScore;
  /** Distinct queries of the question so far, the clean one included. */
  queries: number;
}

/** A question the generator worked on. */
export interface AddAnyResult {
  status: 'attacked';
  id: string;
  source?: string;
  variant: AddAnyVariant;
  /** The example with the distractor appended to its context; answers (texts and offsets) unchanged. */
  example: QaExample;
  /** The insertion, as a typed, positioned edit (`distraction:addany` / `distraction:addcommon`). */
  edits: Edit[];
  /** The final distractor's words and the sentence appended (words joined by spaces, with a full stop). */
  distractor: string[];
  sentence: string;
  /** The answer on the original paragraph, with the initial random distractor, and with the final one. */
  clean: AnswerScore;
  initial: AnswerScore;
  attacked: AnswerScore;
  /** Rounds begun and steps run (each step is one model batch of candidates). */
  rounds: number;
  steps: number;
  /** The search stopped at F1 = 0 before spending its budget. */
  stoppedEarly: boolean;
  /** Distinct inputs asked for (model queries), all requests, and requests for inputs asked before. */
  queries: number;
  requests: number;
  cacheHits: number;
  trace: AddAnyRound[];
}

/** What the search asks the model through: the engine's session, or a session on a source model (transfer.ts). */
export type AddAnySession = Pick<QuerySession, 'query' | 'queries' | 'requests' | 'cacheHits'>;

/** A question left out, with the reason; counted, never scored. */
export interface AddAnySkipped {
  status: 'skipped';
  id: string;
  source?: string;
  variant: AddAnyVariant;
  skipReason: string;
}

/** What {@link addAnyExample} returns for one question. */
export type AddAnyOutcome = AddAnyResult | AddAnySkipped;

/** Options with their defaults applied and checked. */
type Settings = Required<Omit<AddAnyOptions, 'commonWords'>> & { pool: readonly string[] };

/** Why the generator cannot work on the example, or undefined. */
export function addAnySkipReason(example: QaExample): string | undefined {
  if (WordSeq.parse(example.context).length === 0) return 'the context has no words';
  if (example.answers.length === 0) return 'the question has no gold answer';
  return undefined;
}

/** The sentence a distractor becomes: its words joined by spaces, with a full stop. */
export function distractorSentence(words: readonly string[]): string {
  return `${words.join(' ')}.`;
}

/** The context with the distractor appended after a space (gold answers keep their offsets). */
export function withDistractor(context: string, words: readonly string[]): string {
  return `${context} ${distractorSentence(words)}`;
}

/** The question's words as AddAny adds them to every step's candidates: lower-cased, each once, in order. */
export function questionWords(question: string): string[] {
  return [...new Set(WordSeq.parse(question).words.map((w) => w.toLowerCase()))];
}

/**
 * The candidate words of one step: `k` common words sampled without repeats, then (AddAny) the question's words
 * not among them. Draws from `rng`.
 */
export function stepCandidates(rng: Rng, pool: readonly string[], k: number, extra: readonly string[]): string[] {
  const out = rng.sample(pool, k);
  const have = new Set(out);
  for (const w of extra) if (!have.has(w)) out.push(w);
  return out;
}

/**
 * Runs AddAny or AddCommon on one question, every model query through `session` (one engine session per
 * question, so its counts are its own). Questions run at the same time on one engine share model batches.
 */
export async function addAnyExample(example: Example, session: AddAnySession, opts: AddAnyOptions): Promise<AddAnyOutcome> {
  const s = settings(opts);
  if (example.kind !== 'qa') {
    throw new TextstressError(`AddAny/AddCommon need question-answering examples, got a ${example.kind} example.`, {
      where: example.source ?? example.id,
    });
  }
  checkAnswerOffsets(example, `the ${s.variant === 'addany' ? 'AddAny' : 'AddCommon'} test`);
  const head = { id: example.id, ...(example.source !== undefined ? { source: example.source } : {}), variant: s.variant };
  const skipReason = addAnySkipReason(example);
  if (skipReason) return { status: 'skipped', ...head, skipReason };

  const golds = example.answers.map((a) => a.text);
  const extra = s.variant === 'addany' ? questionWords(example.question) : [];
  const rng = Rng.derive(s.seed, example.id, 'add-any');
  const ask = async (distractors: readonly (readonly string[] | null)[]): Promise<AnswerScore[]> => {
    const inputs = distractors.map((d) => ({
      kind: 'qa' as const,
      question: example.question,
      context: d ? withDistractor(example.context, d) : example.context,
    }));
    return (await session.query(inputs)).map((out) => scoreAnswer(out, golds));
  };

  let words = rng.sample(s.pool, s.words);
  const [clean, initial] = (await ask([null, words])) as [AnswerScore, AnswerScore];
  let current = initial;
  const done = (): boolean => s.stopAtZero && current.f1 === 0;
  const trace: AddAnyRound[] = [];
  let steps = 0;
  for (let round = 1; round <= s.rounds && !done(); round++) {
    const positions = Array.from({ length: s.words }, (_, i) => i);
    const order = s.order === 'shuffled' ? rng.shuffle(positions) : positions;
    let roundSteps = 0;
    for (const i of order) {
      if (done()) break;
      const cands = stepCandidates(rng, s.pool, s.candidates, extra).map((w) => words.map((x, j) => (j === i ? w : x)));
      const scores = await ask(cands);
      let best = 0;
      for (let c = 1; c < scores.length; c++) if (lower(scores[c]!, scores[best]!)) best = c;
      if (lower(scores[best]!, current)) {
        words = cands[best]!;
        current = scores[best]!;
      }
      roundSteps++;
    }
    steps += roundSteps;
    trace.push({ round, steps: roundSteps, distractor: words.slice(), score: current, queries: session.queries });
  }

  const sentence = distractorSentence(words);
  const { example: attacked, edits } = rewriteExample(example, [
    {
      field: 'context',
      start: example.context.length,
      end: example.context.length,
      text: ` ${sentence}`,
      type: `distraction:${s.variant}`,
    },
  ]);
  return {
    status: 'attacked',
    ...head,
    example: attacked as QaExample,
    edits,
    distractor: words,
    sentence,
    clean,
    initial,
    attacked: current,
    rounds: trace.length,
    steps,
    stoppedEarly: done() && steps < s.rounds * s.words,
    queries: session.queries,
    requests: session.requests,
    cacheHits: session.cacheHits,
    trace,
  };
}

/** The model's best answer scored against the gold answers, and the score-weighted F1 over all its spans. */
export function scoreAnswer(output: ModelOutput, golds: readonly string[]): AnswerScore {
  const spans = asSpans(output).spans;
  const best = spans[0]?.text ?? '';
  const { em, f1 } = bestOverGold(best, golds);
  const total = spans.reduce((n, sp) => n + Math.max(0, sp.score), 0);
  let expectedF1 = 0;
  for (const sp of spans) {
    const w = total > 0 ? Math.max(0, sp.score) / total : 1 / spans.length;
    expectedF1 += w * (sp === spans[0] ? f1 : bestOverGold(sp.text, golds).f1);
  }
  return { answer: best, em, f1, expectedF1 };
}

/** Strictly better for the adversary: lower F1, or equal F1 and lower expected F1. */
function lower(a: AnswerScore, b: AnswerScore): boolean {
  return a.f1 < b.f1 || (a.f1 === b.f1 && a.expectedF1 < b.expectedF1);
}

function settings(opts: AddAnyOptions): Settings {
  if (!(ADD_ANY_VARIANTS as readonly string[]).includes(opts.variant)) {
    throw new TextstressError(`unknown variant ${JSON.stringify(opts.variant)}.`, {
      where: 'AddAny options',
      hint: `One of ${ADD_ANY_VARIANTS.join(', ')}.`,
    });
  }
  const s: Settings = {
    variant: opts.variant,
    seed: opts.seed ?? 0,
    words: opts.words ?? 10,
    rounds: opts.rounds ?? 6,
    candidates: opts.candidates ?? 20,
    stopAtZero: opts.stopAtZero ?? true,
    order: opts.order ?? 'shuffled',
    pool: opts.commonWords ?? commonWords(),
  };
  for (const [name, value, min] of [
    ['words', s.words, 1],
    ['rounds', s.rounds, 0],
    ['candidates', s.candidates, 1],
  ] as const) {
    if (!Number.isInteger(value) || value < min) {
      throw new TextstressError(`${name} must be an integer of at least ${min}, got ${value}.`, { where: 'AddAny options' });
    }
  }
  if (s.order !== 'shuffled' && s.order !== 'left-to-right') {
    throw new TextstressError(`order must be "shuffled" or "left-to-right", got ${JSON.stringify(s.order)}.`, { where: 'AddAny options' });
  }
  if (opts.commonWords) checkPool(opts.commonWords, Math.max(s.words, s.candidates));
  return s;
}

/** A pool given by the caller: distinct single words, enough of them for a distractor and a step's sample. */
function checkPool(pool: readonly string[], needed: number): void {
  const bad = pool.find((w) => {
    const words = WordSeq.parse(w).words;
    return words.length !== 1 || words[0] !== w;
  });
  if (bad !== undefined) {
    throw new TextstressError(`the common word ${JSON.stringify(bad)} is not one word.`, {
      where: 'AddAny options',
      hint: 'Give words of letters and digits only, one per entry.',
    });
  }
  if (new Set(pool).size !== pool.length || pool.length < needed) {
    throw new TextstressError(
      `the common words must be distinct and at least ${needed} (the larger of words and candidates), got ${pool.length} (${new Set(pool).size} distinct).`,
      {
        where: 'AddAny options',
      },
    );
  }
}
