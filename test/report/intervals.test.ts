/**
 * The report draws intervals: each headline tile shows its 95% interval and n, a figure whose interval is wider than
 * 20 points is marked "too few examples (n=…)", bars get whiskers and the accuracy-by-edits curve a band; runs
 * written before intervals still render (bare figures). Real run folders (fixtures written as the runner would).
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ExampleResult } from '../../src/core/result.ts';
import { writeHtmlReport } from '../../src/report/html/index.ts';
import { cleanVsAttackedChart, wrapLabel } from '../../src/recipes/report/charts.ts';
import { tableHtml } from '../../src/report/html/stress-runs.ts';
import { withInterval } from '../../src/metrics/show.ts';
import { bounds } from '../../src/metrics/show.ts';
import { wilson } from '../../src/stats/index.ts';
import { tmp } from '../cli/helpers.ts';
import { fakeResult, writeRun } from './fixtures.ts';

const TEXT = 'the film is a warm and quietly funny study of grief';
function results(n: number): ExampleResult[] {
  return Array.from({ length: n }, (_, i) => {
    const status = i % 10 === 0 ? 'skipped' : i % 3 === 0 ? 'succeeded' : 'failed';
    const edits =
      status === 'succeeded' ? [{ type: 'typo:swap', field: 'text', wordIndex: 1, start: 4, before: 'film', after: 'flim' }] : [];
    return fakeResult(i, { text: TEXT, status, edits, perturbed: status === 'succeeded' ? TEXT.replace('film', 'flim') : TEXT });
  });
}

describe('intervals in the HTML report', () => {
  it('show under each headline figure, marked when too few, with whiskers and bands in the charts', async () => {
    const root = tmp('report-iv');
    const small = writeRun(join(root, 'small'), 'typos', { target: 'max', k: 1 }, results(20));
    const large = writeRun(join(root, 'large'), 'noise', { noise: 'middle-random' }, results(600));
    const file = join(root, 'report.html');
    await writeHtmlReport([root], file);
    const html = readFileSync(file, 'utf8');
    // 20 examples: the clean accuracy's Wilson interval is wider than 20 points.
    const smallClean = wilson(18, 20);
    expect(small.clean_accuracy).toBe(0.9);
    expect(html).toContain(`${bounds(smallClean)} too few examples (n=20)</div>`);
    expect(html).toMatch(/<div class="ci few" title="The 95% interval is wider than 20 points/);
    // 600 examples: narrow enough to read, shown with n.
    expect(html).toContain(`${bounds(large.intervals!.clean_accuracy!)} n=600</div>`);
    expect(html).toContain(`${bounds(large.intervals!.attack_success_rate!)} n=${large.attacked}</div>`);
    // Whiskers (vega-lite errorbar → rules with caps) on the clean-vs-noisy bars; a band on the typo budget curve.
    expect(html).toMatch(/Whiskers: 95% interval\./);
    expect(html).toMatch(/Band: 95% interval \(Wilson\)\./);
    rmSync(root, { recursive: true, force: true });
  });

  it('draw whiskers only for runs that have intervals; older runs render bare', async () => {
    const root = tmp('report-old');
    const s = writeRun(join(root, 'old'), 'noise', { noise: 'middle-random' }, results(30));
    const withIv = cleanVsAttackedChart('t', 'c.', [{ name: 'a', group: 'a', summary: s, headline: head(s) } as never], () => 'a');
    expect(JSON.stringify(withIv.spec)).toContain('"errorbar"');
    const { intervals: _gone, ...old } = s;
    const bare = cleanVsAttackedChart('t', 'c.', [{ name: 'a', group: 'a', summary: old, headline: head(s) } as never], () => 'a');
    expect(JSON.stringify(bare.spec)).not.toContain('errorbar');
    expect(bare.caption).toBe('c.');
  });
});

describe('family tables', () => {
  it('mark a cell whose figure rests on too few examples', () => {
    const few = withInterval(0.5, wilson(5, 10));
    const ok = withInterval(0.5, wilson(500, 1000));
    const html = tableHtml({ title: 't', head: ['test', 'accuracy', 'other'], rows: [['negation', few, ok]] });
    expect(few).toMatch(/ too few examples \(n=10\)$/);
    expect(html).toContain(`<td class="n few">${few}</td><td class="n">${ok}</td>`);
  });
});

function head(s: { clean_accuracy: number | null; attacked_accuracy: number | null; attack_success_rate: number | null }) {
  return {
    metric: 'accuracy',
    clean: s.clean_accuracy,
    attacked: s.attacked_accuracy,
    attack_success_rate: s.attack_success_rate,
    stability: null,
    stability_n: 0,
  };
}

describe('run labels under bars (issue 34 item 16)', () => {
  it('are wrapped whole onto lines, not cut to one text: two runs that differ late stay apart', () => {
    const a = wrapLabel('middle-random (nightly-build-alpha/noise-middle-random)');
    const b = wrapLabel('middle-random (nightly-build-beta/noise-middle-random)');
    expect(a).toBe('middle-random\n(nightly-build-alpha/\nnoise-middle-random)');
    expect(b).toBe('middle-random\n(nightly-build-beta/\nnoise-middle-random)');
    expect(wrapLabel('swap')).toBe('swap');
    // Longer than three lines: the first line, then the end, where run folders differ.
    expect(wrapLabel('a/b/c/d/e/f/g/h/i/j/k/l/m/n/o/p/q/r/s/t/u/v/w/x/y/z/the-run-that-differs', 10)).toBe('a/b/c/d/e/\n…\nat-differs');
    const spec = JSON.stringify(cleanVsAttackedChart('t', 'c', [], () => '').spec);
    expect(spec).toContain('"labelExpr":"split(datum.label, \'\\\\n\')"');
  });
});
