/**
 * The loader checks on real data files, written once: test/data/real-data.test.ts runs them on the committed
 * slices (`npm test`), test/full-data/real-data.data.test.ts on the whole files (`npm run test:data`). Only the
 * counts differ; each file adds what is particular to its data.
 */
import { describe, expect, it } from 'vitest';
import {
  collect,
  entitySpans,
  loadSick,
  openDataset,
  type Dataset,
  type Example,
  type PairExample,
  type QaExample,
  type TextExample,
  type TokenExample,
} from '../../src/data/index.ts';

export interface RealDataCounts {
  sst2Dev: number;
  mrpcDev: number;
  colaDev: number;
  qnliDev: number;
  sick: { train: number; test: number; trial: number; all: number };
  squadDev: number;
  /** [questions, adversarial copies] */
  addSent: [number, number];
  addOneSent: [number, number];
}

export async function all<E extends Example>(ds: Promise<Dataset<E>> | Dataset<E>): Promise<E[]> {
  return collect(await ds);
}

const COPY = /-high-conf-turk\d+$/;

/** Registers the shared loader checks over the files `data(rel)` names. */
export function realDataChecks(data: (rel: string) => string, counts: RealDataCounts): void {
  describe('GLUE TSV loaders', () => {
    it(`SST-2 dev: ${counts.sst2Dev} sentences, first sentence and label, labels named`, async () => {
      const ds = await openDataset(data('sst2/dev.tsv'));
      expect(ds.info).toMatchObject({ name: 'sst2', kind: 'text', labelNames: ['negative', 'positive'] });
      const ex = (await collect(ds)) as TextExample[];
      expect(ex).toHaveLength(counts.sst2Dev);
      expect(ex[0]).toEqual({
        kind: 'text',
        id: 'dev.tsv:2',
        source: `${data('sst2/dev.tsv')}:2`,
        text: "it 's a charming and often affecting journey .", // the file's trailing space is stripped
        label: 'positive',
      });
      expect(ex[1]!.label).toBe('negative');
      expect(ex.at(-1)!.id).toBe(`dev.tsv:${counts.sst2Dev + 1}`);
      expect(new Set(ex.map((e) => e.label))).toEqual(new Set(['negative', 'positive']));
      expect(ds.skipped).toEqual([]);
    });

    it('SST-2 limit stops early', async () => {
      const ex = await all(openDataset(data('sst2/train.tsv'), { limit: 5 }));
      expect(ex.map((e) => e.id)).toEqual(['train.tsv:2', 'train.tsv:3', 'train.tsv:4', 'train.tsv:5', 'train.tsv:6']);
    });

    it(`MRPC dev (file starts with a BOM): ${counts.mrpcDev} pairs, first label parses, id = "#1 ID-#2 ID"`, async () => {
      const ds = await openDataset(data('mrpc/dev.tsv'));
      expect(ds.info).toMatchObject({ name: 'mrpc', kind: 'pair', labelNames: ['not_equivalent', 'equivalent'] });
      const ex = (await collect(ds)) as PairExample[];
      expect(ex).toHaveLength(counts.mrpcDev);
      expect(ex[0]).toMatchObject({
        id: '1355540-1355592',
        label: 'equivalent',
        textA: "He said the foodservice pie business doesn't fit the company's long-term growth strategy.",
        // an unbalanced quote that is text, not CSV quoting
        textB: '"The foodservice pie business does not fit our long-term growth strategy.',
      });
      expect(ex[1]!.label).toBe('not_equivalent');
      expect(ds.skipped).toEqual([]);
    });

    it(`CoLA dev (no header): ${counts.colaDev} sentences`, async () => {
      const ds = await openDataset(data('cola/dev.tsv'));
      expect(ds.info.name).toBe('cola');
      const ex = (await collect(ds)) as TextExample[];
      expect(ex).toHaveLength(counts.colaDev);
      expect(ex[0]).toMatchObject({ id: 'dev.tsv:1', text: 'The sailors rode the breeze clear of the rocks.', label: 'acceptable' });
      expect(ex[4]).toMatchObject({ text: 'As you eat the most, you want the least.', label: 'unacceptable' });
    });

    it(`QNLI dev: ${counts.qnliDev} pairs, textA = question, textB = sentence, id = index`, async () => {
      const ds = await openDataset(data('qnli/dev.tsv'));
      expect(ds.info).toMatchObject({ name: 'qnli', labelNames: ['entailment', 'not_entailment'] });
      const ex = (await collect(ds)) as PairExample[];
      expect(ex).toHaveLength(counts.qnliDev);
      expect(ex[0]).toMatchObject({
        id: '0',
        textA: 'What came into force after the new constitution was herald?',
        textB: 'As of that day, the new constitution heralding the Second Republic came into force.',
        label: 'entailment',
      });
      expect(ex[1]!.label).toBe('not_entailment');
      expect(ex.at(-1)!.id).toBe(String(counts.qnliDev - 1));
    });

    it('unlabelled GLUE test files are refused with a clear message', async () => {
      await expect(openDataset(data('qnli/test.tsv'))).rejects.toThrow(/no label column/);
      await expect(openDataset(data('mrpc/test.tsv'))).rejects.toThrow(/no label column/);
      await expect(openDataset(data('cola/test.tsv'))).rejects.toThrow(/no label column/);
    });
  });

  describe('SICK (CRLF line ends)', () => {
    const { train: nTrain, test: nTest, trial: nTrial, all: nAll } = counts.sick;
    it(`splits TRAIN ${nTrain}, TRIAL ${nTrial}, TEST ${nTest} from the SemEval_set column (any case); labels lower-cased; id = pair_ID`, async () => {
      const train = (await all(openDataset(data('sick/SICK.txt'), { split: 'TRAIN' }))) as PairExample[];
      expect(train).toHaveLength(nTrain);
      expect(train[0]).toMatchObject({
        id: '1',
        textA: 'A group of kids is playing in a yard and an old man is standing in the background',
        textB: 'A group of boys in a yard is playing and a man is standing in the background',
        label: 'neutral',
      });
      expect(new Set(train.map((e) => e.label))).toEqual(new Set(['entailment', 'neutral', 'contradiction']));
      // CRLF line ends do not leak into the last column (split names) or texts.
      expect(train.every((e) => !e.textB.endsWith('\r'))).toBe(true);
      expect(await all(loadSick(data('sick/SICK.txt'), { split: 'test' }))).toHaveLength(nTest);
      expect(await all(loadSick(data('sick/SICK.txt'), { split: 'TRIAL' }))).toHaveLength(nTrial);
      const ds = await loadSick(data('sick/SICK.txt'));
      expect(ds.info.labelNames).toEqual(['entailment', 'neutral', 'contradiction']);
      expect(await collect(ds)).toHaveLength(nAll);
    });

    it('an unknown split is refused', async () => {
      await expect(loadSick(data('sick/SICK.txt'), { split: 'validate' })).rejects.toThrow(/unknown SICK split "validate"/);
    });
  });

  describe('SQuAD v1.1', () => {
    it(`dev: ${counts.squadDev} questions, id = question id, every answer at its start offset`, async () => {
      const ds = await openDataset(data('squad-v1.1/dev-v1.1.json'));
      expect(ds.info).toMatchObject({ name: 'squad', kind: 'qa' });
      const ex = (await collect(ds)) as QaExample[];
      expect(ex).toHaveLength(counts.squadDev);
      expect(new Set(ex.map((e) => e.id)).size).toBe(counts.squadDev);
      const first = ex[0]!;
      expect(first).toMatchObject({
        id: '56be4db0acb8001400a502ec',
        question: 'Which NFL team represented the AFC at Super Bowl 50?',
        title: 'Super_Bowl_50',
        answers: [
          { text: 'Denver Broncos', start: 177 },
          { text: 'Denver Broncos', start: 177 },
          { text: 'Denver Broncos', start: 177 },
        ],
      });
      for (const e of ex) for (const a of e.answers) expect(e.context.slice(a.start, a.start + a.text.length), e.id).toBe(a.text);
    });

    it(
      `adversarial SQuAD: AddSent ${counts.addSent.join('/')}, AddOneSent ${counts.addOneSent.join('/')} ` +
        `(questions/copies); each copy is its original plus one added sentence`,
      async () => {
        const addSent = (await all(openDataset(data('adversarial-squad/sample1k-HCVerifyAll.json')))) as QaExample[];
        const addOneSent = (await all(openDataset(data('adversarial-squad/sample1k-HCVerifySample.json')))) as QaExample[];
        const copies = (set: QaExample[]): QaExample[] => set.filter((e) => COPY.test(e.id));
        expect([addSent.length, copies(addSent).length]).toEqual(counts.addSent);
        expect([addOneSent.length, copies(addOneSent).length]).toEqual(counts.addOneSent);
        // A copy asks its original's question, with the same answers, over the original paragraph plus one
        // distractor at its end (Jia & Liang 2017).
        for (const set of [addSent, addOneSent]) {
          const byId = new Map(set.map((e) => [e.id, e]));
          for (const e of copies(set)) {
            const original = byId.get(e.id.replace(COPY, ''));
            expect(original, e.id).toBeDefined();
            expect({ question: e.question, answers: e.answers }, e.id).toEqual({
              question: original!.question,
              answers: original!.answers,
            });
            expect(e.context.startsWith(original!.context) && e.context.length > original!.context.length, e.id).toBe(true);
          }
        }
      },
    );
  });
}

/** What is wrong with tagged sentences as IOB2 (empty when nothing), and their entities counted by type. */
export function iob2Problems(ex: readonly TokenExample[]): { problems: string[]; types: Record<string, number> } {
  const problems: string[] = [];
  const types: Record<string, number> = {};
  for (const e of ex) {
    if (e.tags.length !== e.tokens.length) problems.push(`${e.id}: ${e.tags.length} tags for ${e.tokens.length} tokens`);
    if (e.tokens.includes('-DOCSTART-')) problems.push(`${e.id}: -DOCSTART- kept`);
    for (let i = 0; i < e.tags.length; i++) {
      const tag = e.tags[i]!;
      // IOB2: an I- tag always continues an entity of the same type.
      if (tag.startsWith('I-') && e.tags[i - 1] !== `B-${tag.slice(2)}` && e.tags[i - 1] !== tag) problems.push(`${e.id}: ${tag} at ${i}`);
    }
    for (const s of entitySpans(e.tags)) {
      types[s.type] = (types[s.type] ?? 0) + 1;
      if (e.tags[s.start] !== `B-${s.type}`) problems.push(`${e.id}: entity at ${s.start} starts with ${e.tags[s.start]}`);
    }
  }
  return { problems, types };
}
