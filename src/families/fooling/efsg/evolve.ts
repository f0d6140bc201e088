/**
 * EFSG's genetic operators on fixed-length word sequences. Pure: every random choice comes from the Rng passed in.
 *  - initialisation: one random sentence of L draws from D_task, mutated N times (N mutants of one ancestor);
 *  - mutation: one uniformly chosen position gets a new draw from D_task (length never changes; a draw equal to
 *    the word already there is drawn again, so exactly one position changes whenever D_task has two words);
 *  - crossover: each position from parent 1 or parent 2 with probability ½;
 *  - selection: parents drawn with probability score / Σ score (uniform when every score is 0).
 */
import type { Rng } from '../../../util/rng.ts';
import { drawIndex, drawWord, type Vocabulary } from './vocabulary.ts';

export type Sentence = string[];

/** Redraws before giving up on finding a different word (only reachable with a one-word vocabulary). */
const MAX_REDRAWS = 64;

export function randomSentence(vocab: Vocabulary, length: number, rng: Rng): Sentence {
  return Array.from({ length }, () => drawWord(vocab, rng));
}

/** A copy with one uniformly chosen position replaced by a different draw from D_task. */
export function mutate(sentence: readonly string[], vocab: Vocabulary, rng: Rng): Sentence {
  const out = sentence.slice();
  const at = rng.int(out.length);
  let word = drawWord(vocab, rng);
  for (let i = 0; word === out[at] && i < MAX_REDRAWS; i++) word = drawWord(vocab, rng);
  out[at] = word;
  return out;
}

/** Uniform crossover: each position from `a` or `b` with probability ½ (the parents have the same length). */
export function crossover(a: readonly string[], b: readonly string[], rng: Rng): Sentence {
  return a.map((w, i) => (rng.next() < 0.5 ? w : b[i]!));
}

/** The initial population: N mutants of one random sentence. */
export function initPopulation(vocab: Vocabulary, size: number, length: number, rng: Rng): Sentence[] {
  const ancestor = randomSentence(vocab, length, rng);
  return Array.from({ length: size }, () => mutate(ancestor, vocab, rng));
}

/** Draws parent indices in proportion to the scores (normalised by their sum). */
export class ParentSelector {
  private readonly cumulative: number[] = [];
  private readonly total: number;

  constructor(scores: readonly number[]) {
    let total = 0;
    for (const s of scores) this.cumulative.push((total += Math.max(0, s)));
    this.total = total;
  }

  draw(rng: Rng): number {
    if (this.total <= 0) return rng.int(this.cumulative.length);
    return drawIndex(this.cumulative, this.total, rng);
  }
}

/** The next population: N children, each from two selected parents (crossover, then mutation) or, without crossover, one. */
export function nextGeneration(
  population: readonly Sentence[],
  scores: readonly number[],
  vocab: Vocabulary,
  withCrossover: boolean,
  rng: Rng,
): Sentence[] {
  const select = new ParentSelector(scores);
  return population.map(() => {
    const first = population[select.draw(rng)]!;
    const child = withCrossover ? crossover(first, population[select.draw(rng)]!, rng) : first;
    return mutate(child, vocab, rng);
  });
}
