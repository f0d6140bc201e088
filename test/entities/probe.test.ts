/**
 * The entity probe (Algorithm 1) on hand-checkable cases: a tagger that cannot see the first name "Zoe", tiny
 * name lists, fixed seeds. Every mention of a name is replaced the same way, the worst and best variants are the
 * ones the tagger gets wrong and right, stability reads through names of another length, and the digest's Table 3
 * is the corpus F1 of the counts kept per example.
 */
import { describe, expect, it } from 'vitest';
import { EntityF1Drop } from '../../src/core/goals/index.ts';
import { probeExample, sameUnderEdits } from '../../src/core/probe.ts';
import { entitySpans } from '../../src/data/entities.ts';
import type { Example, TokenExample } from '../../src/data/types.ts';
import type { Mention, MentionAnnotator, NameDictionaries } from '../../src/entities/index.ts';
import type { ModelAdapter } from '../../src/models/types.ts';
import { QueryEngine } from '../../src/query/engine.ts';
import { summarize } from '../../src/metrics/summary.ts';
import { entityProbe } from '../../src/families/entities/probe.ts';
import { entityDigest, type EntityDetails } from '../../src/families/entities/table3.ts';
import { allExamplesTable, table3 as entitiesTable3 } from '../../src/families/entities/tables.ts';
import { wilson } from '../../src/stats/index.ts';
import { TrainCounts } from '../../src/families/entities/train.ts';
import { Rng } from '../../src/util/rng.ts';

export const tinyDicts: NameDictionaries = {
  first: { female: ['Anna', 'Maria', 'Zoe'], male: ['Bob', 'Carl'], unknown: [] },
  last: ['Kim', 'Lopez', 'Xu'],
  org: ['Acme', 'Globex Corporation'],
  country: ['France', 'Peru'],
  countryAliases: [],
  city: ['Lima', 'Paris'],
  misc: ['French'],
};

/** Mentions from the gold tags (what the gold annotator does), for token examples. */
const tagAnnotator: MentionAnnotator = {
  name: 'test-gold',
  annotate: async (examples: readonly Example[]) =>
    examples.map((e) =>
      e.kind !== 'tokens'
        ? []
        : entitySpans(e.tags).map((s): Mention => ({
            type: s.type as Mention['type'],
            field: 'tokens',
            start: s.start,
            end: s.end,
            text: e.tokens.slice(s.start, s.end).join(' '),
            confidence: 1,
          })),
    ),
};

/** Tags a run of capitalised tokens as one PER entity, except "Zoe", which it does not see as a name. */
export const zoeBlindTagger: ModelAdapter = {
  info: { id: 'function:zoe-blind', task: 'token-classification' },
  predict: async (inputs) =>
    inputs.map((input) => {
      if (input.kind !== 'tokens') throw new Error('tokens only');
      const tags = input.tokens.map((t, i) => {
        if (t === 'Zoe' || !/^[A-Z]/.test(t)) return 'O';
        const prev = input.tokens[i - 1];
        return prev !== undefined && prev !== 'Zoe' && /^[A-Z]/.test(prev) ? 'I-PER' : 'B-PER';
      });
      return { kind: 'tags' as const, tags, scores: tags.map(() => 0.9) };
    }),
};

const sentence: TokenExample = {
  kind: 'tokens',
  id: 's1',
  tokens: ['Maria', 'Lopez', 'met', 'Maria', 'today'],
  tags: ['B-PER', 'I-PER', 'O', 'B-PER', 'O'],
};
const noName: TokenExample = { kind: 'tokens', id: 's2', tokens: ['it', 'rained'], tags: ['O', 'O'] };

const probe = entityProbe({ type: 'PER', budget: 8, goal: new EntityF1Drop(), annotator: tagAnnotator, dicts: tinyDicts });
const run = (e: Example, seed = 7) => probeExample(probe, e, new QueryEngine(zoeBlindTagger).session(), new Rng(seed));

