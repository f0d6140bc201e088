/**
 * What a result records about its example: batch sizes chosen by the whole model input, the share of words
 * perturbed (over the words the attack could edit), why an example was skipped, and the origin map after edits.
 */
import { describe, expect, it } from 'vitest';
import { attackExample, type Attack } from '../../src/core/attack.ts';
import { editZone, maxEdits, minWordLength, noRepeatEdits, protectWords, type Constraint } from '../../src/core/constraints.ts';
import { EntityF1Drop, UntargetedClassification } from '../../src/core/goals/index.ts';
import { LabelAligner } from '../../src/core/labels.ts';
import { BeamSearch } from '../../src/core/search/beam.ts';
import { GreedyWordSearch } from '../../src/core/search/greedy-word.ts';
import { inputChars } from '../../src/models/types.ts';
import { statesPerBatchOf, type SearchMethod } from '../../src/core/search/types.ts';
import { applyCandidate, currentIndexOf, initialState, originOf } from '../../src/core/state.ts';
import { makeSubject } from '../../src/core/subject.ts';
import type { Transformation } from '../../src/core/transformation.ts';
import type { Example, TextExample } from '../../src/data/types.ts';
import type { ModelAdapter } from '../../src/models/types.ts';
import { QueryEngine } from '../../src/query/engine.ts';
import type { WordCandidate } from '../../src/text/edits.ts';
import { WordSeq } from '../../src/text/word-seq.ts';
import { Rng } from '../../src/util/rng.ts';
import { lexiconModel, toyEdits, twoTypos } from './helpers.ts';

const goal = new UntargetedClassification(new LabelAligner(['negative', 'positive'], ['negative', 'positive']));

/** The lexicon model, recording the size of every predict() call. */
function counting(): ModelAdapter & { batches: number[] } {
  const batches: number[] = [];
  return { info: lexiconModel.info, batches, predict: (inputs) => (batches.push(inputs.length), lexiconModel.predict(inputs)) };
}

const none: Transformation = { name: 'none', candidates: () => [] };

function attack(search: SearchMethod, opts: { transformation?: Transformation; window?: number; constraints?: Constraint[] } = {}): Attack {
  return {
    name: 'test',
    transformation: opts.transformation ?? twoTypos,
    constraints: opts.constraints ?? [editZone(), noRepeatEdits, maxEdits(5)],
    goal,
    search,
    ...(opts.window !== undefined ? { window: opts.window } : {}),
  };
}

const text = (s: string, label = 'positive'): TextExample => ({ kind: 'text', id: 't', text: s, label });

describe('batch sizes count the whole model input (#8)', () => {
  // 8,000,000 characters per batch: a 1,000,000-character input gets 8 versions per batch.
  const long = 'good '.repeat(200_000);

  it('a windowed text counts its suffix, a pair both sentences, tokens and QA every field', () => {
    expect(long.length).toBe(1_000_000);
    const windowed = makeSubject(text(long), { window: 5 });
    expect(windowed.original.toString()).toBe('good good good good good ');
    expect(statesPerBatchOf(windowed, windowed.original)).toBe(8);
    const pair = makeSubject({ kind: 'pair', id: 'p', textA: 'x'.repeat(2_000_000), textB: 'a good film', label: 'entailment' });
    expect(pair.field).toBe('textB');
    expect(statesPerBatchOf(pair, pair.original)).toBe(Math.floor(8_000_000 / 2_000_011));
    const tokens = makeSubject(
      { kind: 'tokens', id: 'k', tokens: Array.from({ length: 400_000 }, () => 'word'), tags: Array.from({ length: 400_000 }, () => 'O') },
      { window: 3 },
    );
    expect(inputChars(tokens.toInput(tokens.original))).toBe(2_000_000);
    expect(statesPerBatchOf(tokens, tokens.original)).toBe(4);
    const qa = makeSubject({ kind: 'qa', id: 'q', question: 'who won', context: 'y'.repeat(4_000_000), answers: [] });
    expect(statesPerBatchOf(qa, qa.original)).toBe(1);
    // A short input still gets full batches.
    const short = makeSubject(text('a good film'));
    expect(statesPerBatchOf(short, short.original)).toBe(4096);
  });

  it('occlusion ranking and beam steps send batches sized by the whole text, not the window', async () => {
    // Distinct words in the window (equal copies would be one query), then 'good' to 1,599,998 characters: 5
    // versions per batch.
    const huge = Array.from({ length: 12 }, (_, k) => `w${k} `).join('') + 'good '.repeat(319_992);
    expect(huge.length).toBe(1_599_998);
    const model = counting();
    const ranked = await attackExample(
      attack(new GreedyWordSearch('max'), { transformation: none, window: 12 }),
      text(huge),
      new QueryEngine(model).session(),
      new Rng(0),
    );
    expect(ranked.status).toBe('failed');
    // The clean query, then 12 occluded copies in batches of 5.
    expect(model.batches).toEqual([1, 5, 5, 2]);

    const beamModel = counting();
    await attackExample(
      attack(new BeamSearch(2), { transformation: toyEdits, window: 3, constraints: [editZone(), noRepeatEdits, maxEdits(1)] }),
      text(huge),
      new QueryEngine(beamModel).session(),
      new Rng(0),
    );
    // 3 words × 3 edits = 9 distinct children, in batches of 5.
    expect(beamModel.batches).toEqual([1, 5, 4]);
  });
});

