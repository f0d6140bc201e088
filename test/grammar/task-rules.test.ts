import { describe, expect, it } from 'vitest';
import { attackExample } from '../../src/core/attack.ts';
import { EntityF1Drop, UntargetedClassification } from '../../src/core/goals/index.ts';
import { LabelAligner } from '../../src/core/labels.ts';
import { collect, openDataset } from '../../src/data/index.ts';
import type { Example, PairExample, TokenExample } from '../../src/data/types.ts';
import type { ModelAdapter, ModelOutput } from '../../src/models/types.ts';
import { QueryEngine } from '../../src/query/engine.ts';
import { grammarAttack, GRAMMAR_SEARCHES } from '../../src/families/grammar/attack.ts';
import { Rng } from '../../src/util/rng.ts';
import { fixtureData } from '../cli/helpers.ts';

/**
 * A pair model that is right on the untouched pair and wrong on any change, so every attack succeeds at
 * its first edit and the test sees exactly which sentence the attack edited.
 */
function memoryPairModel(examples: readonly PairExample[], labels: string[]): ModelAdapter {
  const key = (a: string, b: string): string => `${a}\u0000${b}`;
  const exact = new Set(examples.map((e) => key(e.textA, e.textB)));
  // A changed pair keeps one sentence as it was: find its gold label through that sentence.
  const byA = new Map(examples.map((e) => [e.textA, labels.indexOf(e.label)]));
  const byB = new Map(examples.map((e) => [e.textB, labels.indexOf(e.label)]));
  return {
    info: { id: 'memory', task: 'text-classification', labels },
    async predict(inputs): Promise<ModelOutput[]> {
      return inputs.map((input) => {
        if (input.kind !== 'pair') throw new Error('pairs only');
        const gold = byA.get(input.textA) ?? byB.get(input.textB) ?? 0;
        const right = exact.has(key(input.textA, input.textB));
        const rest = (right ? 0.1 : 0.95) / (labels.length - 1);
        return { kind: 'classes', labels, probs: labels.map((_, k) => (k === gold ? (right ? 0.9 : 0.05) : rest)) };
      });
    },
  };
}

async function rows(
  file: string,
  opts: Parameters<typeof openDataset>[1] = {},
): Promise<{ examples: PairExample[]; labels: string[]; name: string }> {
  const ds = await openDataset(fixtureData(file), { limit: 6, ...opts });
  const examples = (await collect(ds)) as PairExample[];
  return { examples, labels: ds.info.labelNames!, name: ds.info.name };
}

describe('grammar attacks follow the task rules on real rows', () => {
  const cases = [
    { file: 'mrpc/dev.tsv', edited: 'textA' as const, opts: {} },
    { file: 'qnli/dev.tsv', edited: 'textB' as const, opts: {} },
    { file: 'sick/SICK.txt', edited: 'textB' as const, opts: { split: 'TEST' } },
  ];
  for (const c of cases) {
    it(
      `${c.file}: edits only ` +
        `${c.edited === 'textA' ? 'sentence 1' : c.file.startsWith('qnli') ? 'sentence 2 (the answer sentence)' : 'the hypothesis'}`,
      async () => {
        const { examples, labels, name } = await rows(c.file, c.opts);
        const model = memoryPairModel(examples, labels);
        const goal = new UntargetedClassification(new LabelAligner(labels, labels));
        const other = c.edited === 'textA' ? 'textB' : 'textA';
        let edited = 0;
        for (const search of GRAMMAR_SEARCHES) {
          const attack = grammarAttack({ goal, search, subject: { dataset: name }, population: 4 });
          for (const e of examples) {
            const r = await attackExample(attack, e, new QueryEngine(model).session(), new Rng(1));
            if (r.status === 'skipped') continue;
            expect(r.field).toBe(c.edited);
            expect(r.perturbed[other]).toBe(e[other]);
            expect(r.edits.every((x) => x.field === c.edited && x.type.startsWith('grammar:'))).toBe(true);
            if (r.edits.length) edited++;
          }
        }
        expect(edited).toBeGreaterThan(0);
      },
    );
  }

  it('the user may choose the field (QNLI question)', async () => {
    const { examples, labels, name } = await rows('qnli/dev.tsv');
    const goal = new UntargetedClassification(new LabelAligner(labels, labels));
    const attack = grammarAttack({ goal, search: 'greedy', subject: { dataset: name, field: 'textA' } });
    const r = await attackExample(attack, examples[0]!, new QueryEngine(memoryPairModel(examples, labels)).session(), new Rng(1));
    expect(r.field).toBe('textA');
    expect(r.perturbed.textB).toBe(examples[0]!.textB);
  });
});

