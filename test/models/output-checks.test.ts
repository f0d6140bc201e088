/**
 * What a model's answers are checked for (review #31), the same for a model function and an HTTP endpoint: each
 * malformed answer is a ModelError that names the adapter, what is wrong, and which output and input it is.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFunctionModel } from '../../src/models/function-adapter.ts';
import { createHttpModel } from '../../src/models/http-adapter.ts';
import type { ModelInfo, ModelInput } from '../../src/models/types.ts';
import { ModelError } from '../../src/util/errors.ts';
import { json, rejection, startTestServer, type TestServer } from './helpers.ts';

const two: ModelInput[] = [
  { kind: 'text', text: 'a good film' },
  { kind: 'text', text: 'a bad one' },
];
const clf: ModelInfo = { id: 'clf', task: 'text-classification', labels: ['neg', 'pos'] };
const row = (probs: number[], labels = ['neg', 'pos']): unknown => ({ kind: 'classes', labels, probs });
const fine = row([0.5, 0.5]);
const second = '; outputs[1] answers the input "a bad one"';

/** [case, outputs answered for `two`, the problem the message states, whether it is the second input's alone]. */
const cases: [string, unknown[], string, boolean][] = [
  ['too few outputs', [fine], 'outputs has 1 item(s) for 2 input(s) (for 2 inputs, the first "a good film")', false],
  ['too many outputs', [fine, fine, fine], 'outputs has 3 item(s) for 2 input(s) (for 2 inputs, the first "a good film")', false],
  [
    'a negative probability',
    [fine, row([-0.2, 1.2])],
    `outputs[1].probs[0] = -0.2 is not a probability (finite, in [0, 1])${second}`,
    true,
  ],
  ['a probability over 1', [fine, row([0.5, 1.5])], `outputs[1].probs[1] = 1.5 is not a probability (finite, in [0, 1])${second}`, true],
  ['a row that does not sum to 1', [fine, row([0.1, 0.2])], `outputs[1].probs sum to 0.3, not 1${second}`, true],
  ['a row longer than its labels', [fine, row([0.2, 0.3, 0.5])], `outputs[1] has 3 probs for 2 labels${second}`, false],
  [
    'a row of the wrong label count',
    [fine, row([0.2, 0.3, 0.5], ['neg', 'pos', 'neutral'])],
    `outputs[1].labels [neg, pos, neutral] is not the model's label set [neg, pos]: unknown "neutral"${second}`,
    false,
  ],
  [
    'a missing label',
    [fine, row([1], ['neg'])],
    `outputs[1].labels [neg] is not the model's label set [neg, pos]: missing "pos"${second}`,
    false,
  ],
  ['a label named twice', [fine, row([0.5, 0.5], ['pos', 'POS'])], `outputs[1].labels names a label twice: [pos, POS]${second}`, false],
  [
    'no probs',
    [fine, { kind: 'classes', labels: ['neg', 'pos'] }],
    `outputs[1].probs: Invalid input: expected array, received undefined${second}`,
    true,
  ],
];