describe('% words perturbed (#9)', () => {
  // 12 words, one "good": positive; a typo in "good" flips it.
  const s = 'a good film that was made in the year of the dragon';

  it('is edits over the words of the text when the whole text is attacked', async () => {
    const r = await attackExample(attack(new GreedyWordSearch('max')), text(s), new QueryEngine(lexiconModel).session(), new Rng(0));
    expect(r.status).toBe('succeeded');
    expect([r.num_words, r.words_perturbed, r.perturbed_word_pct]).toEqual([12, 1, 100 / 12]);
    expect(r.window_capped).toBeUndefined();
    expect(r.attacked_words).toBeUndefined();
  });

  it("is edits over the window's words when the text is longer than the window (as the edit budget is)", async () => {
    const r = await attackExample(
      attack(new GreedyWordSearch('max'), { window: 4 }),
      text(s),
      new QueryEngine(lexiconModel).session(),
      new Rng(0),
    );
    expect(r.status).toBe('succeeded');
    expect(r.perturbed.text).toBe('a goo film that was made in the year of the dragon');
    expect([r.num_words, r.attacked_words, r.words_perturbed, r.perturbed_word_pct]).toEqual([12, 4, 1, 25]);
    expect(r.window_capped).toBe(true);
  });
});

describe('skip reasons (#10)', () => {
  const run = (a: Attack, ex: Example) => attackExample(a, ex, new QueryEngine(lexiconModel).session(), new Rng(0));

  it('already misclassified', async () => {
    const r = await run(attack(new GreedyWordSearch('max')), text('a good film', 'negative'));
    expect([r.status, r.skip_reason]).toEqual(['skipped', 'the model already misclassifies the clean example']);
  });

  it('no word to edit: named by the constraints that rule the words out', async () => {
    const protectedAll = await run(
      attack(new GreedyWordSearch('max'), { constraints: [editZone(), minWordLength(3), protectWords(['good', 'film'])] }),
      text('a good film'),
    );
    expect([protectedAll.status, protectedAll.skip_reason]).toEqual([
      'skipped',
      'nothing to edit: every word is ruled out by min-word-length(3), protect-words',
    ]);
    expect(protectedAll.edits).toEqual([]);
    expect(protectedAll.queries).toBe(1);
    // (The lexicon model calls it negative: right, so the goal does not skip it first.)
    const noWords = await run(attack(new GreedyWordSearch('max')), text('!!! ...', 'negative'));
    expect([noWords.status, noWords.skip_reason]).toEqual(['skipped', 'nothing to edit: the text has no words']);
  });

  it('an NER sentence that is all entity', async () => {
    const ner: Attack = { ...attack(new GreedyWordSearch('max')), goal: new EntityF1Drop() };
    const tagger: ModelAdapter = {
      info: { id: 'tagger', task: 'token-classification', labels: ['O', 'B-PER', 'I-PER'] },
      predict: async (inputs) =>
        inputs.map((i) => ({
          kind: 'tags' as const,
          tags: i.kind === 'tokens' ? i.tokens.map((_, k) => (k === 0 ? 'B-PER' : 'I-PER')) : [],
          scores: [],
        })),
    };
    const r = await attackExample(
      ner,
      { kind: 'tokens', id: 'n', tokens: ['John', 'Smith'], tags: ['B-PER', 'I-PER'] },
      new QueryEngine(tagger).session(),
      new Rng(0),
    );
    expect([r.status, r.skip_reason]).toEqual(['skipped', 'nothing to edit: every word is ruled out by edit-zone']);
  });

  it('a word that can be edited but gets no candidate is a failed attack, not a skip', async () => {
    const r = await run(attack(new GreedyWordSearch('max'), { transformation: none }), text('a good film'));
    expect([r.status, r.skip_reason]).toEqual(['failed', undefined]);
  });
});

