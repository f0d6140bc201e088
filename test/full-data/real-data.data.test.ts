/**
 * Loaders on the whole real datasets in ../shared/data: row counts and first rows of the full files.
 * test/data/real-data.test.ts checks the same loaders on the committed slices.
 */
import { describe, expect, it } from 'vitest';
import {
  collect,
  entitySpans,
  loadConll,
  loadSick,
  openDataset,
  type Dataset,
  type Example,
  type PairExample,
  type QaExample,
  type TextExample,
  type TokenExample,
} from '../../src/data/index.ts';
import { shared as data } from './helpers.data.ts';

async function all<E extends Example>(ds: Promise<Dataset<E>> | Dataset<E>): Promise<E[]> {
  return collect(await ds);
}

describe('GLUE TSV loaders on the real files', () => {
  it('SST-2 dev: 872 sentences, first sentence and label, labels named', async () => {
    const ds = await openDataset(data('sst2/dev.tsv'));
    expect(ds.info).toMatchObject({ name: 'sst2', kind: 'text', labelNames: ['negative', 'positive'] });
    const ex = (await collect(ds)) as TextExample[];
    expect(ex).toHaveLength(872);
    expect(ex[0]).toEqual({
      kind: 'text',
      id: 'dev.tsv:2',
      source: `${data('sst2/dev.tsv')}:2`,
      text: "it 's a charming and often affecting journey . ",
      label: 'positive',
    });
    expect(ex[1]!.label).toBe('negative');
    expect(new Set(ex.map((e) => e.label))).toEqual(new Set(['negative', 'positive']));
    expect(ds.skipped).toEqual([]);
  });

  it('SST-2 limit stops early', async () => {
    const ex = await all(openDataset(data('sst2/train.tsv'), { limit: 5 }));
    expect(ex.map((e) => e.id)).toEqual(['train.tsv:2', 'train.tsv:3', 'train.tsv:4', 'train.tsv:5', 'train.tsv:6']);
  });

  it('MRPC dev: 408 pairs, BOM handled so the first label parses, id = "#1 ID-#2 ID"', async () => {
    const ds = await openDataset(data('mrpc/dev.tsv'));
    expect(ds.info).toMatchObject({ name: 'mrpc', kind: 'pair', labelNames: ['not_equivalent', 'equivalent'] });
    const ex = (await collect(ds)) as PairExample[];
    expect(ex).toHaveLength(408);
    expect(ex[0]).toMatchObject({
      id: '1355540-1355592',
      label: 'equivalent',
      textA: "He said the foodservice pie business doesn't fit the company's long-term growth strategy.",
      // an unbalanced quote that is text, not CSV quoting
      textB: '"The foodservice pie business does not fit our long-term growth strategy.',
    });
    expect(ex[1]!.label).toBe('not_equivalent');
  });

  it('CoLA dev (no header): 1043 sentences', async () => {
    const ds = await openDataset(data('cola/dev.tsv'));
    expect(ds.info.name).toBe('cola');
    const ex = (await collect(ds)) as TextExample[];
    expect(ex).toHaveLength(1043);
    expect(ex[0]).toMatchObject({ id: 'dev.tsv:1', text: 'The sailors rode the breeze clear of the rocks.', label: 'acceptable' });
    expect(ex[4]).toMatchObject({ text: 'As you eat the most, you want the least.', label: 'unacceptable' });
  });

  it('QNLI dev: 5463 pairs, textA = question, textB = sentence, id = index', async () => {
    const ds = await openDataset(data('qnli/dev.tsv'));
    expect(ds.info).toMatchObject({ name: 'qnli', labelNames: ['entailment', 'not_entailment'] });
    const ex = (await collect(ds)) as PairExample[];
    expect(ex).toHaveLength(5463);
    expect(ex[0]).toMatchObject({
      id: '0',
      textA: 'What came into force after the new constitution was herald?',
      textB: 'As of that day, the new constitution heralding the Second Republic came into force.',
      label: 'entailment',
    });
    expect(ex[1]!.label).toBe('not_entailment');
  });

  it('unlabelled GLUE test files are refused with a clear message', async () => {
    await expect(openDataset(data('qnli/test.tsv'))).rejects.toThrow(/no label column/);
    await expect(openDataset(data('mrpc/test.tsv'))).rejects.toThrow(/no label column/);
    await expect(openDataset(data('cola/test.tsv'))).rejects.toThrow(/no label column/);
  });
});

describe('SICK', () => {
  it('splits: TRAIN 4439, TRIAL 495, TEST 4906; labels lower-cased; id = pair_ID', async () => {
    // The SemEval-2014 split of SICK is 4,439 / 495 / 4,906 (9,840 pairs, counted in the file's
    // SemEval_set column); shared/README.md's "TEST 4,905 / 9,839" is off by one.
    const train = (await all(openDataset(data('sick/SICK.txt'), { split: 'TRAIN' }))) as PairExample[];
    expect(train).toHaveLength(4439);
    expect(train[0]).toMatchObject({
      id: '1',
      textA: 'A group of kids is playing in a yard and an old man is standing in the background',
      textB: 'A group of boys in a yard is playing and a man is standing in the background',
      label: 'neutral',
    });
    expect(new Set(train.map((e) => e.label))).toEqual(new Set(['entailment', 'neutral', 'contradiction']));
    // CRLF line ends do not leak into the last column (split names) or texts.
    expect(train.every((e) => !e.textB.endsWith('\r'))).toBe(true);
    expect(await all(loadSick(data('sick/SICK.txt'), { split: 'test' }))).toHaveLength(4906);
    expect(await all(loadSick(data('sick/SICK.txt'), { split: 'TRIAL' }))).toHaveLength(495);
    const ds = await loadSick(data('sick/SICK.txt'));
    expect(ds.info.labelNames).toEqual(['entailment', 'neutral', 'contradiction']);
    expect(await collect(ds)).toHaveLength(9840);
  });

  it('an unknown split is refused', async () => {
    await expect(loadSick(data('sick/SICK.txt'), { split: 'validate' })).rejects.toThrow(/unknown SICK split "validate"/);
  });
});

