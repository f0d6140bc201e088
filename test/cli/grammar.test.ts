import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { collect, openDataset } from '../../src/data/index.ts';
import { DEMO_SST2, SST2_DEV, SST2_TRAIN, readJson, readJsonl, runCli, tmp } from './helpers.ts';

describe('textstress attack grammar on demo-sst2 (every search)', () => {
  const root = tmp('grammar');
  const searches = ['probabilistic', 'greedy', 'beam', 'genetic'] as const;

  it('writes the typo summary fields plus error-type counts and skip reasons, for each search', async () => {
    for (const search of searches) {
      const out = join(root, search);
      const r = await runCli([
        'attack',
        'grammar',
        '--search',
        search,
        '--model',
        DEMO_SST2,
        '--data',
        SST2_DEV,
        '--limit',
        '8',
        '--out',
        out,
        '--no-progress',
        ...(search === 'genetic' ? ['--population', '20'] : []),
      ]);
      expect(r.code, r.stderr).toBe(0);
      const s = readJson(join(out, 'summary.json'));
      for (const key of [
        'clean_accuracy',
        'attacked_accuracy',
        'attack_success_rate',
        'mean_queries',
        'cache_hit_rate',
        'n',
        'wall_seconds',
      ]) {
        expect(typeof s[key], `${search} ${key}`).toBe('number');
      }
      // A mean over successful attacks is n/a (null) when none succeeded, never 0.
      if (s.succeeded === 0) expect(s.mean_perturbed_word_pct, search).toBeNull();
      else expect(typeof s.mean_perturbed_word_pct, search).toBe('number');
      expect(s).toMatchObject({ complete: true, recipe: 'grammar', n: 8 });
      expect(s.settings).toMatchObject({ search, budget: 0.15 });
      expect(s.edit_types_in_successes).toBeTypeOf('object');
      expect(s.edit_types_all).toBeTypeOf('object');
      expect(s.skip_reasons).toBeTypeOf('object');
      for (const res of readJsonl(join(out, 'results.jsonl'))) {
        expect(res.edits.every((e) => e.type.startsWith('grammar:'))).toBe(true);
        // the 15% budget (at least one edit)
        expect(res.edits.length).toBeLessThanOrEqual(Math.max(1, Math.floor(0.15 * res.num_words)));
      }
    }
    const worst = readJson(join(root, 'greedy', 'summary.json'));
    expect(worst.attack_success_rate as number).toBeGreaterThan(0);
  });

  it('grammar-tables prints Table 3 and Table 4 from the runs', async () => {
    const r = await runCli(['grammar-tables', ...searches.map((s) => join(root, s))]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Table 3/);
    expect(r.stdout).toMatch(/demo-sst2\s+probabilistic/);
    expect(r.stdout).toMatch(/demo-sst2\s+genetic/);
    expect(r.stdout).toMatch(/sst2\/dev\.tsv/);
    expect(r.stdout).toMatch(/Table 4[\s\S]*Wchoice/);
    expect(r.stdout).toMatch(/Paired tests on the examples both runs attacked/);
    // the paired rows, checked against the runs' own results: same examples, success counts, discordant pairs
    const json = await runCli(['grammar-tables', '--json', ...searches.map((s) => join(root, s))]);
    const paired = (JSON.parse(json.stdout) as { paired: { a: string; b: string; n: number; only_a: number; only_b: number; p: number }[] })
      .paired;
    expect(paired.map((p) => `${p.a}-${p.b}`)).toEqual([
      'probabilistic-greedy',
      'probabilistic-beam',
      'probabilistic-genetic',
      'greedy-beam',
      'greedy-genetic',
      'beam-genetic',
    ]);
    const outcome = (s: string) =>
      new Map(
        readJsonl(join(root, s, 'results.jsonl'))
          .filter((x) => x.status !== 'skipped')
          .map((x) => [x.id, x.status === 'succeeded']),
      );
    for (const p of paired) {
      const a = outcome(p.a);
      const b = outcome(p.b);
      const ids = [...a.keys()].filter((id) => b.has(id));
      expect(p.n).toBe(ids.length);
      expect(p.only_a).toBe(ids.filter((id) => a.get(id) && !b.get(id)).length);
      expect(p.only_b).toBe(ids.filter((id) => !a.get(id) && b.get(id)).length);
      expect(p.p).toBeGreaterThan(0);
      expect(p.p).toBeLessThanOrEqual(1);
    }
    const bad = await runCli(['grammar-tables', tmp('empty')]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/holds no summary\.json/);
  });
});

