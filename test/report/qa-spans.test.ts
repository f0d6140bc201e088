/**
 * QA answer spans in the example browser: qaCard (qa-view.ts) lays the gold answers and the model's answer of each
 * side over the context and its edits; draw.client.js, run on a stand-in document, draws them. Exact HTML.
 */
import { describe, expect, it } from 'vitest';
import type { ExampleResult } from '../../src/core/result.ts';
import { rewriteExample } from '../../src/data/rewrite.ts';
import type { QaExample } from '../../src/data/types.ts';
import { jsonForScript } from '../../src/report/html/escape.ts';
import { foldPieces, type QaPiece } from '../../src/report/html/qa-spans.ts';
import { isQaResult, qaCard } from '../../src/report/html/qa-view.ts';
import type { Edit } from '../../src/text/edits.ts';
import { fakeResult } from './fixtures.ts';
import { loadDraw } from './stub-dom.ts';

const draw = loadDraw();

/** A type list shared by one test's results, as the report builds it. */
function typeList(): { idx: (t: string) => number; types: { id: string; label: string }[] } {
  const types: { id: string; label: string }[] = [];
  const idx = (t: string): number => {
    const i = types.findIndex((x) => x.id === t);
    return i >= 0 ? i : types.push({ id: t, label: t.split(':')[1]! }) - 1;
  };
  return { idx, types };
}

type Answer = { text: string; start: number };
interface QaCase {
  context: string;
  gold: Answer[];
  before: Answer | null;
  after: Answer | null;
  question?: string;
  perturbedQuestion?: string;
  perturbedContext?: string;
  perturbedGold?: Answer[];
  edits?: Edit[];
}

/** A QA result line as the runner writes it (answers' `end` from their text). */
function qaResult(c: QaCase): ExampleResult {
  const pred = (a: Answer | null) =>
    a
      ? { label: a.text, score: 0.5, answer: { ...a, end: a.start + a.text.length }, em: 0, f1: 0.5 }
      : { label: '', score: 0, em: 0, f1: 0 };
  const question = c.question ?? 'Who won?';
  return {
    ...fakeResult(0, { text: question }),
    gold: c.gold,
    ...(c.perturbedGold ? { perturbed_gold: c.perturbedGold } : {}),
    field: 'question',
    original: { question, context: c.context },
    perturbed: { question: c.perturbedQuestion ?? question, context: c.perturbedContext ?? c.context },
    original_prediction: pred(c.before),
    perturbed_prediction: pred(c.after),
    edits: c.edits ?? [],
  };
}

/** Both sides of the context as drawn, and the card. */
function drawn(c: QaCase): { before: string; after: string; card: ReturnType<typeof qaCard> } {
  const { idx, types } = typeList();
  const card = qaCard(qaResult(c), idx);
  return { before: draw.context(card.q.c, 0, types).outerHTML, after: draw.context(card.q.c, 1, types).outerHTML, card };
}

const G = (s: string): string => `<span class="qa g" title="gold answer">${s}</span>`;
const P = (s: string): string => `<span class="qa p" title="model’s answer">${s}</span>`;
const GP = (s: string): string => `<span class="qa g p" title="gold answer and model’s answer">${s}</span>`;
const ctx = (inner: string): string => `<p class="txt ctx">${inner}</p>`;