describe('entity probe (Algorithm 1)', () => {
  it('replaces every mention of a name the same way; worst = the name the tagger misses, best = one it finds', async () => {
    const r = await run(sentence);
    expect(r.status).toBe('succeeded');
    expect(r.probe!.variants).toBe(8);
    // Maria (female) → Anna or Zoe, the same at both mentions; Lopez → Kim or Xu.
    expect(r.perturbed.tokens).toEqual(['Zoe', 'Kim', 'met', 'Zoe', 'today']);
    expect(r.probe!.best.fields.tokens).toEqual(['Anna', 'Xu', 'met', 'Anna', 'today']);
    expect(r.probe!.worst_metric).toBe(0);
    expect(r.probe!.best_metric).toBe(1);
    expect(r.probe!.original_metric).toBe(1);
    expect(r.edits.map((e) => [e.type, e.before, e.after, e.group])).toEqual([
      ['entity:PER', 'Maria', 'Zoe', 'first:maria'],
      ['entity:PER', 'Lopez', 'Kim', 'last:lopez'],
      ['entity:PER', 'Maria', 'Zoe', 'first:maria'],
    ]);
    // Each variant names what it put in, with its sentence F1.
    expect(r.probe!.samples!.map((s) => `${s.names.join(' ')}=${s.metric}`)).toEqual([
      'Anna Xu=1',
      'Zoe Kim=0',
      'Anna Xu=1',
      'Anna Kim=1',
      'Anna Kim=1',
      'Zoe Xu=0',
      'Anna Xu=1',
      'Anna Xu=1',
    ]);
    expect(r.probe!.changed).toBe(2);
  });

  it('draws the same variants for the same seed', async () => {
    const [a, b] = [await run(sentence, 11), await run(sentence, 11)];
    expect(a.probe!.samples).toEqual(b.probe!.samples);
  });

  it('skips an example with no PER entity with a reason (never stable)', async () => {
    const r = await run(noName);
    expect(r.status).toBe('skipped');
    expect(r.skip_reason).toBe('no PER entity');
    expect(r.probe).toBeUndefined();
  });

  it('Table 3: corpus entity F1 of the original, worst and best and stability over D (the probed); all examples beside', async () => {
    const results = [await run(sentence), await run(noName)];
    const digest = entityDigest({
      seed: 0,
      type: 'PER',
      budget: 8,
      annotator: 'test-gold',
      train: { path: 'train', counts: new TrainCounts(['Anna met Anna and Bob', 'Xu']) },
    });
    results.forEach((r) => digest.add(r));
    const d = digest.finish();
    expect(d).toMatchObject({ measure: 'entity F1', n: 2, probed: 1, not_applicable: 1, not_applicable_reasons: { 'no PER entity': 1 } });
    // Worst: gold Zoe-X (0-2) and Zoe (3) vs predicted X (1) alone: tp 0, fp 1, fn 2 → F1 0. The rain sentence adds nothing.
    // D is the one probed sentence: every bootstrap resample is that sentence again, so the bootstrap has no spread
    // and [v, v] would read as exact: the bound instead — the value, moved toward the range's other end by u, the
    // Wilson upper bound of 0 in 1 (issue 34).
    const u = wilson(0, 1).high!;
    const bound = (value: number, low: number, high: number) => ({ value, low, high, n: 1, method: 'bound' });
    expect(d.table3).toEqual({
      n: 1,
      original: { value: 1, n: 1, interval: bound(1, 1 - u, 1) },
      worst: { value: 0, n: 1, interval: bound(0, 0, u) },
      best: { value: 1, n: 1, interval: bound(1, 1 - u, 1) },
      stability: 0,
      stability_interval: wilson(0, 1),
      gap: 1,
      gap_interval: bound(1, 1 - 2 * u, 1),
    });
    // Over both sentences the rain one adds no entity, so corpus F1 is the same; n says what it is over.
    expect(d.all_examples).toMatchObject({ n: 2, original: { value: 1, n: 2 }, worst: { value: 0, n: 2 }, best: { value: 1, n: 2 } });
    // Figure 1: Anna occurs twice in training (1-9), Zoe never (0); Kim/Xu are last names drawn alongside.
    // Zoe ×2 and Kim ×3 never occur (0): F1 0 0 / 0 1 1; Anna ×6 and Xu ×5 do (1-9): all 1 but Zoe Xu.
    expect(d.by_frequency).toEqual([
      { bin: '0', n: 5, metric: 0.4 },
      { bin: '1-9', n: 11, metric: 10 / 11 },
      { bin: '10-99', n: 0, metric: null },
      { bin: '≥100', n: 0, metric: null },
    ]);
    expect(d.by_subwords).toBeNull();
    // The worst variant's names (each once per example), ties in name order; the best one's names are counted beside.
    expect(d.worst_names).toEqual([
      { name: 'Kim', worst: 1, best: 0 },
      { name: 'Zoe', worst: 1, best: 0 },
    ]);
  });
});

