/**
 * Every loader strips white space at the ends of each text (issue 32: SST-2's trailing space became a final `Ġ`/`▁`
 * token for byte-level BPE and SentencePiece models), keeps the white space inside, and keeps QA answer offsets
 * pointing at their answers.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { collect, openDataset, type DataFormat, type Example, type QaExample } from '../../src/data/index.ts';
import { DataError } from '../../src/util/errors.ts';

const tmp = mkdtempSync(join(tmpdir(), 'textstress-ws-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function read(name: string, content: string, format?: DataFormat): Promise<Example[]> {
  const file = join(tmp, name);
  writeFileSync(file, content);
  return collect(await openDataset(file, format ? { format } : {}));
}

/** Every text field of an example. */
const texts = (e: Example): string[] =>
  e.kind === 'text' ? [e.text] : e.kind === 'pair' ? [e.textA, e.textB] : e.kind === 'qa' ? [e.question, e.context] : e.tokens;

describe('surrounding white space is stripped by every loader', () => {
  const cases: [string, string, string, DataFormat | undefined, string[][]][] = [
    // GLUE SST-2 as distributed: every sentence ends in a space.
    [
      'sst2',
      'dev.tsv',
      "sentence\tlabel\nit 's a charming  journey . \t1\n  no-break space after\u00A0\t0\n",
      'sst2',
      [["it 's a charming  journey ."], ['no-break space after']],
    ],
    [
      'mrpc',
      'mrpc.tsv',
      '\uFEFFQuality\t#1 ID\t#2 ID\t#1 String\t#2 String\n1\t1\t2\t He said so. \tHe said it.\u00A0\n',
      'mrpc',
      [['He said so.', 'He said it.']],
    ],
    ['cola', 'cola.tsv', 'gj04\t1\t\tThe sailors rode the breeze . \n', 'cola', [['The sailors rode the breeze .']]],
    [
      'qnli',
      'qnli.tsv',
      'index\tquestion\tsentence\tlabel\n0\tWho? \t There were accounts.\tentailment\n',
      'qnli',
      [['Who?', 'There were accounts.']],
    ],
    [
      'sick',
      'SICK.txt',
      'pair_ID\tsentence_A\tsentence_B\tentailment_label\tSemEval_set\n1\tA lady walks\tThere is no lady walking \tCONTRADICTION\tTRAIN\n',
      'sick',
      [['A lady walks', 'There is no lady walking']],
    ],
    ['csv', 'r.csv', 'text,label\n"  quoted, with spaces  ",1\n', 'csv', [['quoted, with spaces']]],
    ['tsv', 'r.tsv', 'text\tlabel\n  two  words \t1\n', 'tsv', [['two  words']]],
    ['jsonl', 'r.jsonl', '{"text": "\\n great film \\t", "label": "pos"}\n', 'jsonl', [['great film']]],
    [
      'snli',
      's.jsonl',
      '{"sentence1": " A man. ", "sentence2": "A person.  ", "gold_label": "entailment", "pairID": "p1"}\n',
      'snli',
      [['A man.', 'A person.']],
    ],
    ['conll', 'n.conll', '-DOCSTART- O\n\n  EU\tNNP B-NP B-ORG \nrejects VBZ B-VP O\n\n', 'conll', [['EU', 'rejects']]],
  ];
  for (const [what, name, content, format, expected] of cases) {
    it(`${what}: no text starts or ends with white space; inner white space is kept`, async () => {
      const ex = await read(name, content, format);
      expect(ex.map(texts)).toEqual(expected);
    });
  }
});

describe('SQuAD: the context is stripped and the answers follow it', () => {
  const squad = (context: string, answers: { text: string; answer_start: number }[], question = ' What? '): string =>
    JSON.stringify({ data: [{ title: 'T', paragraphs: [{ context, qas: [{ id: 'q1', question, answers }] }] }] });

  it('leading white space of the context moves every answer back by its length; the question is stripped', async () => {
    // SQuAD v1.1 dev holds such a paragraph (" Seamans' establishment of an ad-hoc committee …").
    const context = "  Seamans' committee met in July 1961. ";
    const [ex] = (await read('lead.json', squad(context, [{ text: 'July 1961', answer_start: 28 }]))) as QaExample[];
    expect(ex!.question).toBe('What?');
    expect(ex!.context).toBe("Seamans' committee met in July 1961.");
    expect(ex!.answers).toEqual([{ text: 'July 1961', start: 26 }]);
    expect(ex!.context.slice(26, 26 + 'July 1961'.length)).toBe('July 1961');
  });

  it("an answer's own surrounding white space is dropped and its start moved past it", async () => {
    const context = 'Tymnet was an international network. ';
    const [ex] = (await read('ans.json', squad(context, [{ text: ' an international ', answer_start: 10 }]))) as QaExample[];
    expect(ex!.answers).toEqual([{ text: 'an international', start: 11 }]);
    expect(ex!.context.slice(11, 27)).toBe('an international');
  });

  it('an answer of white space only is a bad row naming the question', async () => {
    const file = join(tmp, 'blank.json');
    writeFileSync(file, squad('Some context.', [{ text: ' ', answer_start: 4 }]));
    const err = await collect(await openDataset(file)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DataError);
    expect((err as DataError).message).toBe('answer 1 of question q1 is empty (white space only).');
  });
});