describe('answer spans over a QA context (exact HTML)', () => {
  it('overlapping gold and predicted spans split into gold, both and predicted parts', () => {
    const context = 'The Denver Broncos won Super Bowl 50.';
    const { before, after, card } = drawn({
      context,
      gold: [{ text: 'Denver Broncos', start: 4 }],
      before: { text: 'Broncos won', start: 11 },
      after: { text: 'Super Bowl 50', start: 23 },
      perturbedQuestion: 'Whoo won?',
      edits: [{ type: 'typo:insertion', field: 'question', wordIndex: 0, start: 0, before: 'Who', after: 'Whoo' }],
    });
    expect(card.q.c).toEqual(['The ', ['Denver ', 1, 1], ['Broncos', 3, 1], [' won', 2, 0], ' ', ['Super Bowl 50', 0, 2], '.']);
    expect(before).toBe(ctx(`The ${G('Denver ')}${GP('Broncos')}${P(' won')} Super Bowl 50.`));
    // The after side draws "Denver " and "Broncos" (split by the before side's span) as one gold span.
    expect(after).toBe(ctx(`The ${G('Denver Broncos')} won ${P('Super Bowl 50')}.`));
    // The question carries the typo, as classifier texts do.
    expect(card.x).toEqual([['Who', 'Whoo', 0], ' won?']);
    expect(card.q.m).toEqual([0, 0.5, 0, 0.5]);
  });

  it('several gold answers (repeated, nested, elsewhere) are drawn as their union and listed once each', () => {
    const context = 'Played on February 7, 2016, in 2016 terms.';
    const { before, after, card } = drawn({
      context,
      gold: [
        { text: 'February 7, 2016', start: 10 },
        { text: 'February 7', start: 10 },
        { text: 'February 7, 2016', start: 10 },
        { text: '2016', start: 31 },
      ],
      before: { text: '7, 2016, in', start: 19 },
      after: null,
    });
    expect(card.q.ga).toEqual(['February 7, 2016', 'February 7', '2016']);
    expect(before).toBe(ctx(`Played on ${G('February ')}${GP('7, 2016')}${P(', in')} ${G('2016')} terms.`));
    expect(after).toBe(ctx(`Played on ${G('February 7, 2016')}, in ${G('2016')} terms.`));
    const answers = draw.answers({ b: ['7, 2016, in', 0.5], a: ['', 0], q: card.q }).outerHTML;
    expect(answers).toBe(
      '<div class="pred"><span class="k">gold answers</span><span class="qa g">February 7, 2016</span><span class="qa ' +
        'g">February 7</span><span class="qa g">2016</span>' +
        '<span class="k">model before</span><span class="qa p">7, 2016, in</span><span class="score">EM 0 · F1 0.50</span><span class="arrow">→</span>' +
        '<span class="k">after</span><i class="none">no answer</i><span class="score">EM 0 · F1 0.00</span></div>',
    );
  });

  it('after context edits, spans sit at the shifted offsets (perturbed_gold) and a span may cover part of an edit', () => {
    const context = 'In Santa Clara the Denver Broncos beat Carolina.';
    const example: QaExample = {
      kind: 'qa',
      id: 'q',
      question: 'Who won?',
      context,
      answers: [
        { text: 'Denver Broncos', start: 19 },
        { text: 'Broncos', start: 26 },
      ],
    };
    const rw = rewriteExample(example, [
      { field: 'context', start: 3, end: 8, text: 'Sanat', type: 'noise:swap' },
      { field: 'context', start: 9, end: 14, text: 'Klaraa', type: 'noise:natural' },
      { field: 'context', start: 39, end: 47, text: 'Caorlina', type: 'noise:swap' },
    ]);
    const noisy = rw.example as QaExample;
    expect(noisy.answers).toEqual([
      { text: 'Denver Broncos', start: 20 },
      { text: 'Broncos', start: 27 },
    ]);
    const { before, after, card } = drawn({
      context,
      gold: example.answers,
      perturbedContext: noisy.context,
      perturbedGold: noisy.answers,
      edits: rw.edits,
      before: { text: 'Denver Broncos', start: 19 },
      after: { text: 'beat Caor', start: 35 },
    });
    expect(card.q.c).toEqual([
      'In ',
      { b: [['Santa', 0]], a: [['Sanat', 0]], t: 0 },
      ' ',
      { b: [['Clara', 0]], a: [['Klaraa', 0]], t: 1 },
      ' the ',
      ['Denver Broncos', 3, 1],
      ' ',
      ['beat ', 0, 2],
      {
        b: [['Carolina', 0]],
        a: [
          ['Caor', 2],
          ['lina', 0],
        ],
        t: 0,
      },
      '.',
    ]);
    expect(before).toBe(
      ctx(
        'In <del class="e c0" title="noise:swap: “Santa” → “Sanat”">Santa</del> <del class="e c1" title="noise:natural: “Clara” → “Klaraa”">Clara</del> ' +
          `the ${GP('Denver Broncos')} beat <del class="e c0" title="noise:swap: “Carolina” → “Caorlina”">Carolina</del>.`,
      ),
    );
    expect(after).toBe(
      ctx(
        'In <mark class="e c0" title="noise:swap: “Santa” → “Sanat”">Sanat<span class="et">swap</span></mark> ' +
          '<mark class="e c1" title="noise:natural: “Clara” → “Klaraa”">Klaraa<span class="et">natural</span></mark> ' +
          `the ${G('Denver Broncos')} ${P('beat ')}<mark class="e c0" title="noise:swap: “Carolina” → “Caorlina”">` +
          `${P('Caor')}lina<span class="et">swap</span></mark>.`,
      ),
    );
    expect(card.q.n).toBeUndefined();
  });

  it('counts UTF-16 offsets through accents, CJK and emoji, and never splits a surrogate pair', () => {
    const context = 'Zoë 🎉 met José in 東京 😀.';
    const jose = context.indexOf('José');
    const tokyo = context.indexOf('東京');
    // A model offset inside the emoji's surrogate pair widens to the whole character.
    const half = { text: context.slice(0, 5), start: 0 };
    const { before, after } = drawn({
      context,
      gold: [{ text: 'José', start: jose }],
      before: half,
      after: { text: '東京 😀', start: tokyo },
    });
    expect(before).toBe(ctx(`${P('Zoë 🎉')} met ${G('José')} in 東京 😀.`));
    expect(after).toBe(ctx(`Zoë 🎉 met ${G('José')} in ${P('東京 😀')}.`));
  });

  it('escapes markup in the context, the answers and edit titles; the data island carries no "<"', () => {
    const context = 'Say <script>alert(1)</script> & "<b>hi</b>" now.';
    const start = context.indexOf('<b>hi</b>');
    const { idx, types } = typeList();
    const edit: Edit = { type: 'noise:swap', field: 'context', wordIndex: 0, start: 0, before: 'Say', after: '"><i>' };
    const r = qaResult({ context, gold: [{ text: '<b>hi</b>', start }], before: { text: '&', start: context.indexOf('&') }, after: null });
    const card = qaCard(
      {
        ...r,
        perturbed: { ...r.perturbed, context: `"><i>${context.slice(3)}` },
        perturbed_gold: [{ text: '<b>hi</b>', start: start + 2 }],
        edits: [edit],
      },
      idx,
    );
    const title = 'title="noise:swap: “Say” → “&quot;&gt;&lt;i&gt;”"';
    const rest = ` &lt;script&gt;alert(1)&lt;/script&gt; ${P('&amp;')} "${G('&lt;b&gt;hi&lt;/b&gt;')}" now.`;
    expect(draw.context(card.q.c, 0, types).outerHTML).toBe(ctx(`<del class="e c0" ${title}>Say</del>${rest}`));
    const restAfter = ` &lt;script&gt;alert(1)&lt;/script&gt; &amp; "${G('&lt;b&gt;hi&lt;/b&gt;')}" now.`;
    expect(draw.context(card.q.c, 1, types).outerHTML).toBe(
      ctx(`<mark class="e c0" ${title}>"&gt;&lt;i&gt;<span class="et">swap</span></mark>${restAfter}`),
    );
    expect(jsonForScript(card)).not.toMatch(/[<>&]/);
  });
});

