/**
 * Loaders on slices of the real data files, committed in their exact formats (test/fixtures/data/README.md):
 * MRPC's BOM, CoLA without a header, SICK's CRLF lines, SQuAD JSON, CoNLL IOB1. The whole files' row counts are
 * checked by test/full-data/real-data.test.ts (`npm run test:data`).
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
import { fixtureData as data } from '../cli/helpers.ts';

async function all<E extends Example>(ds: Promise<Dataset<E>> | Dataset<E>): Promise<E[]> {
  return collect(await ds);
}

describe('GLUE TSV loaders on slices of the real files', () => {
  it('SST-2 dev (first 400 sentences): first sentence and label, labels named', async () => {
    const ds = await openDataset(data('sst2/dev.tsv'));
    expect(ds.info).toMatchObject({ name: 'sst2', kind: 'text', labelNames: ['negative', 'positive'] });
    const ex = (await collect(ds)) as TextExample[];
    expect(ex).toHaveLength(400);
    expect(ex[0]).toEqual({
      kind: 'text',
      id: 'dev.tsv:2',
      source: `${data('sst2/dev.tsv')}:2`,
      text: "it 's a charming and often affecting journey . ",
      label: 'positive',
    });
    expect(ex[1]!.label).toBe('negative');
    expect(ex.at(-1)!.id).toBe('dev.tsv:401');
    expect(new Set(ex.map((e) => e.label))).toEqual(new Set(['negative', 'positive']));
    expect(ds.skipped).toEqual([]);
  });

  it('SST-2 limit stops early', async () => {
    const ex = await all(openDataset(data('sst2/train.tsv'), { limit: 5 }));
    expect(ex.map((e) => e.id)).toEqual(['train.tsv:2', 'train.tsv:3', 'train.tsv:4', 'train.tsv:5', 'train.tsv:6']);
  });

  it('MRPC dev (file starts with a BOM): BOM handled so the first label parses, id = "#1 ID-#2 ID"', async () => {
    const ds = await openDataset(data('mrpc/dev.tsv'));
    expect(ds.info).toMatchObject({ name: 'mrpc', kind: 'pair', labelNames: ['not_equivalent', 'equivalent'] });
    const ex = (await collect(ds)) as PairExample[];
    expect(ex).toHaveLength(40);
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

  it('CoLA dev (no header): every row a sentence', async () => {
    const ds = await openDataset(data('cola/dev.tsv'));
    expect(ds.info.name).toBe('cola');
    const ex = (await collect(ds)) as TextExample[];
    expect(ex).toHaveLength(60);
    expect(ex[0]).toMatchObject({ id: 'dev.tsv:1', text: 'The sailors rode the breeze clear of the rocks.', label: 'acceptable' });
    expect(ex[4]).toMatchObject({ text: 'As you eat the most, you want the least.', label: 'unacceptable' });
  });

  it('QNLI dev: textA = question, textB = sentence, id = index', async () => {
    const ds = await openDataset(data('qnli/dev.tsv'));
    expect(ds.info).toMatchObject({ name: 'qnli', labelNames: ['entailment', 'not_entailment'] });
    const ex = (await collect(ds)) as PairExample[];
    expect(ex).toHaveLength(60);
    expect(ex[0]).toMatchObject({
      id: '0',
      textA: 'What came into force after the new constitution was herald?',
      textB: 'As of that day, the new constitution heralding the Second Republic came into force.',
      label: 'entailment',
    });
    expect(ex[1]!.label).toBe('not_entailment');
    expect(ex.at(-1)!.id).toBe('59');
  });

  it('unlabelled GLUE test files are refused with a clear message', async () => {
    await expect(openDataset(data('qnli/test.tsv'))).rejects.toThrow(/no label column/);
    await expect(openDataset(data('mrpc/test.tsv'))).rejects.toThrow(/no label column/);
    await expect(openDataset(data('cola/test.tsv'))).rejects.toThrow(/no label column/);
  });
});

describe('SICK (first 200 pairs, CRLF line ends)', () => {
  it('splits from the SemEval_set column (any case); labels lower-cased; id = pair_ID', async () => {
    const train = (await all(openDataset(data('sick/SICK.txt'), { split: 'TRAIN' }))) as PairExample[];
    expect(train).toHaveLength(79);
    expect(train[0]).toMatchObject({
      id: '1',
      textA: 'A group of kids is playing in a yard and an old man is standing in the background',
      textB: 'A group of boys in a yard is playing and a man is standing in the background',
      label: 'neutral',
    });
    expect(new Set(train.map((e) => e.label))).toEqual(new Set(['entailment', 'neutral', 'contradiction']));
    // CRLF line ends do not leak into the last column (split names) or texts.
    expect(train.every((e) => !e.textB.endsWith('\r'))).toBe(true);
    expect(await all(loadSick(data('sick/SICK.txt'), { split: 'test' }))).toHaveLength(114);
    expect(await all(loadSick(data('sick/SICK.txt'), { split: 'TRIAL' }))).toHaveLength(7);
    const ds = await loadSick(data('sick/SICK.txt'));
    expect(ds.info.labelNames).toEqual(['entailment', 'neutral', 'contradiction']);
    expect(await collect(ds)).toHaveLength(200);
  });

  it('an unknown split is refused', async () => {
    await expect(loadSick(data('sick/SICK.txt'), { split: 'validate' })).rejects.toThrow(/unknown SICK split "validate"/);
  });
});

describe('SQuAD v1.1 (two articles, a few paragraphs each)', () => {
  it('dev: id = question id, answers with start offsets', async () => {
    const ds = await openDataset(data('squad-v1.1/dev-v1.1.json'));
    expect(ds.info).toMatchObject({ name: 'squad', kind: 'qa' });
    const ex = (await collect(ds)) as QaExample[];
    expect(ex).toHaveLength(89);
    expect(new Set(ex.map((e) => e.id)).size).toBe(89);
    expect(new Set(ex.map((e) => e.title))).toEqual(new Set(['Super_Bowl_50', 'Sky_(United_Kingdom)']));
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
    for (const e of ex) for (const a of e.answers) expect(e.context.slice(a.start, a.start + a.text.length), e.id).toBe(a.text);
  });

  it('adversarial SQuAD (AddSent, AddOneSent): each -high-conf-turkN copy is its original plus one added sentence', async () => {
    const addSent = (await all(openDataset(data('adversarial-squad/sample1k-HCVerifyAll.json')))) as QaExample[];
    const addOneSent = (await all(openDataset(data('adversarial-squad/sample1k-HCVerifySample.json')))) as QaExample[];
    const adversarial = (set: QaExample[]): QaExample[] => set.filter((e) => /-high-conf-turk\d+$/.test(e.id));
    expect([addSent.length, adversarial(addSent).length]).toEqual([60, 48]);
    expect([addOneSent.length, adversarial(addOneSent).length]).toEqual([24, 12]);
    expect(addSent[1]!.id).toBe('56bea9923aeaaa14008c91bb');
    for (const set of [addSent, addOneSent]) {
      const byId = new Map(set.map((e) => [e.id, e]));
      for (const e of adversarial(set)) {
        const original = byId.get(e.id.replace(/-high-conf-turk\d+$/, ''));
        expect(original, e.id).toBeDefined();
        expect({ question: e.question, answers: e.answers }, e.id).toEqual({ question: original!.question, answers: original!.answers });
        expect(e.context.startsWith(original!.context) && e.context.length > original!.context.length, e.id).toBe(true);
      }
    }
  });
});

describe('CoNLL-2003 format (sentences written for this project, IOB1)', () => {
  it('reads 60 sentences, -DOCSTART- dropped, IOB1 tags converted to IOB2', async () => {
    const ds = await openDataset(data('conll2003/handmade.conll'));
    expect(ds.info).toMatchObject({ name: 'conll2003', kind: 'tokens' });
    const ex = (await collect(ds)) as TokenExample[];
    expect(ex).toHaveLength(60);
    expect(ex[0]).toEqual({
      kind: 'tokens',
      id: 'handmade.conll-0',
      source: `${data('conll2003/handmade.conll')}:3`,
      tokens: ['TENNIS', '-', 'GARCIA', 'BEATS', 'MORENO', 'IN', 'MADRID', '.'],
      tags: ['O', 'O', 'B-PER', 'O', 'B-PER', 'O', 'B-LOC', 'O'],
    });
    // IOB1 "I-MISC B-MISC I-MISC" (two adjacent entities of one type) becomes "B-MISC B-MISC I-MISC".
    expect(ex[37]).toMatchObject({
      tokens: ['SOCCER', '-', 'ENGLISH', 'FA', 'CUP', 'RESULTS', '.'],
      tags: ['O', 'O', 'B-MISC', 'B-MISC', 'I-MISC', 'O', 'O'],
    });
    // Multi-token entities continue with I- after a B-.
    expect(ex[2]!.tags.slice(0, 4)).toEqual(['B-PER', 'I-PER', 'O', 'B-LOC']);
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
    expect(problems).toEqual([]);
    expect(types).toEqual({ PER: 23, LOC: 40, MISC: 12, ORG: 26 });
  });

  it('ids count sentences from 0 across documents', async () => {
    const ex = await all(loadConll(data('conll2003/handmade.conll'), { limit: 7 }));
    expect(ex.map((e) => e.id)).toEqual([0, 1, 2, 3, 4, 5, 6].map((i) => `handmade.conll-${i}`));
  });
});