describe('answers of a model function', () => {
  it.each(cases)('%s', async (_, raw, problem, inputSpecific) => {
    const model = createFunctionModel(() => raw as never, clf);
    const err = (await rejection(model.predict(two))) as ModelError;
    expect(err).toBeInstanceOf(ModelError);
    expect(err.message).toBe(`the model function function:clf returned a malformed answer: ${problem}.`);
    expect(err.inputSpecific).toBe(inputSpecific);
  });

  it('NaN and Infinity are refused (JSON cannot carry them, a function can)', async () => {
    for (const [p, word] of [
      [Number.NaN, 'NaN'],
      [Number.POSITIVE_INFINITY, 'Infinity'],
    ] as const) {
      const model = createFunctionModel(() => [fine, row([0.5, p])] as never, clf);
      await expect(model.predict(two)).rejects.toThrow(
        `the model function function:clf returned a malformed answer: outputs[1].probs[1]: Invalid input: expected number, received ${word}${second}.`,
      );
    }
  });

  it("aligns labels by name in any order and case; without declared labels, every row must use the first row's", async () => {
    const swapped = createFunctionModel(() => [row([0.75, 0.25], ['POS', 'Neg']), fine] as never, clf);
    expect(await swapped.predict(two)).toEqual([row([0.25, 0.75]), fine]);
    const undeclared = createFunctionModel(() => [row([0.5, 0.5], ['a', 'b']), row([0.5, 0.5], ['a', 'c'])] as never, {
      id: 'free',
      task: 'text-classification',
    });
    await expect(undeclared.predict(two)).rejects.toThrow(
      `function:free returned a malformed answer: outputs[1].labels [a, c] is not the label set of outputs[0] [a, b]: unknown "c"; missing "b"${second}.`,
    );
    expect(() => createFunctionModel(() => [], { ...clf, labels: ['pos', 'Pos'] })).toThrow(
      'the labels of the model function function:clf [pos, Pos] name "pos" and "Pos", which differ only in case.',
    );
  });

  it('refuses answer spans outside the context and tags beyond the words', async () => {
    const qa = createFunctionModel(() => [{ kind: 'spans', spans: [{ text: 'Paris', start: 12, end: 40, score: 0.9 }] }] as never, {
      id: 'qa',
      task: 'question-answering',
    });
    await expect(qa.predict([{ kind: 'qa', question: 'where?', context: 'He lives in Paris.' }])).rejects.toThrow(
      'the model function function:qa returned a malformed answer: outputs[0].spans[0] ends at 40, past the end of ' +
        'the 18-character context (for the input "where?").',
    );
    const backwards = createFunctionModel(() => [{ kind: 'spans', spans: [{ text: '', start: 5, end: 2, score: 0.9 }] }] as never, {
      id: 'qa',
      task: 'question-answering',
    });
    await expect(backwards.predict([{ kind: 'qa', question: 'where?', context: 'He lives in Paris.' }])).rejects.toThrow(
      'outputs[0].spans[0] ends (2) before it starts (5)',
    );
    const ner = createFunctionModel(
      () =>
        [
          { kind: 'tags', tags: ['O', 'B-LOC'], scores: [1, 1] },
          { kind: 'tags', tags: ['B-PER', 'I-PER', 'O'], scores: [1, 1, 1] },
        ] as never,
      { id: 'ner', task: 'token-classification', labels: ['O', 'B-LOC', 'B-PER', 'I-PER'] },
    );
    await expect(
      ner.predict([
        { kind: 'tokens', tokens: ['in', 'Paris'] },
        { kind: 'tokens', tokens: ['John', 'Smith'] },
      ]),
    ).rejects.toThrow(
      'the model function function:ner returned a malformed answer: outputs[1].tags has 3 tag(s) for 2 word(s); outputs[1] answers the input "John Smith".',
    );
  });
});

describe('answers of an HTTP endpoint', () => {
  let srv: TestServer;
  let outputs: unknown[] = [];
  beforeAll(async () => {
    srv = await startTestServer((req, res) => {
      if (req.url === '/info') return json(res, 200, { task: 'text-classification', labels: ['neg', 'pos', 'NEG'] });
      json(res, 200, { outputs });
    });
  });
  afterAll(() => srv.close());

  it.each(cases)('%s', async (_, raw, problem, inputSpecific) => {
    outputs = raw;
    const model = await createHttpModel(srv.url, { task: 'text-classification', labels: ['neg', 'pos'], retries: 0 });
    const err = (await rejection(model.predict(two))) as ModelError;
    expect(err).toBeInstanceOf(ModelError);
    expect(err.message).toBe(`the endpoint ${srv.url}/predict answered with a malformed response: ${problem}.`);
    expect(err.inputSpecific).toBe(inputSpecific);
  });

  it('refuses a label set from /info that names a label twice', async () => {
    await expect(createHttpModel(srv.url)).rejects.toThrow(
      `the labels of GET ${srv.url}/info [neg, pos, NEG] name "neg" and "NEG", which differ only in case.`,
    );
  });
});
