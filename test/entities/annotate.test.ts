import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConll } from '../../src/data/conll.ts';
import { loadMrpc } from '../../src/data/glue.ts';
import { openDataset } from '../../src/data/open.ts';
import { collect } from '../../src/data/rows.ts';
import type { Example, TokenExample } from '../../src/data/types.ts';
import { scoreAnnotator } from '../../src/entities/accuracy.ts';
import { gazetteerAnnotator, goldAnnotator, modelAnnotator } from '../../src/entities/annotate.ts';
import { loadDictionaries, type NameDictionaries } from '../../src/entities/dictionaries.ts';
import { applyPlan, planReplacement } from '../../src/entities/replace.ts';
import type { Mention } from '../../src/entities/types.ts';
import { loadModel } from '../../src/models/load.ts';
import type { ModelAdapter } from '../../src/models/types.ts';
import { TextstressError } from '../../src/util/errors.ts';
import { Rng } from '../../src/util/rng.ts';

let dicts: NameDictionaries;
let conll: TokenExample[];
beforeAll(async () => {
  dicts = await loadDictionaries();
  conll = await collect(await loadConll('test/fixtures/data/conll2003/handmade.conll'));
});

/** Type, field, offsets, text and (rounded) confidence of mentions; parts as roles. */
const part = (p: NonNullable<Mention['parts']>[number]): string => `${p.role}:${p.text}${p.gender ? `(${p.gender})` : ''}`;
const brief = (ms: readonly Mention[]): string[] =>
  ms.map(
    (m) =>
      `${m.type} ${m.field}[${m.start},${m.end}) ${m.text} ` +
      `${m.confidence.toFixed(2)}${m.subtype ? ` ${m.subtype}` : ''}${m.parts ? ` ${m.parts.map(part).join(' ')}` : ''}`,
  );

describe('goldAnnotator', () => {
  it('reads mentions from the IOB tags with confidence 1 and splits persons', async () => {
    const [a, b] = await goldAnnotator(dicts).annotate([conll[3]!, conll[0]!]);
    expect(brief(a!)).toEqual([
      'PER tokens[0,1) Garcia 1.00 last:Garcia',
      'PER tokens[11,13) Anna Keller 1.00 first:Anna(female) last:Keller',
      'LOC tokens[14,15) Germany 1.00',
    ]);
    expect(brief(b!)).toEqual([
      'PER tokens[2,3) GARCIA 1.00 last:GARCIA',
      'PER tokens[4,5) MORENO 1.00 last:MORENO',
      'LOC tokens[6,7) MADRID 1.00',
    ]);
  });

  it('gives no mentions to examples without gold tags, and loads the lists itself when none are given', async () => {
    const text: Example = { kind: 'text', id: 't', text: 'John Smith', label: 'x' };
    const out = await goldAnnotator().annotate([text, conll[10]!]);
    expect(out[0]).toEqual([]);
    expect(brief(out[1]!)).toEqual(['ORG tokens[0,1) Ajax 1.00', 'PER tokens[2,4) Marco Jansen 1.00 first:Marco(male) last:Jansen']);
  });
});

describe('gazetteerAnnotator', () => {
  const review = (id: string, text: string): Example => ({ kind: 'text', id, text, label: '1' });

  it('finds names in lower-case review text (demo/reviews.tsv style) and nothing in the demo reviews themselves', async () => {
    const g = gazetteerAnnotator(dicts);
    const [a, b] = await g.annotate([
      review('a', 'steven spielberg has made a film as good as anything from france , and john smith agrees .'),
      review('b', 'the american director makes jordan look like a mobile home .'),
    ]);
    expect(brief(a!)).toEqual([
      'PER text[0,16) steven spielberg 0.90 first:steven(male) last:spielberg',
      'LOC text[58,64) france 0.90 country',
      'PER text[71,81) john smith 0.90 first:john(male) last:smith',
    ]);
    // "jordan" is a country and a first name: less sure.
    expect(brief(b!)).toEqual(['MISC text[4,12) american 0.90', 'LOC text[28,34) jordan 0.45 country']);
    const demo = await collect(await openDataset('demo/reviews.tsv'));
    expect(demo).toHaveLength(50);
    expect((await g.annotate(demo)).flat()).toEqual([]);
  });

  it('finds capitalised names in a pair, a lone last name as the same person, and feeds a consistent plan (MRPC)', async () => {
    const mrpc = await collect(await loadMrpc('test/fixtures/data/mrpc/dev.tsv'));
    const ex = mrpc.find((e) => e.id.startsWith('132553-'))!;
    const [ms] = await gazetteerAnnotator(dicts).annotate([ex]);
    expect(brief(ms!)).toEqual([
      'PER textA[123,136) Ari Fleischer 0.90 first:Ari(male) last:Fleischer',
      'PER textB[34,43) Fleischer 0.90 last:Fleischer',
    ]);
    const plan = planReplacement(ms!, 'PER', dicts, new Rng('g1'));
    const out = applyPlan(ex, ms!, plan).example;
    const last = plan.get('last:fleischer')!;
    expect(
      out.kind === 'pair' && [out.textA.includes(`${plan.get('first:ari')} ${last} said`), out.textB.includes(`, ${last} said Bush`)],
    ).toEqual([true, true]);
  });

  it('reads LOC subtypes and companies in cased text', async () => {
    const [ms] = await gazetteerAnnotator(dicts).annotate([
      review('c', 'Shares in Siemens rose in Frankfurt and in the UK, said Tom Baker. Baker agreed.'),
    ]);
    expect(brief(ms!)).toEqual([
      'ORG text[10,17) Siemens 0.90',
      'LOC text[47,49) UK 0.90 country',
      'PER text[56,65) Tom Baker 0.90 first:Tom(male) last:Baker',
      'PER text[67,72) Baker 0.90 last:Baker',
    ]);
  });

  it('takes a middle name into a person only when it is a first name or an initial', async () => {
    const [ms] = await gazetteerAnnotator(dicts).annotate([review('d', 'Lee Boyd Malvo met Tom Hanks Oscar and John F Kennedy.')]);
    expect(ms!.map((m) => m.text)).toEqual(['Lee Boyd Malvo', 'Tom Hanks', 'John F Kennedy']);
  });
});