describe('SQuAD v1.1', () => {
  it('dev: 10570 questions, id = question id, answers with start offsets', async () => {
    const ds = await openDataset(data('squad-v1.1/dev-v1.1.json'));
    expect(ds.info).toMatchObject({ name: 'squad', kind: 'qa' });
    const ex = (await collect(ds)) as QaExample[];
    expect(ex).toHaveLength(10570);
    expect(new Set(ex.map((e) => e.id)).size).toBe(10570);
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
    expect(first.context.slice(177, 177 + 'Denver Broncos'.length)).toBe('Denver Broncos');
  });

  it('adversarial SQuAD: AddSent 3560, AddOneSent 1787, adversarial copies present', async () => {
    const addSent = (await all(openDataset(data('adversarial-squad/sample1k-HCVerifyAll.json')))) as QaExample[];
    expect(addSent).toHaveLength(3560);
    expect(addSent.filter((e) => /-high-conf-turk\d+$/.test(e.id)).length).toBe(2560);
    const addOneSent = (await all(openDataset(data('adversarial-squad/sample1k-HCVerifySample.json')))) as QaExample[];
    expect(addOneSent).toHaveLength(1787);
    expect(addOneSent.filter((e) => /-high-conf-turk\d+$/.test(e.id)).length).toBe(787);
    // Every adversarial copy asks its original's question, with the same answers, over the original paragraph
    // plus one added distractor at its end (Jia & Liang 2017).
    for (const set of [addSent, addOneSent]) {
      const byId = new Map(set.map((e) => [e.id, e]));
      for (const e of set) {
        const base = /^(.*)-high-conf-turk\d+$/.exec(e.id)?.[1];
        if (base === undefined) continue;
        const original = byId.get(base);
        expect(original, e.id).toBeDefined();
        expect({ question: e.question, answers: e.answers }, e.id).toEqual({ question: original!.question, answers: original!.answers });
        expect(e.context.startsWith(original!.context) && e.context.length > original!.context.length, e.id).toBe(true);
      }
    }
  });
});

describe('CoNLL-2003', () => {
  it('eng.testb: 3453 sentences, IOB2 tags with B- at every entity start', async () => {
    // The file has 3,683 blank-line-separated blocks: 3,453 sentences + 230 "-DOCSTART-" blocks (a 231st
    // DOCSTART ends the file without a blank line). DOCSTART markers are not sentences, so 3,453 — the
    // standard CoNLL-2003 test size.
    const ds = await openDataset(data('conll2003/eng.testb'));
    expect(ds.info).toMatchObject({ name: 'conll2003', kind: 'tokens' });
    const ex = (await collect(ds)) as TokenExample[];
    expect(ex).toHaveLength(3453);
    expect(ex[0]).toMatchObject({
      id: 'eng.testb-0',
      source: `${data('conll2003/eng.testb')}:1`,
      tokens: ['SOCCER', '-', 'JAPAN', 'GET', 'LUCKY', 'WIN', ',', 'CHINA', 'IN', 'SURPRISE', 'DEFEAT', '.'],
      tags: ['O', 'O', 'B-LOC', 'O', 'O', 'O', 'O', 'B-PER', 'O', 'O', 'O', 'O'],
    });
    let entities = 0;
    const problems: string[] = [];
    for (const e of ex) {
      if (e.tags.length !== e.tokens.length) problems.push(`${e.id}: ${e.tags.length} tags for ${e.tokens.length} tokens`);
      if (e.tokens.includes('-DOCSTART-')) problems.push(`${e.id}: -DOCSTART- kept`);
      for (let i = 0; i < e.tags.length; i++) {
        const tag = e.tags[i]!;
        // IOB2: an I- tag always continues an entity of the same type.
        if (tag.startsWith('I-') && e.tags[i - 1] !== `B-${tag.slice(2)}` && e.tags[i - 1] !== tag) problems.push(`${e.id}: ${tag} at ${i}`);
      }
      for (const s of entitySpans(e.tags)) {
        entities++;
        if (e.tags[s.start] !== `B-${s.type}`) problems.push(`${e.id}: entity at ${s.start} starts with ${e.tags[s.start]}`);
      }
    }
    expect(problems).toEqual([]);
    expect(entities).toBe(5648); // the CoNLL-2003 test set's entity count (LOC 1668, MISC 702, ORG 1661, PER 1617)
  });

  it('eng.testa: 3250 sentences', async () => {
    expect(await all(loadConll(data('conll2003/eng.testa')))).toHaveLength(3250);
  });
});
