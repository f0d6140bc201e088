import { beforeAll, describe, expect, it } from 'vitest';
import { loadConll } from '../../src/data/conll.ts';
import { loadMrpc } from '../../src/data/glue.ts';
import { collect } from '../../src/data/rows.ts';
import { loadSquad } from '../../src/data/squad.ts';
import type { PairExample, QaExample, TokenExample } from '../../src/data/types.ts';
import { genderOf, loadDictionaries, type NameDictionaries } from '../../src/entities/dictionaries.ts';
import { applyPlan, forcedPlan, planReplacement, replacedNames, ReplacementPlan } from '../../src/entities/replace.ts';
import type { Mention } from '../../src/entities/types.ts';
import { Rng } from '../../src/util/rng.ts';
import { tagMentions, textMentions } from './helpers.ts';

let dicts: NameDictionaries;
let conll: TokenExample[];
let news: TokenExample[];
let squad: QaExample[];
let mrpc: PairExample[];

beforeAll(async () => {
  dicts = await loadDictionaries();
  conll = await collect(await loadConll('test/fixtures/data/conll2003/handmade.conll'));
  news = await collect(await loadConll('demo/news.conll'));
  squad = await collect(await loadSquad('test/fixtures/data/squad-v1.1/dev-v1.1.json'));
  mrpc = await collect(await loadMrpc('test/fixtures/data/mrpc/dev.tsv'));
});

const tagged = (ex: TokenExample): string => ex.tokens.map((t, i) => `${t}/${ex.tags[i]}`).join(' ');

describe('planReplacement + applyPlan on CoNLL sentences', () => {
  it('replaces first names by first names of the same gender and last names by last names; tags follow', () => {
    const ex = conll[2]!; // Elena Garcia of Spain beat Lucia Moreno …
    const mentions = tagMentions(ex, dicts);
    const plan = planReplacement(mentions, 'PER', dicts, new Rng('t1'));
    expect([...plan]).toEqual([
      ['first:elena', 'Ermina'],
      ['last:garcia', 'Leffler'],
      ['first:lucia', 'Chloris'],
      ['last:moreno', 'Botsford'],
    ]);
    for (const first of ['Ermina', 'Chloris']) expect(genderOf(first)).toBe('female');
    const out = applyPlan(ex, mentions, plan);
    expect(tagged(out.example as TokenExample)).toBe(
      'Ermina/B-PER Leffler/I-PER of/O Spain/B-LOC beat/O Chloris/B-PER Botsford/I-PER 6-3/O 6-4/O in/O the/O ' +
        'second/O round/O of/O the/O Madrid/B-MISC Open/I-MISC on/O Friday/O ./O',
    );
    expect(out.edits.map((e) => [e.type, e.group, e.before, e.after, e.wordIndex])).toEqual([
      ['entity:PER', 'first:elena', 'Elena', 'Ermina', 0],
      ['entity:PER', 'last:garcia', 'Garcia', 'Leffler', 1],
      ['entity:PER', 'first:lucia', 'Lucia', 'Chloris', 5],
      ['entity:PER', 'last:moreno', 'Moreno', 'Botsford', 6],
    ]);
    // Same seed, same plan.
    expect([...planReplacement(mentions, 'PER', dicts, new Rng('t1'))]).toEqual([...plan]);
    expect(replacedNames(plan)).toEqual(['Ermina', 'Leffler', 'Chloris', 'Botsford']);
  });

  it('keeps an all-caps headline in capitals', () => {
    const ex = conll[0]!; // TENNIS - GARCIA BEATS MORENO IN MADRID .
    const mentions = tagMentions(ex, dicts);
    const plan = planReplacement(mentions, 'PER', dicts, new Rng('t1'));
    expect([...plan]).toEqual([
      ['last:garcia', 'Hauck'],
      ['last:moreno', 'Leffler'],
    ]);
    expect(tagged(applyPlan(ex, mentions, plan).example as TokenExample)).toBe(
      'TENNIS/O -/O HAUCK/B-PER BEATS/O LEFFLER/B-PER IN/O MADRID/B-LOC ./O',
    );
  });

  it('stretches the tags over a longer name: one token becomes B- I-', () => {
    const bonn = conll[17]!; // German officials said Bonn would support …
    const mentions = tagMentions(bonn, dicts);
    const plan = planReplacement(mentions, 'LOC', dicts, new Rng('b'));
    expect([...plan]).toEqual([['city:bonn', 'Oak Park']]);
    expect(tagged(applyPlan(bonn, mentions, plan).example as TokenExample)).toBe(
      'German/B-MISC officials/O said/O Oak/B-LOC Park/I-LOC would/O support/O the/O plan/O if/O the/O cost/O stayed/O low/O ./O',
    );
  });

  it('replaces companies by companies (demo/news.conll)', () => {
    const ex = news[0]!; // Maria Lopez scored twice as Valencia beat Sevilla 3 - 1 on Sunday .
    const mentions = tagMentions(ex, dicts);
    const plan = planReplacement(mentions, 'ORG', dicts, new Rng('t2'));
    expect([...plan]).toEqual([
      ['org:valencia', 'Unilever'],
      ['org:sevilla', 'Verdaccio'],
    ]);
    expect(tagged(applyPlan(ex, mentions, plan).example as TokenExample)).toBe(
      'Maria/B-PER Lopez/I-PER scored/O twice/O as/O Unilever/B-ORG beat/O Verdaccio/B-ORG 3/O -/O 1/O on/O Sunday/O ./O',
    );
  });
});

