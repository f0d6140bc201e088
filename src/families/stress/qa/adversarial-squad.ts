/**
 * Scoring of Jia & Liang's adversarial SQuAD files (2017, "Adversarial Examples for Evaluating Reading
 * Comprehension Systems"): AddSent (`sample1k-HCVerifyAll.json`) and AddOneSent (`sample1k-HCVerifySample.json`).
 * Each file holds the original questions and adversarial copies whose id is the original id plus
 * `-high-conf-turkN` (same question and answers, one sentence added to the paragraph).
 *
 * The rule is the one of their official script (`evaluate-adversarial.py`, `evaluate_adversarial`):
 * - original EM/F1: the mean over the original questions of the answer to the original;
 * - adversarial EM/F1: per original question, the copy with the lowest F1 (the first one on a tie), and its
 *   EM taken from that same copy (not a separate minimum). The original itself is NOT in the minimum: once a
 *   question has a copy, the copies alone decide its adversarial score, even when a copy scores above the
 *   original. An original without copies keeps its own score as its adversarial score.
 * Departures, for inputs the official files never contain: a copy whose original is not in the input is
 * counted (`orphanCopies`, `orphanOriginals`) and left out of every mean (the script would score its missing
 * original as 0), and an original id seen twice is an error. Only the `-high-conf-turkN` suffix marks a copy
 * (the script cuts each id at its first "-", which is the same thing on SQuAD's hexadecimal ids).
 */
import type { QaExample } from '../../../data/types.ts';
import { bestOverGold } from '../../../data/answers.ts';
import { TextstressError } from '../../../util/errors.ts';

/** What marks an adversarial copy: the original id followed by this suffix. */
export const ADVERSARIAL_SQUAD_COPY_SUFFIX = /-high-conf-turk\d+$/;

/** The original question id an example belongs to, and whether the example is an adversarial copy. */
export function adversarialSquadOrigin(id: string): { originalId: string; isCopy: boolean } {
  const m = ADVERSARIAL_SQUAD_COPY_SUFFIX.exec(id);
  return m ? { originalId: id.slice(0, m.index), isCopy: true } : { originalId: id, isCopy: false };
}

/** Mean SQuAD exact match and F1, each 0–1. */
export interface EmF1 {
  em: number;
  f1: number;
}

/** Result of {@link scoreAdversarialSquad} / {@link AdversarialSquadTally.result}. */
export interface AdversarialSquadScores {
  /** Original questions in the input: the denominator of both means. */
  originals: number;
  /** Adversarial copies of those originals. */
  copies: number;
  /** Originals with no copy in the input: their adversarial score is their original score. */
  withoutCopies: number;
  /** Copies whose original question is not in the input: left out of every mean. */
  orphanCopies: number;
  /** Distinct missing original ids behind `orphanCopies`. */
  orphanOriginals: number;
  /** Mean EM/F1 of the answers to the originals; null when there is no original. */
  original: EmF1 | null;
  /** Mean over originals of the worst copy's EM/F1 (see the module comment); null when there is no original. */
  adversarial: EmF1 | null;
}

/** Running state of one original question: all that is kept per id. */
interface Entry {
  hasOriginal: boolean;
  em: number;
  f1: number;
  /** Copies seen so far; when > 0, advEm/advF1 come from the copy with the lowest F1. */
  copies: number;
  advEm: number;
  advF1: number;
}

/**
 * Accumulates answers one example at a time, in any order (copies may come before their original), keeping
 * only a running minimum per original question. Use it when the answers are already computed; use
 * {@link scoreAdversarialSquad} to have a model answer a stream of examples.
 */
export class AdversarialSquadTally {
  private readonly entries = new Map<string, Entry>();