describe('grammar: skips text it cannot read, with reasons in the summary', () => {
  it('counts non-English and word-less rows by reason', async () => {
    const dir = tmp('grammar-skip');
    const data = join(dir, 'mixed.jsonl');
    const rows = [
      { text: 'a gorgeous , witty , seductive movie .', label: 'positive' },
      { text: 'Le chat est sur la table avec les enfants et le chien.', label: 'positive' },
      { text: '東京は日本の首都です', label: 'negative' },
      { text: '12 34 56 !!!', label: 'negative' },
    ];
    writeFileSync(data, rows.map((x) => JSON.stringify(x)).join('\n') + '\n');
    const out = join(dir, 'out');
    const r = await runCli([
      'attack',
      'grammar',
      '--model',
      DEMO_SST2,
      '--data',
      data,
      '--text-column',
      'text',
      '--label-column',
      'label',
      '--out',
      out,
      '--no-progress',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const s = readJson(join(out, 'summary.json'));
    const reasons = s.skip_reasons as Record<string, number>;
    expect(reasons['grammar: not English']).toBe(2);
    expect(
      (reasons['grammar: no words the tagger can analyse'] ?? 0) + (reasons['the model already misclassifies the clean example'] ?? 0),
    ).toBeGreaterThanOrEqual(1);
  });
});

describe('grammar-budget-curve and augment', () => {
  it('budget curve: success does not fall as the allowed modification rate grows', async () => {
    const out = tmp('budget');
    const r = await runCli([
      'grammar-budget-curve',
      '--model',
      DEMO_SST2,
      '--data',
      SST2_DEV,
      '--limit',
      '12',
      '--budgets',
      '0.15,0.45',
      '--out',
      out,
      '--no-progress',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const curve = readJson(join(out, 'curve.json')) as { points: { budget: number; attack_success_rate: number }[] };
    expect(curve.points.map((p) => p.budget)).toEqual([0.15, 0.45]);
    expect(curve.points[1]!.attack_success_rate).toBeGreaterThanOrEqual(curve.points[0]!.attack_success_rate);
  });

  it('augment exports adversarial examples at proportions, in SST-2 format and JSONL, readable again', async () => {
    const out = tmp('augment');
    const r = await runCli([
      'augment',
      '--model',
      DEMO_SST2,
      '--data',
      SST2_TRAIN,
      '--limit',
      '40',
      '--proportions',
      '0.1,0.5',
      '--out',
      out,
      '--no-progress',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const m = readJson(join(out, 'manifest.json')) as {
      adversarial_examples: number;
      files: { proportion: number; requested: number; written: number; format_file: string; jsonl: string }[];
    };
    expect(m.files.map((f) => [f.proportion, f.requested])).toEqual([
      [0.1, 4],
      [0.5, 20],
    ]);
    expect(m.adversarial_examples).toBeGreaterThan(0);
    const big = m.files[1]!;
    expect(big.written).toBe(Math.min(20, m.adversarial_examples));
    const back = await collect(await openDataset(big.format_file));
    expect(back).toHaveLength(big.written);
    expect(readFileSync(big.jsonl, 'utf8').trim().split('\n')).toHaveLength(big.written);
    // The attacked set: all 40 examples, the successful adversarial versions in place of their originals.
    const attacked = m as unknown as { attacked_set: { format_file: string; replaced: number } };
    expect(attacked.attacked_set.replaced).toBe(m.adversarial_examples);
    const set = await collect(await openDataset(attacked.attacked_set.format_file));
    const original = await collect(await openDataset(SST2_TRAIN, { limit: 40 }));
    expect(set).toHaveLength(40);
    const changed = set.filter((e, i) => e.kind === 'text' && original[i]!.kind === 'text' && e.text !== original[i]!.text);
    expect(changed).toHaveLength(m.adversarial_examples);
    expect(set.map((e) => (e.kind === 'text' ? e.label : ''))).toEqual(original.map((e) => (e.kind === 'text' ? e.label : '')));
  });
});