describe('consistent replacement across fields', () => {
  it('replaces a name in the question and the context the same way; a lone last name follows the full name', () => {
    const ex = squad.find((e) => e.id === '56beae423aeaaa14008c91f4')!; // How many times was Cam Newton sacked?
    const mentions = [
      ...textMentions(ex, 'question', 'PER', ['Cam Newton'], dicts),
      ...textMentions(ex, 'context', 'PER', ['Von Miller', 'Newton'], dicts),
    ];
    // "Newton" alone is in the male first-name list; the full name in the question says it is a last name here.
    expect(mentions.find((m) => m.text === 'Newton')!.parts![0]!.role).toBe('first');
    const plan = planReplacement(mentions, 'PER', dicts, new Rng('t3'));
    expect([...plan]).toEqual([
      ['first:cam', 'Hillier'],
      ['last:newton', 'Wyman'],
      ['first:von', 'Forester'],
      ['last:miller', 'Sauer'],
    ]);
    expect(genderOf('Forester')).toBe(genderOf('Von'));
    const out = applyPlan(ex, mentions, plan).example as QaExample;
    expect(out.question).toBe('How many times was Hillier Wyman sacked?');
    expect(out.context).toContain("never trailed. Wyman was limited by Denver's defense");
    expect(out.context).toContain('Denver linebacker Forester Sauer was named');
    expect(out.answers).toEqual([
      { text: 'seven', start: 123 },
      { text: 'seven', start: 123 },
      { text: 'seven', start: 123 },
    ]);
    expect(out.context.slice(123, 128)).toBe('seven');
  });

  it('moves QA answers that are the name and keeps them the new name', () => {
    const ex = squad.find((e) => e.id === '56be4eafacb8001400a50302')!; // Who was the Super Bowl 50 MVP?
    const mentions = textMentions(ex, 'context', 'PER', ['Von Miller'], dicts);
    const plan = planReplacement(mentions, 'PER', dicts, new Rng('t3'));
    const [first, last] = [plan.get('first:von')!, plan.get('last:miller')!];
    expect([first, last]).toEqual(['Hershel', 'Wyman']);
    expect(genderOf(first)).toBe('male');
    const out = applyPlan(ex, mentions, plan).example as QaExample;
    expect(out.answers).toEqual([
      { text: 'Hershel Wyman', start: 248 },
      { text: 'Hershel Wyman', start: 248 },
      { text: 'Wyman', start: 256 },
    ]);
    for (const a of out.answers) expect(out.context.slice(a.start, a.start + a.text.length)).toBe(a.text);
  });

  it('replaces a name in both sentences of a pair the same way (MRPC)', () => {
    const ex = mrpc.find((e) => e.id.startsWith('132553-'))!;
    const mentions = [
      ...textMentions(ex, 'textA', 'PER', ['Ari Fleischer', 'Bush'], dicts),
      ...textMentions(ex, 'textB', 'PER', ['Fleischer', 'Bush', 'Byrd'], dicts),
    ];
    const plan = planReplacement(mentions, 'PER', dicts, new Rng('t4'));
    expect([...plan]).toEqual([
      ['last:bush', 'Weber'],
      ['first:ari', 'Jedidiah'],
      ['last:fleischer', 'McGlynn'],
      ['last:byrd', 'Krajcik'],
    ]);
    const out = applyPlan(ex, mentions, plan).example as PairExample;
    expect(out.textA).toBe(
      'Weber wanted "to see an aircraft landing the same way that the pilots saw an aircraft landing," White House ' +
        'press secretary Jedidiah McGlynn said yesterday.',
    );
    expect(out.textB).toBe(
      "On Tuesday, before Krajcik's speech, McGlynn said Weber wanted ''to see an aircraft landing the same way that the pilots saw an aircraft landing.",
    );
  });
});