  /** Scores `answer` (the model's best answer text) against the example's gold answers and records it. */
  add(example: QaExample, answer: string): void {
    const { em, f1 } = bestOverGold(
      answer,
      example.answers.map((a) => a.text),
    );
    const { originalId, isCopy } = adversarialSquadOrigin(example.id);
    let e = this.entries.get(originalId);
    if (!e) {
      e = { hasOriginal: false, em: 0, f1: 0, copies: 0, advEm: 0, advF1: 0 };
      this.entries.set(originalId, e);
    }
    if (!isCopy) {
      if (e.hasOriginal) {
        throw new TextstressError(`the question id ${JSON.stringify(example.id)} occurs twice.`, {
          ...(example.source !== undefined ? { where: example.source } : {}),
          hint: 'An adversarial SQuAD file holds each original question once; its copies end in -high-conf-turkN.',
        });
      }
      e.hasOriginal = true;
      e.em = em;
      e.f1 = f1;
    } else {
      // Strictly lower replaces, so the first of equally bad copies keeps its EM (as the official script).
      if (e.copies === 0 || f1 < e.advF1) {
        e.advEm = em;
        e.advF1 = f1;
      }
      e.copies++;
    }
  }

  /** The scores of everything added so far. */
  result(): AdversarialSquadScores {
    let originals = 0;
    let copies = 0;
    let withoutCopies = 0;
    let orphanCopies = 0;
    let orphanOriginals = 0;
    const sum = { em: 0, f1: 0, advEm: 0, advF1: 0 };
    for (const e of this.entries.values()) {
      if (!e.hasOriginal) {
        orphanOriginals++;
        orphanCopies += e.copies;
        continue;
      }
      originals++;
      copies += e.copies;
      sum.em += e.em;
      sum.f1 += e.f1;
      if (e.copies === 0) {
        withoutCopies++;
        sum.advEm += e.em;
        sum.advF1 += e.f1;
      } else {
        sum.advEm += e.advEm;
        sum.advF1 += e.advF1;
      }
    }
    const mean = (em: number, f1: number): EmF1 | null => (originals === 0 ? null : { em: em / originals, f1: f1 / originals });
    return {
      originals,
      copies,
      withoutCopies,
      orphanCopies,
      orphanOriginals,
      original: mean(sum.em, sum.f1),
      adversarial: mean(sum.advEm, sum.advF1),
    };
  }
}

/** The model's best answer text for each example of a batch, in order. */
export type QaAnswerer = (batch: readonly QaExample[]) => Promise<readonly string[]>;

/** Options of {@link scoreAdversarialSquad}. */
export interface AdversarialSquadOptions {
  /** Examples per call to the answerer (default 32). */
  batchSize?: number;
}

/**
 * Streams the examples of an adversarial SQuAD file (e.g. `(await loadSquad(path)).examples()`) through the
 * answerer in batches and scores original vs adversarial EM/F1 as Jia & Liang's official script does. Memory is
 * one batch plus one small record per original question.
 */
export async function scoreAdversarialSquad(
  examples: AsyncIterable<QaExample> | Iterable<QaExample>,
  answer: QaAnswerer,
  opts: AdversarialSquadOptions = {},
): Promise<AdversarialSquadScores> {
  const size = opts.batchSize ?? 32;
  if (!Number.isInteger(size) || size < 1) {
    throw new TextstressError(`batchSize must be a positive integer, got ${size}.`, { where: 'scoreAdversarialSquad' });
  }
  const tally = new AdversarialSquadTally();
  let batch: QaExample[] = [];
  const flush = async (): Promise<void> => {
    if (batch.length === 0) return;
    const answers = await answer(batch);
    if (answers.length !== batch.length) {
      throw new TextstressError(`the answerer returned ${answers.length} answers for a batch of ${batch.length} questions.`, {
        where: batch[0]!.source ?? batch[0]!.id,
        hint: 'It must return one answer text per question, in order.',
      });
    }
    batch.forEach((e, i) => tally.add(e, answers[i]!));
    batch = [];
  };
  for await (const e of examples) {
    batch.push(e);
    if (batch.length >= size) await flush();
  }
  await flush();
  return tally.result();
}
