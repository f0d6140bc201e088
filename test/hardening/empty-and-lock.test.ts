/**
 * Nothing tested is no pass (metrics over zero examples are n/a and fail the gate), and one folder has one writer.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { attackExample, type Attack } from '../../src/core/attack.ts';
import { editZone, maxEdits, noRepeatEdits } from '../../src/core/constraints.ts';
import { UntargetedClassification } from '../../src/core/goals/index.ts';
import { LabelAligner } from '../../src/core/labels.ts';
import { GreedyWordSearch } from '../../src/core/search/greedy-word.ts';
import type { TextExample } from '../../src/data/types.ts';
import { QueryEngine } from '../../src/query/engine.ts';
import { loadGroups } from '../../src/report/html/load.ts';
import { runAttack } from '../../src/kinds/attack/run.ts';
import { checkTest } from '../../src/suite/gate.ts';
import { lexiconModel, twoTypos } from '../core/helpers.ts';
import { DEMO_SST2, expectCleanError, runCli, tmp } from '../cli/helpers.ts';

describe('nothing tested is no pass', () => {
  it('attack over a header-only file writes n/a metrics and exits 1 saying no examples were tested', async () => {
    const dir = tmp('empty');
    const data = join(dir, 'empty.tsv');
    writeFileSync(data, 'sentence\tlabel\n');
    const r = await runCli(['attack', 'typos', '--model', DEMO_SST2, '--data', data, '--out', join(dir, 'out'), '--no-progress']);
    expect(expectCleanError(r)).toMatch(/no examples tested: the data gave 0 examples/);
    expect(r.stdout).toMatch(/clean accuracy\s+│\s+n\/a/);
    const s = JSON.parse(readFileSync(join(dir, 'out', 'summary.json'), 'utf8')) as Record<string, unknown>;
    expect(s).toMatchObject({
      n: 0,
      clean_accuracy: null,
      attacked_accuracy: null,
      attack_success_rate: null,
      stability: null,
      stability_n: 0,
      mean_queries: null,
      accuracy_by_edits: [],
    });
  });

  it('a suite over a file whose rows are all bad (skipped) fails its gate: "no examples tested", thresholds n/a', async () => {
    const dir = tmp('empty-suite');
    writeFileSync(join(dir, 'bad.tsv'), 'sentence\tlabel\nno label here\nnor here\n');
    writeFileSync(
      join(dir, 'suite.yaml'),
      `models:\n  m: ${DEMO_SST2}\ndatasets:\n  d: { path: bad.tsv, skip_bad_rows: true }\ntests:\n  - name: t\n    ` +
        `recipe: typos\n    thresholds: [stability > 0.9, attack_success_rate < 0.5]\n`,
    );
    const r = await runCli(['run', join(dir, 'suite.yaml'), '--out', join(dir, 'out'), '--no-progress']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/Gate: FAIL — 3 of 3 checks failed/);
    expect(r.stdout).toMatch(/t: no examples tested \(0 in t\)/);
    expect(r.stdout).toMatch(/stability > 0\.9 — stability is n\/a: no examples tested/);
  });

  it('a suite test that attacked no example (typos k: 0) fails its gate, with or without thresholds (issue 34 item 11)', async () => {
    const dir = tmp('k0-suite');
    writeFileSync(
      join(dir, 'suite.yaml'),
      `models:\n  m: ${DEMO_SST2}\ndatasets:\n  d: { path: ${join(import.meta.dirname, '..', '..', 'demo', 'reviews.tsv')}, limit: 6 }\n` +
        `min_n: 1\ntests:\n  - name: t\n    recipe: typos\n    settings: { k: 0 }\n`,
    );
    const r = await runCli(['run', join(dir, 'suite.yaml'), '--out', join(dir, 'out'), '--no-progress']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/t: no examples attacked \(0 in t\) — nothing was measured/);
  });

  it('a suite test whose label map swaps the classes fails its gate, saying so (issue 34 item 10)', async () => {
    const dir = tmp('swap-suite');
    writeFileSync(
      join(dir, 'suite.yaml'),
      `models:\n  m: { path: ${DEMO_SST2}, label_map: "0=positive,1=negative" }\ndatasets:\n  d: { path: ` +
        `${join(import.meta.dirname, '..', '..', 'demo', 'reviews.tsv')}, limit: 12 }\nmin_n: 1\ntests:\n  - name: t\n    recipe: noise\n`,
    );
    const r = await runCli(['run', join(dir, 'suite.yaml'), '--out', join(dir, 'out'), '--no-progress']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      /t: clean accuracy \d+\.\d% \(n = 12, upper 95% bound \d+\.\d%\) is far below chance \(50\.0% for 2 classes\) in t/,
    );
  });

  it('a threshold on stability fails with its reason when the model got no example right', async () => {
    const out = tmp('all-wrong');
    // The lexicon model calls "good" texts positive: gold says negative for every one of them.
    const items: TextExample[] = ['good film', 'good plot', 'nice and good'].map((text, i) => ({
      kind: 'text',
      id: `e${i}`,
      text,
      label: 'negative',
    }));
    const attack: Attack = {
      name: 't',
      transformation: twoTypos,
      constraints: [editZone(), noRepeatEdits, maxEdits(2)],
      goal: new UntargetedClassification(new LabelAligner(['negative', 'positive'])),
      search: new GreedyWordSearch('max'),
    };
    await runAttack({
      outDir: out,
      settings: { recipe: 'typos', model: 'lexicon', dataset: 'mem', seed: 0, options: {} },
      examples: (async function* () {
        yield* items;
      })(),
      work: (e, s, rng) => attackExample(attack, e, s, rng),
      engine: new QueryEngine(lexiconModel),
    });
    const [group] = await loadGroups([out]);
    const checks = checkTest('t', group!, ['stability > 0.5', 'clean_accuracy < 0.5'], undefined);
    expect(checks[0]).toMatchObject({
      passed: false,
      message: expect.stringMatching(/stability is n\/a: no example the model got right was attacked \(3 examples, 3 skipped\)/),
    });
    expect(checks[1]).toMatchObject({ passed: true });
  });
});