describe('modelAnnotator (models/demo-ner)', () => {
  let model: ModelAdapter;
  beforeAll(async () => {
    model = await loadModel('models/demo-ner');
  });
  afterAll(async () => model.close?.());

  it('maps the tagger’s word spans back to character offsets with the mean tag score as confidence', async () => {
    const ex: Example = {
      kind: 'text',
      id: 'm',
      text: 'John Carter, a spokesman for Shell, said the talks in Frankfurt went well.',
      label: '1',
    };
    const calls: number[] = [];
    const annotator = modelAnnotator(
      (inputs) => {
        calls.push(inputs.length);
        return model.predict(inputs);
      },
      { dicts },
    );
    const [ms] = await annotator.annotate([ex]);
    expect(ms!.map((m) => [m.type, m.start, m.end, m.text, m.parts?.map((p) => p.role)])).toEqual([
      ['PER', 0, 11, 'John Carter', ['first', 'last']],
      ['ORG', 29, 34, 'Shell', undefined],
      ['LOC', 54, 63, 'Frankfurt', undefined],
    ]);
    for (const m of ms!) {
      expect(ex.kind === 'text' && ex.text.slice(m.start, m.end)).toBe(m.text);
      expect(m.confidence).toBeGreaterThan(0);
      expect(m.confidence).toBeLessThanOrEqual(1);
    }
    expect(calls).toEqual([1]);
  });

  it('tags question and context, in batches, and reads lone last names as in the full name', async () => {
    const qa: Example = {
      kind: 'qa',
      id: 'q',
      question: 'Where did Maria Lopez play?',
      context: 'Maria Lopez scored twice on Sunday. Lopez was happy.',
      answers: [{ text: 'Lopez', start: 36 }],
    };
    const calls: number[] = [];
    const annotator = modelAnnotator(
      (inputs) => {
        calls.push(inputs.length);
        return model.predict(inputs);
      },
      { dicts, batchSize: 1 },
    );
    const [ms] = await annotator.annotate([qa]);
    expect(calls).toEqual([1, 1]);
    expect(ms!.map((m) => `${m.field}[${m.start},${m.end}) ${m.text} ${m.parts!.map((p) => p.role).join('+')}`)).toEqual([
      'question[10,21) Maria Lopez first+last',
      'context[0,11) Maria Lopez first+last',
      'context[36,41) Lopez last',
    ]);
  });

  it('refuses a model that does not tag words', async () => {
    const annotator = modelAnnotator(async (inputs) => inputs.map(() => ({ kind: 'classes' as const, labels: ['a'], probs: [1] })), {
      dicts,
    });
    await expect(annotator.annotate([{ kind: 'text', id: 'x', text: 'Paris', label: 'a' }])).rejects.toThrow(TextstressError);
  });
});

describe('gazetteer precision in lower-case text (issue 34 item 7)', () => {
  it('finds on the committed SST-2 dev slice the persons docs/entities-sst2-per-judged.tsv lists, and no adjective + noun', async () => {
    const rows = (await collect(await openDataset('test/fixtures/data/sst2/dev.tsv'))) as Example[];
    const found = await gazetteerAnnotator(dicts).annotate(rows);
    const mine = rows.flatMap((ex, i) => found[i]!.filter((m) => m.type === 'PER').map((m) => `${ex.id}\t${m.text}`));
    // The judged file covers all 872 dev rows; the slice is the first 400 (ids dev.tsv:2 … dev.tsv:401).
    const judged = readFileSync('docs/entities-sst2-per-judged.tsv', 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.split('\t'))
      .filter((f) => f[5] === 'yes' && Number(f[0]!.split(':')[1]) <= 401);
    expect(mine.sort()).toEqual(judged.map((f) => `${f[0]}\t${f[1]}`).sort());
    // The issue's two: "worthy environmentalism" and "even killer-thrillers" are no persons; Jane Goodall is.
    expect(mine).not.toContain('dev.tsv:39\tworthy environmentalism');
    expect(mine).not.toContain('dev.tsv:84\teven killer-thrillers');
    expect(mine).toContain('dev.tsv:39\tjane goodall');
    expect(judged.filter((f) => f[3] === 'no').map((f) => f[1])).toEqual(['lily chou-chou', 'adam larson']);
  });

  it('scores an annotator against gold tags, exact span and type, per type (scripts/annotator-accuracy.ts)', async () => {
    const s = await scoreAnnotator(gazetteerAnnotator(dicts), conll);
    const gold = await scoreAnnotator(goldAnnotator(dicts), conll);
    expect(gold.byType.all.precision.value).toBe(1);
    expect(gold.byType.all.recall.value).toBe(1);
    for (const t of ['PER', 'LOC', 'all'] as const) {
      const m = s.byType[t];
      expect(m.matched).toBeLessThanOrEqual(Math.min(m.found, m.gold));
      expect(m.precision.value).toBeCloseTo(m.matched / m.found, 12);
      expect(m.recall.value).toBeCloseTo(m.gold ? m.matched / m.gold : 0, 12);
    }
    const lower = await scoreAnnotator(gazetteerAnnotator(dicts), conll, { lowercase: true });
    expect(lower.lowercase).toBe(true);
    expect(lower.byType.all.gold).toBe(s.byType.all.gold);
  });
});
