/**
 * The entity probe in a suite: `recipe: entities` with snake_case settings, gate thresholds on its own metrics,
 * and the report card's section (Table 3, the worst-vs-best chart, the worst names, names highlighted as edits).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Verdict } from '../../src/report/html/types.ts';
import { ROOT, runCli, tmp } from '../cli/helpers.ts';

describe('entities in a suite', () => {
  it('runs from YAML, gates on entities_* metrics and gets its report section', async () => {
    const dir = tmp('entities-suite');
    const file = join(dir, 'suite.yaml');
    writeFileSync(
      file,
      [
        'models:',
        '  ner: demo-ner',
        'datasets:',
        `  news: { path: ${JSON.stringify(join(ROOT, 'demo', 'news.conll'))}, limit: 12 }`,
        // |D| = 5 examples mention PER: min_n 5 lets the checks on D be judged (test/suite/n-and-intervals.test.ts: below it).
        'min_n: 5',
        'tests:',
        '  - name: per-names',
        '    recipe: entities',
        '    settings: { type: PER, budget: 4, exclude_train_names: false }',
        '    thresholds:',
        '      - "entities_stability >= 0%"',
        '      - "entities_gap >= 0"',
        '      - "entities_probed > 100"',
      ].join('\n') + '\n',
    );
    const r = await runCli(['run', file, '--out', join(dir, 'out'), '--no-progress']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/Gate: FAIL — 1 of 3 checks failed/);
    expect(r.stdout).toMatch(/✗ per-names: entities_probed = 5\.000 fails > 100\.000/);
    const verdict = JSON.parse(readFileSync(join(dir, 'out', 'verdict.json'), 'utf8')) as Verdict;
    expect(verdict.checks.map((c) => [c.expr, c.passed])).toEqual([
      ['entities_stability >= 0%', true],
      ['entities_gap >= 0', true],
      ['entities_probed > 100', false],
    ]);
    const html = readFileSync(join(dir, 'out', 'report.html'), 'utf8');
    expect(html).toContain('id="fam-entities"');
    expect(html).toContain('Table 3: PER names replaced, B = 4 (annotator: gold)');
    expect(html).toContain('Worst vs best');
    expect(html).toMatch(/All \d+ examples \(not the paper(&#39;|&#x27;|')s Table 3\)/);
    // The headline card is Table 3 over D (issue 34: one number per name); the note says so and names the other view.
    expect(html).toMatch(/The headline card is Table 3: over D, the \d+ of \d+ examples that mention PER/);
    expect(html).toContain('original entity F1 (Table 3)');
    expect(html).toContain('Worst names');
    // The example browser's data carries the replaced names as typed edits.
    expect(html).toMatch(/"entity:PER"/);
    // A probe's badge counts the variants that changed the prediction instead of calling it an attack.
    expect(html).toMatch(/prediction changed in \d+ of 4|stable over 4 variants/);
  });
});