describe('stability through names of another length', () => {
  it('a two-token last name tagged as one entity leaves the answer unchanged (Table 3 and the run summary agree)', async () => {
    const dicts: NameDictionaries = {
      ...tinyDicts,
      first: { female: ['Anna', 'Maria'], male: [], unknown: [] },
      last: ['Lopez', 'Van Dyke'],
    };
    const longer = entityProbe({ type: 'PER', budget: 3, goal: new EntityF1Drop(), annotator: tagAnnotator, dicts });
    const r = await probeExample(longer, sentence, new QueryEngine(zoeBlindTagger).session(), new Rng(1));
    expect(r.perturbed.tokens).toEqual(['Anna', 'Van', 'Dyke', 'met', 'Anna', 'today']);
    expect(r.perturbed_prediction.tags).toEqual(['B-PER', 'I-PER', 'I-PER', 'O', 'B-PER', 'O']);
    expect(r.perturbed_gold).toEqual(['B-PER', 'I-PER', 'I-PER', 'O', 'B-PER', 'O']);
    expect([r.status, r.probe!.changed]).toEqual(['failed', 0]);
    expect(summarize([r])).toMatchObject({ stability: 1, stability_n: 1 });
  });
});

describe('sameUnderEdits', () => {
  const edit = (wordIndex: number, before: string, after: string) => ({
    type: 'entity:PER',
    field: 'tokens',
    wordIndex,
    start: 0,
    before,
    after,
  });
  it('a two-token name tagged B I and its one-token replacement tagged B answer the same', () => {
    const clean = { label: '', score: 1, tags: ['B-PER', 'I-PER', 'O', 'B-LOC'] };
    expect(sameUnderEdits(clean, { label: '', score: 1, tags: ['B-PER', 'O', 'B-LOC'] }, [edit(0, 'Maria Lopez', 'Kim')])).toBe(true);
    expect(sameUnderEdits(clean, { label: '', score: 1, tags: ['B-PER', 'O', 'O'] }, [edit(0, 'Maria Lopez', 'Kim')])).toBe(false);
    expect(sameUnderEdits(clean, { label: '', score: 1, tags: ['O', 'O', 'B-LOC'] }, [edit(0, 'Maria Lopez', 'Kim')])).toBe(false);
    // Later spans sit at their rewritten positions: the second name moved one token left.
    const two = { label: '', score: 1, tags: ['B-PER', 'I-PER', 'O', 'B-PER'] };
    expect(
      sameUnderEdits(two, { label: '', score: 1, tags: ['B-PER', 'O', 'B-PER', 'I-PER'] }, [
        edit(0, 'Maria Lopez', 'Kim'),
        edit(2, 'Ann', 'Ann Lee'),
      ]),
    ).toBe(true);
  });
  it('an answer is the same answer with the replacement undone in it', () => {
    const qa = (text: string) => ({ label: text, score: 1, answer: { text, start: 0, end: text.length } });
    const edits = [{ type: 'entity:PER', field: 'context', wordIndex: 0, start: 0, before: 'John', after: 'Maria' }];
    expect(sameUnderEdits(qa('John Smith'), qa('Maria Smith'), edits)).toBe(true);
    expect(sameUnderEdits(qa('John Smith'), qa('Smith'), edits)).toBe(false);
  });
});

describe('Table 3 of a summary written before Table 3 was over D', () => {
  it('says its rows are over every example, with no interval to show', () => {
    const legacy = {
      type: 'PER',
      budget: 8,
      annotator: 'gold',
      measure: 'accuracy',
      n: 10,
      probed: 4,
      not_applicable: 6,
      not_applicable_reasons: { 'no PER entity': 6 },
      table3: { original: { value: 0.8 }, worst: { value: 0.7 }, best: { value: 0.9 }, stability: 0.5, gap: 0.2 },
      by_frequency: null,
      by_subwords: null,
      worst_names: [],
      train_data: null,
    } as unknown as EntityDetails;
    const t = entitiesTable3(legacy);
    expect(t.title).toBe(
      'Table 3: PER names replaced, B = 8 (annotator: gold), over all 10 examples (a run from before Table 3 was over D)',
    );
    expect(t.rows[1]).toEqual(['Worst', '70.0%', '', '']);
    expect(allExamplesTable(legacy)).toBeUndefined();
  });
});