describe('long contexts: a window around the spans, the rest folded', () => {
  const words = (n: number, w: string): string => Array.from({ length: n }, (_, i) => `${w}${i}`).join(' ');
  const context = `${words(40, 'a')} Denver Broncos ${words(40, 'b')}`;
  const start = context.indexOf('Denver');

  it('keeps `keep` characters each side of the spans, cut at word boundaries, and folds the rest', () => {
    const { idx, types } = typeList();
    const q = qaCard(qaResult({ context, gold: [{ text: 'Denver Broncos', start }], before: null, after: null }), idx, {
      keep: 30,
      minFold: 10,
    }).q;
    expect(q.c).toEqual([
      { f: [`${words(32, 'a')} `] },
      'a32 a33 a34 a35 a36 a37 a38 a39 ',
      ['Denver Broncos', 1, 1],
      ' b0 b1 b2 b3 b4 b5 b6 b7 b8 b9',
      { f: [` ${words(40, 'b').slice(' b0 b1 b2 b3 b4 b5 b6 b7 b8 b9'.length)}`] },
    ]);
    expect(draw.folds(q.c)).toBe(true);
    // The search sees the whole context, folded parts too.
    expect(draw.plain(q.c)).toBe(context);
    const html = draw.context(q.c, 0, types).outerHTML;
    expect(html).toBe(
      ctx(
        `<span class="ell" aria-hidden="true"> … </span><span class="fold">${words(32, 'a')} </span>a32 a33 a34 a35 a36 a37 a38 a39 ${G('Denver Broncos')}` +
          ` b0 b1 b2 b3 b4 b5 b6 b7 b8 b9<span class="ell" aria-hidden="true"> … </span><span class="fold"> ${words(40, 'b').slice(30)}</span>`,
      ),
    );
  });

  it('folds edits far from the spans with the text around them; edits near a span stay shown', () => {
    const short = `${words(20, 'a')} Denver Broncos ${words(20, 'b')}`;
    const gold = [{ text: 'Denver Broncos', start: short.indexOf('Denver') }];
    const at = (w: string): number => short.indexOf(` ${w} `) + 1;
    const swap = (w: string) => ({
      field: 'context' as const,
      start: at(w),
      end: at(w) + w.length,
      text: w.toUpperCase(),
      type: 'noise:swap',
    });
    const rw = rewriteExample({ kind: 'qa', id: 'q', question: 'Who won?', context: short, answers: gold }, [
      swap('a1'),
      swap('a18'),
      swap('b17'),
    ]);
    const noisy = rw.example as QaExample;
    const r = qaResult({
      context: short,
      perturbedContext: noisy.context,
      gold,
      perturbedGold: noisy.answers,
      edits: rw.edits,
      before: null,
      after: null,
    });
    const edit = (w: string) => ({ b: [[w, 0]], a: [[w.toUpperCase(), 0]], t: 0 });
    expect(qaCard(r, typeList().idx, { keep: 20, minFold: 10 }).q.c).toEqual([
      { f: ['a0 ', edit('a1'), ' a2 a3 a4 a5 a6 a7 a8 a9 a10 a11 a12 a13 a14 '] },
      'a15 a16 a17 ',
      edit('a18'),
      ' a19 ',
      ['Denver Broncos', 1, 1],
      ' b0 b1 b2 b3 b4 b5 b6',
      { f: [' b7 b8 b9 b10 b11 b12 b13 b14 b15 b16 ', edit('b17'), ' b18 b19'] },
    ]);
  });

  it('leaves out the middle of a very long fold, saying how much', () => {
    const q = qaCard(qaResult({ context, gold: [{ text: 'Denver Broncos', start }], before: null, after: null }), typeList().idx, {
      keep: 30,
      minFold: 10,
      maxFold: 40,
    }).q;
    expect(q.c[0]).toEqual({ f: ['a0 a1 a2 a3 a4 a5 a6', { cut: 78 }, 'a27 a28 a29 a30 a31 '] });
    expect(draw.context([q.c[0]!], 1, []).outerHTML).toBe(
      ctx(
        '<span class="ell" aria-hidden="true"> … </span><span class="fold">a0 a1 a2 a3 a4 a5 a6<span class="cut"> [78 ' +
          'characters not kept in this report] </span>a27 a28 a29 a30 a31 </span>',
      ),
    );
  });

  it('without spans keeps the start; folds never split an emoji', () => {
    const folded = foldPieces(['😀'.repeat(100)], { keep: 5, minFold: 10, maxFold: 41 });
    expect(folded).toEqual(['😀'.repeat(5), { f: ['😀'.repeat(10), { cut: 150 }, '😀'.repeat(10)] }]);
    const strings = (ps: readonly QaPiece[]): string[] =>
      ps.flatMap((p) => (typeof p === 'string' ? [p] : typeof p === 'object' && 'f' in p ? strings(p.f) : []));
    for (const s of strings(folded)) expect(s.isWellFormed()).toBe(true);
  });

  it('a short context is not folded', () => {
    expect(foldPieces(['short ', ['answer', 1, 1], ' here'])).toEqual(['short ', ['answer', 1, 1], ' here']);
  });
});