describe('NER: entity tokens are never edited and gold tags follow inserts and deletes', () => {
  /** Tags a token B-PER when it is capitalised "Smith"/"John", else O; the model is right on the clean sentence. */
  const tagger: ModelAdapter = {
    info: { id: 'tagger', task: 'token-classification', labels: ['O', 'B-PER', 'I-PER'] },
    async predict(inputs): Promise<ModelOutput[]> {
      return inputs.map((input) => {
        if (input.kind !== 'tokens') throw new Error('tokens only');
        const t = input.tokens;
        // Misses the entity when any word right before it is not "said" (so context edits can hurt).
        const tags = t.map((w, i) =>
          w === 'John' && t[i - 1] === 'said' ? 'B-PER' : w === 'Smith' && t[i - 2] === 'said' ? 'I-PER' : 'O',
        );
        return { kind: 'tags', tags, scores: tags.map(() => 0.9) };
      });
    },
  };
  const example: TokenExample = {
    kind: 'tokens',
    id: 'n1',
    tokens: ['The', 'police', 'said', 'John', 'Smith', 'left', 'the', 'old', 'house', 'in', 'the', 'morning', '.'],
    tags: ['O', 'O', 'O', 'B-PER', 'I-PER', 'O', 'O', 'O', 'O', 'O', 'O', 'O', 'O'],
  };

  it('keeps entity tokens, one token per token, and scores F1 against aligned gold tags', async () => {
    for (const search of GRAMMAR_SEARCHES) {
      const attack = grammarAttack({ goal: new EntityF1Drop(), search, multiWord: false, population: 6, budget: 0.3 });
      const r = await attackExample(attack, example as Example, new QueryEngine(tagger).session(), new Rng(2));
      expect(r.status).not.toBe('skipped');
      const tokens = r.perturbed.tokens as string[];
      expect(tokens).toContain('John');
      expect(tokens[tokens.indexOf('John') + 1]).toBe('Smith');
      expect(tokens.every((t) => !t.includes(' '))).toBe(true);
      expect(r.edits.every((e) => e.before !== 'John' && e.before !== 'Smith')).toBe(true);
      if (r.status === 'succeeded') {
        // the only way to hurt this tagger is to change the word before the entity
        expect(tokens[tokens.indexOf('John') - 1]).not.toBe('said');
      } else {
        expect(r.perturbed_prediction.entities).toEqual({ tp: 1, fp: 0, fn: 0 });
      }
    }
  });

  it('an inserted token gets the gold tag O and a deleted token takes its tag along', () => {
    const status = new EntityF1Drop().create(example, { kind: 'tags', tags: example.tags, scores: example.tags.map(() => 1) });
    // "the" deleted at 6, "very" inserted before "old": gold tags must shift with them
    const tokens = ['The', 'police', 'said', 'John', 'Smith', 'left', 'very', 'old', 'house', 'in', 'the', 'morning', '.'];
    const origin = [0, 1, 2, 3, 4, 5, -1, 7, 8, 9, 10, 11, 12];
    const tags = tokens.map((_, i) => (i === 3 ? 'B-PER' : i === 4 ? 'I-PER' : 'O'));
    const s = status.evaluate({ kind: 'tags', tags, scores: tags.map(() => 1) }, origin);
    expect(s.prediction.entities).toEqual({ tp: 1, fp: 0, fn: 0 });
    expect(s.done).toBe(false);
  });
});