describe('the origin map after edits (#10)', () => {
  const cand = (wordIndex: number, op: WordCandidate['op'], after = 'X'): WordCandidate => ({ wordIndex, after, type: 't', op });

  it('follows inserts, deletes and swaps word by word', () => {
    // a b c d e → a X b c d e → a X c d e → a X d c e → a Y d c e
    let state = initialState(WordSeq.parse('a b c d e'));
    expect(state.origin).toBeUndefined();
    state = applyCandidate(state, cand(1, 'insert'), 'text');
    expect(state.origin).toEqual([0, -1, 1, 2, 3, 4]);
    state = applyCandidate(state, cand(2, 'delete', ''), 'text');
    expect(state.origin).toEqual([0, -1, 2, 3, 4]);
    state = applyCandidate(state, cand(2, 'swap', ''), 'text');
    expect(state.seq.toString()).toBe('a X d c e');
    expect(state.origin).toEqual([0, -1, 3, 2, 4]);
    state = applyCandidate(state, cand(1, 'replace', 'Y'), 'text');
    expect(state.seq.toString()).toBe('a Y d c e');
    expect(state.origin).toEqual([0, -1, 3, 2, 4]);
    // Every word of the output is the original word its origin names (or an inserted one).
    const original = 'a b c d e'.split(' ');
    expect(state.seq.words.map((w, i) => (originOf(state, i) < 0 ? `+${w}` : original[originOf(state, i)]))).toEqual([
      'a',
      '+Y',
      'd',
      'c',
      'e',
    ]);
    expect([0, 1, 2, 3, 4].map((o) => currentIndexOf(state, o))).toEqual([0, -1, 3, 2, 4]);
    expect([...state.modified].sort()).toEqual([1, 2, 3]);
  });

  it('a swap alone gives an origin map; a replacement alone none (the identity)', () => {
    const s = initialState(WordSeq.parse('a b c'));
    expect(applyCandidate(s, cand(0, 'swap', ''), 'text').origin).toEqual([1, 0, 2]);
    expect(applyCandidate(s, cand(0, 'replace'), 'text').origin).toBeUndefined();
  });

  it('over a window, the suffix keeps its own indices', () => {
    const subject = makeSubject(text('a b c d e f'), { window: 3 });
    let state = initialState(subject.original);
    state = applyCandidate(state, cand(0, 'delete', ''), 'text');
    state = applyCandidate(state, cand(2, 'insert'), 'text');
    expect(subject.fields(state.seq)).toEqual({ text: 'b c X d e f' });
    expect(subject.fullOrigin(state.origin)).toEqual([1, 2, -1, 3, 4, 5]);
    expect(subject.fullOrigin(undefined)).toEqual([0, 1, 2, 3, 4, 5]);
  });
});

describe('QA subjects', () => {
  it('edit the question; editing the context is refused until gold offsets follow the edits', () => {
    const qa = { kind: 'qa' as const, id: 'q', question: 'Who wrote it?', context: 'Ann wrote it.', answers: [{ text: 'Ann', start: 0 }] };
    expect(makeSubject(qa).field).toBe('question');
    expect(makeSubject(qa).original.words).toEqual(['Who', 'wrote', 'it']);
    expect(() => makeSubject(qa, { field: 'context' })).toThrow(
      /editing the context of a QA example is not supported yet \(the gold answer offsets would not follow the edits\)/,
    );
  });
});