describe('what cannot be drawn is said, never drawn wrong', () => {
  it('a gold answer off its offset, a model answer off its offsets', () => {
    const { before, card } = drawn({
      context: 'Denver won.',
      gold: [{ text: 'Denver', start: 1 }],
      before: { text: 'won', start: 0 },
      after: null,
    });
    expect(before).toBe(ctx('Denver won.'));
    expect(card.q.n).toBe(
      'not drawn: 1 gold answer is not at its offset in the context before the attack; the model’s answer before the ' +
        'attack is not at its offsets in the context; 1 gold answer is not at its offset in the context after the ' +
        'attack',
    );
  });

  it('an edited context without perturbed_gold draws no gold after the attack', () => {
    const edit: Edit = { type: 'noise:swap', field: 'context', wordIndex: 1, start: 7, before: 'won', after: 'wno' };
    const { after, card } = drawn({
      context: 'Denver won.',
      perturbedContext: 'Denver wno.',
      edits: [edit],
      gold: [{ text: 'Denver', start: 0 }],
      before: null,
      after: null,
    });
    expect(after).toBe(ctx('Denver <mark class="e c0" title="noise:swap: “won” → “wno”">wno<span class="et">swap</span></mark>.'));
    expect(card.q.n).toBe('not drawn: the gold answers’ offsets in the edited context are not recorded (no perturbed_gold)');
  });

  it('compact results without texts keep the answers and EM/F1', () => {
    const r = {
      ...qaResult({ context: 'Denver won.', gold: [{ text: 'Denver', start: 0 }], before: { text: 'Denver', start: 0 }, after: null }),
      original: {},
      perturbed: {},
    };
    const { q } = qaCard(r, typeList().idx);
    expect(q).toEqual({
      c: [],
      ga: ['Denver'],
      m: [0, 0.5, 0, 0],
      n: 'the context is not kept in these results (compact results keep the texts of successful attacks only)',
    });
  });

  it('tells QA results from classifier results', () => {
    expect(isQaResult(qaResult({ context: 'x', gold: [{ text: 'x', start: 0 }], before: null, after: null }))).toBe(true);
    expect(isQaResult(fakeResult(0, { text: 'a fine film' }))).toBe(false);
  });
});
