/**
 * Adversarial SQuAD scoring (Jia & Liang 2017) against hand-computed values, and on the committed AddSent /
 * AddOneSent slices with a deterministic fake answerer whose expected scores were computed with the rule of
 * the official evaluate-adversarial.py (per original: the copy with the lowest F1, original not in the minimum).
 */
import { describe, expect, it } from 'vitest';
import { loadSquad, type QaExample } from '../../../src/data/index.ts';
import { adversarialSquadOrigin, AdversarialSquadTally, scoreAdversarialSquad } from '../../../src/families/stress/qa/index.ts';
import { TextstressError } from '../../../src/util/errors.ts';
import { fixtureData as data } from '../../cli/helpers.ts';

const qa = (id: string, ...golds: string[]): QaExample => ({
  kind: 'qa',
  id,
  source: `hand:${id}`,
  question: 'q?',
  context: golds.join(' '),
  answers: golds.map((text) => ({ text, start: 0 })),
});

const T = '-high-conf-turk';
// Gold answers and the fake model's answer per id (EM, F1 worked out by hand in the comments).
const HAND: [QaExample, string][] = [
  [qa('A', 'Denver Broncos'), 'Denver Broncos'], // 1, 1
  [qa(`A${T}0`, 'Denver Broncos'), 'the Broncos'], // 0, 2/3  ← A's worst copy
  [qa(`A${T}1`, 'Denver Broncos'), 'Broncos Denver'], // 0, 1
  [qa(`A${T}2`, 'Denver Broncos'), 'Denver Broncos'], // 1, 1
  [qa(`B${T}0`, 'Paris', 'the city of Paris'), 'city Paris of'], // 0, 1 (copy before its original) ← first of the tie
  [qa('B', 'Paris', 'the city of Paris'), 'Lyon'], // 0, 0: lower than every copy, yet not in B's minimum
  [qa(`B${T}1`, 'Paris', 'the city of Paris'), 'paris!'], // 1, 1: ties on F1, the first copy keeps its EM
  [qa('C', 'in 1997'), '1997'], // 0, 2/3, no copy: adversarial = original
  [qa(`D${T}0`, 'x'), 'x'], // no original D: counted, left out
  [qa(`D${T}1`, 'x'), 'y'],
];

const HAND_SCORES = {
  originals: 3,
  copies: 5,
  withoutCopies: 1,
  orphanCopies: 2,
  orphanOriginals: 1,
  original: { em: 1 / 3, f1: (1 + 0 + 2 / 3) / 3 },
  adversarial: { em: 0, f1: (2 / 3 + 1 + 2 / 3) / 3 },
};

const fromTable = (table: [QaExample, string][]) => {
  const byId = new Map(table.map(([e, a]) => [e.id, a]));
  return async (batch: readonly QaExample[]): Promise<string[]> => batch.map((e) => byId.get(e.id)!);
};

describe('adversarial SQuAD scoring', () => {
  it('ids: only a -high-conf-turkN suffix marks a copy', () => {
    expect(adversarialSquadOrigin('56be4db0acb8001400a502ee-high-conf-turk12')).toEqual({
      originalId: '56be4db0acb8001400a502ee',
      isCopy: true,
    });
    expect(adversarialSquadOrigin('56be4db0acb8001400a502ee')).toEqual({ originalId: '56be4db0acb8001400a502ee', isCopy: false });
    expect(adversarialSquadOrigin('a-b-high-conf-turk')).toEqual({ originalId: 'a-b-high-conf-turk', isCopy: false });
  });

  it('hand-made: original vs worst-copy EM/F1, originals without copies, orphan copies, batches of 3', async () => {
    const sizes: number[] = [];
    const answer = fromTable(HAND);
    const scores = await scoreAdversarialSquad(
      HAND.map(([e]) => e),
      async (batch) => {
        sizes.push(batch.length);
        return answer(batch);
      },
      { batchSize: 3 },
    );
    expect(sizes).toEqual([3, 3, 3, 1]);
    expect(scores).toEqual(HAND_SCORES);
  });

  it('the tally gives the same from answers already computed, and null means over zero originals', () => {
    const tally = new AdversarialSquadTally();
    for (const [e, a] of HAND) tally.add(e, a);
    expect(tally.result()).toEqual(HAND_SCORES);
    const orphans = new AdversarialSquadTally();
    orphans.add(HAND[8]![0], 'x');
    expect(orphans.result()).toEqual({
      originals: 0,
      copies: 0,
      withoutCopies: 0,
      orphanCopies: 1,
      orphanOriginals: 1,
      original: null,
      adversarial: null,
    });
  });

  it('an original id seen twice, or an answerer returning the wrong number of answers, is a TextstressError', async () => {
    const tally = new AdversarialSquadTally();
    tally.add(qa('A', 'x'), 'x');
    expect(() => tally.add(qa('A', 'x'), 'x')).toThrow(TextstressError);
    expect(() => tally.add(qa('A', 'x'), 'x')).toThrow('the question id "A" occurs twice.');
    await expect(scoreAdversarialSquad([qa('A', 'x'), qa('B', 'y')], async () => ['x'])).rejects.toThrow(
      'the answerer returned 1 answers for a batch of 2 questions.',
    );
    await expect(scoreAdversarialSquad([], async () => [], { batchSize: 0 })).rejects.toThrow(
      'batchSize must be a positive integer, got 0.',
    );
  });

  // Originals: the first gold answer when the id's last hex digit is even, else a wrong word. Copy turkN: the
  // first gold answer when N is even, else its first word plus a wrong word (partial F1, EM 0).
  const fake = async (batch: readonly QaExample[]): Promise<string[]> =>
    batch.map((e) => {
      const gold = e.answers[0]!.text;
      const n = /-high-conf-turk(\d+)$/.exec(e.id);
      if (!n) return parseInt(e.id.at(-1)!, 16) % 2 === 0 ? gold : 'zzzq';
      return Number(n[1]) % 2 === 0 ? gold : `${gold.split(' ')[0]} zzzq`;
    });

  it.each([
    // [file, copies, original EM, F1, adversarial EM, F1] from the official script's rule run over the same files
    ['sample1k-HCVerifyAll.json', 48, 7 / 12, 7 / 12, 0, 0.6027777777777779],
    ['sample1k-HCVerifySample.json', 12, 7 / 12, 7 / 12, 5 / 12, 0.7416666666666667],
  ])('%s: a deterministic fake answerer scores as the official rule', async (file, copies, em, f1, advEm, advF1) => {
    const ds = await loadSquad(data(`adversarial-squad/${file}`));
    const s = await scoreAdversarialSquad(ds.examples(), fake, { batchSize: 7 });
    expect({ ...s, original: null, adversarial: null }).toEqual({
      originals: 12,
      copies,
      withoutCopies: 0,
      orphanCopies: 0,
      orphanOriginals: 0,
      original: null,
      adversarial: null,
    });
    expect(s.original!.em).toBeCloseTo(em, 12);
    expect(s.original!.f1).toBeCloseTo(f1, 12);
    expect(s.adversarial!.em).toBeCloseTo(advEm, 12);
    expect(s.adversarial!.f1).toBeCloseTo(advF1, 12);
  });
});
