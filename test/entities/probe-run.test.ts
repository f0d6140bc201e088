/**
 * `textstress probe entities` end to end on the real demo models: Table 3 printed, summary details, D_worst and
 * D_best written in the input's format, parsing back with the loaders with one example per input example (those
 * not applicable unchanged); a classifier over names, QA with question and context replaced together, and the
 * suite entry with its gate metrics and report section.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ExampleResult } from '../../src/core/result.ts';
import { writeInFormat } from '../../src/data/export.ts';
import { openDataset } from '../../src/data/open.ts';
import type { Example, QaExample, TextExample, TokenExample } from '../../src/data/types.ts';
import type { RunSummary } from '../../src/metrics/summary.ts';
import type { EntityDetails } from '../../src/families/entities/table3.ts';
import { wilson } from '../../src/stats/index.ts';
import { DEMO_NER, DEMO_SST2, ROOT, runCli, tmp } from '../cli/helpers.ts';

const NEWS = join(ROOT, 'demo', 'news.conll');
const summaryOf = (dir: string): RunSummary & { details: EntityDetails } =>
  JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as RunSummary & { details: EntityDetails };
const resultsOf = (dir: string): ExampleResult[] =>
  readFileSync(join(dir, 'results.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as ExampleResult);
async function load<E extends Example>(path: string): Promise<E[]> {
  const out: E[] = [];
  for await (const e of (await openDataset(path)).examples()) out.push(e as E);
  return out;
}

describe('probe entities', () => {
  it('NER on demo/news.conll: Table 3 in entity F1, D_worst/D_best as CoNLL with tags following the names', async () => {
    const out = tmp('probe-ner');
    // Lists of our own, so the numbers do not move with the packaged name lists (the news's first names are in them).
    const list = (name: string, names: string[]): string => (
      writeFileSync(join(out, name), names.join('\n') + '\n'),
      `${name.replace('.txt', '')}=${join(out, name)}`
    );
    const lists = [
      list('female.txt', ['Anna', 'Elena', 'Karen', 'Maria', 'Sarah', 'Olga', 'Priya', 'Zoe']),
      list('male.txt', ['Ahmed', 'Carlos', 'David', 'Hans', 'Jean', 'John', 'Luis', 'Mark', 'Peter', 'Thomas', 'Kwame', 'Bjorn']),
      list('last.txt', ['Smith', 'Nguyen', 'Okafor', 'Kowalczyk', 'Haddad', 'Silva', 'Tanaka', 'Fischer']),
    ].join(',');
    const r = await runCli([
      'probe',
      'entities',
      '--model',
      DEMO_NER,
      '--data',
      NEWS,
      '--type',
      'PER',
      '--budget',
      '8',
      '--names-file',
      lists,
      '--out',
      out,
      '--no-progress',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /Table 3: PER names replaced, B = 8 \(annotator: gold\), over the 14 examples that mention PER\n\s+entity F1\s+95% interval\s+n\n[─ ]+\nOriginal\s+72\.7%\s+\[[\d.]+, [\d.]+\]\s+14\nWorst\s+38\.9%\s+\[[\d.]+, [\d.]+\]\s+14\nBest\s+85\.7%\s+\[[\d.]+, [\d.]+\]\s+14\nBest − Worst\s+46\.8%\s+\[[\d.]+, [\d.]+\]\s+14\nStability\s+14\.3%\s+\[4\.0, 39\.9\]\s+14\n14 of 40 examples probed \(D\), 26 not applicable \(no PER entity: 26\)/,
    );
    expect(r.stdout).toMatch(/Metric by the name’s subword tokens \(Figure 2\)/);
    expect(r.stdout).toContain(`D_worst: ${join(out, 'd_worst.conll')}`);
    const s = summaryOf(out);
    expect(s.recipe).toBe('entities');
    expect(s.details).toMatchObject({
      type: 'PER',
      budget: 8,
      annotator: 'gold',
      measure: 'entity F1',
      n: 40,
      probed: 14,
      not_applicable: 26,
    });
    // Seed 0, our lists: names the tagger misses cost F1; 2 of the 14 probed sentences never changed. Over D (the 14
    // sentences that name a person) the gap is far wider than over all 40, where 26 sentences count their own answer.
    const t = s.details.table3;
    expect([t.original.value, t.worst.value, t.best.value, t.gap].map((x) => x!.toFixed(3))).toEqual(['0.727', '0.389', '0.857', '0.468']);
    expect(t).toMatchObject({ n: 14, stability: 2 / 14, stability_interval: wilson(2, 14) });
    for (const row of [t.original, t.worst, t.best, t.gap_interval]) expect(row).toMatchObject({ n: 14 });
    expect(t.worst.interval).toMatchObject({ value: t.worst.value, method: 'bootstrap' });
    expect(t.worst.interval.low!).toBeLessThan(t.worst.value!);
    expect(t.worst.interval.high!).toBeGreaterThan(t.worst.value!);
    expect(s.details.all_examples).toMatchObject({
      n: 40,
      original: { value: 0.7770700636942676, n: 40 },
      worst: { value: 0.6257668711656442, n: 40 },
      best: { value: 0.8311688311688312, n: 40 },
    });
    expect(r.stdout).toContain("All 40 examples (not the paper's Table 3)");
    // Worst is `eval` on D_worst restricted to D; the whole file gives the all-examples view.
    const dWorst = await load<TokenExample>(join(out, 'd_worst.conll'));
    // Same examples, same order as the results (ids are the file's own).
    const probedAt = new Set(resultsOf(out).flatMap((x, i) => (x.probe ? [i] : [])));
    const restricted = join(out, 'd_worst-in-D.conll');
    writeFileSync(
      restricted,
      writeInFormat(
        'conll',
        (await openDataset(join(out, 'd_worst.conll'))).info,
        dWorst.filter((_, i) => probedAt.has(i)),
      )!,
    );
    const ev = async (file: string): Promise<{ n: number; entity_f1: number }> => {
      const e = await runCli(['eval', '--model', DEMO_NER, '--data', file, '--json']);
      expect(e.code, e.stderr).toBe(0);
      return JSON.parse(e.stdout) as { n: number; entity_f1: number };
    };
    expect(await ev(restricted)).toMatchObject({ n: 14, entity_f1: t.worst.value });
    expect((await ev(join(out, 'd_worst.conll'))).entity_f1).toBe(s.details.all_examples.worst.value);
    expect(s.details.worst_names.slice(0, 2)).toEqual([
      { name: 'Bjorn', worst: 5, best: 1 },
      { name: 'Nguyen', worst: 5, best: 3 },
    ]);
    expect(s.details.by_subwords!.map((b) => b.bin)).toEqual(['1', '2', '≥3']);

    const original = await load<TokenExample>(NEWS);
    const results = resultsOf(out);
    for (const [file, fields] of [
      ['d_worst.conll', (x: ExampleResult) => x.perturbed],
      ['d_best.conll', (x: ExampleResult) => x.probe?.best.fields],
    ] as const) {
      const set = await load<TokenExample>(join(out, file));
      expect(set).toHaveLength(40);
      set.forEach((e, i) => {
        const res = results[i]!;
        if (!res.probe) return expect(e.tokens).toEqual(original[i]!.tokens);
        expect(e.tokens).toEqual(fields(res)!.tokens);
        // Entity structure kept: the same types in the same order, names of the same count.
        const types = (tags: string[]) => tags.filter((g) => g.startsWith('B-')).join(' ');
        expect(types(e.tags)).toEqual(types(original[i]!.tags));
      });
    }
  }, 120_000);

  it('a classifier over names (gazetteer mentions): accuracy rows, D_worst/D_best as SST-2 TSV', async () => {
    const dir = tmp('probe-sst2');
    const data = join(dir, 'names.tsv');
    writeFileSync(
      data,
      [
        'sentence\tlabel',
        'michael caine was wonderful and the film is a joy .\t1',
        'a dull , lifeless film that wastes Sarah Parker and everyone else .\t0',
        'nothing here works .\t0',
        'Emma Stone is great , and Stone is even better .\t1',
      ].join('\n') + '\n',
    );
    const out = join(dir, 'out');
    const r = await runCli(['probe', 'entities', '--model', DEMO_SST2, '--data', data, '--budget', '6', '--out', out, '--no-progress']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /Table 3: PER names replaced, B = 6 \(annotator: gazetteer\), over the 3 examples that mention PER\n\s+accuracy\s+95% interval\s+n\n/,
    );
    const s = summaryOf(out);
    expect(s.details).toMatchObject({
      measure: 'accuracy',
      n: 4,
      probed: 3,
      not_applicable: 1,
      not_applicable_reasons: { 'no PER entity': 1 },
    });
    const results = resultsOf(out);
    expect(results[2]!.status).toBe('skipped');
    // Every mention of a name replaced the same way: both mentions of Stone get one new last name, in every variant.
    for (const text of [results[3]!.perturbed.text as string, results[3]!.probe!.best.fields.text as string]) {
      const [, first, last, again] = /^(\S+) (\S+) is great , and (\S+) is even better \.$/.exec(text)!;
      expect([first !== 'Emma', last !== 'Stone', again]).toEqual([true, true, last]);
    }
    expect(results[0]!.edits.map((e) => e.before)).toEqual(['michael', 'caine']);
    const worst = await load<TextExample>(join(out, 'd_worst.tsv'));
    expect(worst.map((e) => e.text)).toEqual(results.map((x) => x.perturbed.text));
    expect(worst[2]!.text).toBe('nothing here works .');
    expect((await load<TextExample>(join(out, 'd_best.tsv'))).map((e) => e.label)).toEqual([
      'positive',
      'negative',
      'negative',
      'positive',
    ]);
  });

  it('QA: names in question and context replaced together, answers re-mapped; pairs: both sentences alike', async () => {
    const dir = tmp('probe-qa');
    const context = 'Maria Lopez founded the company in 1990. Lopez later sold it to John Carter.';
    const squad = join(dir, 'qa.json');
    writeFileSync(
      squad,
      JSON.stringify({
        version: '1.1',
        data: [
          {
            title: 't',
            paragraphs: [
              {
                context,
                qas: [
                  { id: 'a1', question: 'Who did Maria Lopez sell the company to?', answers: [{ text: 'John Carter', answer_start: 64 }] },
                  { id: 'a2', question: 'When was the company founded?', answers: [{ text: '1990', answer_start: 35 }] },
                ],
              },
            ],
          },
        ],
      }),
    );
    const qa = await runCli([
      'probe',
      'entities',
      '--model',
      join(ROOT, 'models', 'demo-squad'),
      '--data',
      squad,
      '--budget',
      '3',
      '--out',
      join(dir, 'qa'),
      '--no-progress',
    ]);
    expect(qa.code, qa.stderr).toBe(0);
    expect(qa.stdout).toMatch(
      /\n\s+EM\s+95% interval\s+F1\s+95% interval\s+n\n[─ ]+\nOriginal\s+[\d.]+%\s+\[[\d.]+, [\d.]+\]\s+[\d.]+%\s+\[[\d.]+, [\d.]+\]\s+2\n/,
    );
    expect(summaryOf(join(dir, 'qa')).details).toMatchObject({ measure: 'EM/F1', n: 2, probed: 2 });
    const worst = await load<QaExample>(join(dir, 'qa', 'd_worst.json'));
    expect(worst).toHaveLength(2);
    const [first] = worst;
    const maria = /^Who did (\S+ \S+) sell the company to\?$/.exec(first!.question)![1]!;
    expect(first!.context.startsWith(`${maria} founded`)).toBe(true);
    expect(first!.context).toContain(`. ${maria.split(' ')[1]} later sold`);
    for (const e of worst) for (const a of e.answers) expect(e.context.slice(a.start, a.start + a.text.length)).toBe(a.text);

    const qnli = join(dir, 'pairs.tsv');
    writeFileSync(
      qnli,
      'index\tquestion\tsentence\tlabel\n0\tWhere was Maria Lopez born?\tMaria Lopez was born in Lima in ' +
        '1970.\tentailment\n1\tWhat is rain?\tRain is water.\tentailment\n',
    );
    const pair = await runCli([
      'probe',
      'entities',
      '--model',
      join(ROOT, 'models', 'demo-qnli'),
      '--data',
      qnli,
      '--budget',
      '3',
      '--out',
      join(dir, 'pair'),
      '--no-progress',
    ]);
    expect(pair.code, pair.stderr).toBe(0);
    const pairs = await load<Example & { kind: 'pair' }>(join(dir, 'pair', 'd_worst.tsv'));
    expect(pairs).toHaveLength(2);
    const name = /^Where was (\S+ \S+) born\?$/.exec(pairs[0]!.textA)![1]!;
    expect(name).not.toBe('Maria Lopez');
    expect(pairs[0]!.textB).toBe(`${name} was born in Lima in 1970.`);
    expect(pairs[1]!.textA).toBe('What is rain?');
  });
});