describe('forcedPlan', () => {
  it('replaces every whole mention by the given name; one token becomes three, tags follow', () => {
    const ex = conll[3]!; // Garcia , who won the title last year , will meet Anna Keller of Germany …
    const mentions = tagMentions(ex, dicts);
    const plan = forcedPlan(mentions, 'PER', 'Mary Ann Smith');
    expect([...plan]).toEqual([
      ['per:garcia', 'Mary Ann Smith'],
      ['per:anna keller', 'Mary Ann Smith'],
    ]);
    expect(tagged(applyPlan(ex, mentions, plan).example as TokenExample)).toBe(
      'Mary/B-PER Ann/I-PER Smith/I-PER ,/O who/O won/O the/O title/O last/O year/O ,/O will/O meet/O Mary/B-PER ' +
        'Ann/I-PER Smith/I-PER of/O Germany/B-LOC in/O the/O third/O round/O ./O',
    );
    expect(replacedNames(plan)).toEqual(['Mary Ann Smith']);
  });

  it('replaces locations without a subtype', () => {
    const ex = conll[0]!;
    const mentions = tagMentions(ex, dicts);
    const out = applyPlan(ex, mentions, forcedPlan(mentions, 'LOC', 'Oslo')).example as TokenExample;
    expect(out.tokens.join(' ')).toBe('TENNIS - GARCIA BEATS MORENO IN OSLO .');
  });
});

describe('never the same name', () => {
  const small = (org: string[]): NameDictionaries => ({
    first: { female: [], male: [], unknown: [] },
    last: [],
    org,
    country: [],
    countryAliases: [],
    city: [],
    misc: [],
  });
  const shell: Mention[] = [{ type: 'ORG', field: 'text', start: 0, end: 5, text: 'Shell', confidence: 1 }];

  it('draws another name, and keeps (and reports) a name whose list holds nothing else', () => {
    for (const seed of ['1', '2', '3', '4', '5'])
      expect([...planReplacement(shell, 'ORG', small(['Shell', 'BP']), new Rng(seed))]).toEqual([['org:shell', 'BP']]);
    const kept = planReplacement(shell, 'ORG', small(['Shell']), new Rng('1'));
    expect([...kept]).toEqual([]);
    expect(kept.kept).toEqual(['org:shell']);
    expect(applyPlan({ kind: 'text', id: 'x', text: 'Shell fell.', label: 'neg' }, shell, kept).edits).toEqual([]);
  });

  it('gives two distinct names two distinct new names while the list has enough', () => {
    const two: Mention[] = [...shell, { type: 'ORG', field: 'text', start: 10, end: 12, text: 'BP', confidence: 1 }];
    const plan = planReplacement(two, 'ORG', small(['Shell', 'BP', 'Total', 'Eni']), new Rng('7'));
    expect(plan).toBeInstanceOf(ReplacementPlan);
    expect(new Set(plan.values()).size).toBe(2);
    expect([...plan.keys()]).toEqual(['org:shell', 'org:bp']);
    expect([...plan.values()].sort()).toEqual(['Eni', 'Total']);
  });
});
