import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeHtmlReport } from '../../src/report/html/index.ts';
import type { ExampleResult } from '../../src/core/result.ts';
import { builtinRegistry } from '../../src/families/index.ts';
import { qaCard, goldTexts } from '../../src/report/html/qa-view.ts';
import { runRecipe } from '../../src/kinds/run.ts';
import { fixtureData, ROOT, readJsonl, tmp } from '../cli/helpers.ts';
import { writeFixtureRuns, XSS_IMG, XSS_SCRIPT } from './fixtures.ts';
import { runQaTypos, writeQaContextNoiseRun } from './qa-fixtures.ts';
import { loadDraw } from './stub-dom.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SHOTS = join(ROOT, 'test', '.tmp');
// A missing browser fails these checks (npm test never passes without them by accident); leaving them out is an
// explicit choice, TEXTSTRESS_SKIP_BROWSER=1, and each test is then reported as skipped with this reason.
// .ci/run installs Debian's chromium.
const OPT_OUT = process.env.TEXTSTRESS_SKIP_BROWSER === '1';
const SKIPPED = 'TEXTSTRESS_SKIP_BROWSER=1: the HTML report was not checked in a browser';
const MISSING =
  `chromium not found at ${CHROMIUM}: install Debian's chromium (apt-get install chromium), point CHROMIUM_PATH ` +
  'at a Chromium binary, or set TEXTSTRESS_SKIP_BROWSER=1 to leave these checks out (they are then reported as skipped)';

/** A browser test: skipped, with the reason, only when the user opted out; failed, saying why, without chromium. */
const browserIt = (name: string, fn: () => Promise<void>): void => {
  it(name, async (ctx) => {
    if (OPT_OUT) ctx.skip(SKIPPED);
    if (!existsSync(CHROMIUM)) throw new Error(MISSING);
    await fn();
  });
};

/** Chromium on a report file, with the page's errors collected. */
async function openReport(file: string): Promise<{ browser: Browser; page: Page; errors: string[] }> {
  const errors: string[] = [];
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--no-first-run',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await page.goto(pathToFileURL(file).href);
  await page.waitForSelector('html[data-browser="ready"]', { timeout: 10_000 });
  return { browser, page, errors };
}

describe('HTML report in a real browser (chromium, file://)', () => {
  let browser: Browser;
  let page: Page;
  let errors: string[] = [];
  let file = '';

  beforeAll(async () => {
    if (OPT_OUT || !existsSync(CHROMIUM)) return; // each test says why
    const runs = tmp('report-runs');
    writeFixtureRuns(runs);
    // A real stress run beside the attack runs: demo-sick on four SICK pairs, every NLI test.
    await runRecipe({
      registry: builtinRegistry(),
      recipe: 'stress-nli',
      settings: {},
      model: join(ROOT, 'models', 'demo-sick'),
      data: fixtureData('sick/SICK.txt'),
      split: 'TEST',
      limit: 4,
      out: join(runs, 'stress-nli'),
      seed: 0,
    });
    // And a real fooling (EFSG) run: demo-sst2, words of 200 SST-2 training sentences.
    await runRecipe({
      registry: builtinRegistry(),
      recipe: 'fooling',
      settings: { train: fixtureData('sst2/train.tsv'), population: 30, length: 6, epochs: 8 },
      model: join(ROOT, 'models', 'demo-sst2'),
      out: join(runs, 'fooling'),
      seed: 0,
    });
    // And the encoder probes on the tiny fixtures: layer probes + heads, and the cloze test (WordNet sentences).
    const tiny = (name: string): string => join(ROOT, 'test', 'fixtures', 'models', name);
    await runRecipe({
      registry: builtinRegistry(),
      recipe: 'probe-layers',
      settings: { errorTypes: 'SVA,Worder', design: 'pairs', pairs: 40, text: ['wordnet'], maxEpochs: 2, examples: 1 },
      model: tiny('tiny-bert-internals'),
      out: join(runs, 'probe-layers'),
      seed: 0,
    });
    await runRecipe({
      registry: builtinRegistry(),
      recipe: 'cloze',
      settings: { errorTypes: 'SVA,Nn', pairs: 40, text: ['wordnet'], window: 3 },
      model: tiny('tiny-bert-mlm'),
      out: join(runs, 'cloze'),
      seed: 0,
    });
    // And a real tagger attack: demo-ner, typos in four hand-made CoNLL sentences.
    await runRecipe({
      registry: builtinRegistry(),
      recipe: 'typos',
      settings: { k: 2 },
      model: join(ROOT, 'models', 'demo-ner'),
      data: fixtureData('conll2003/handmade.conll'),
      limit: 4,
      out: join(runs, 'ner-typos'),
      seed: 0,
    });
    file = join(tmp('report-html'), 'report.html');
    await writeHtmlReport([runs], file, { title: `Report card ${XSS_SCRIPT}` });
    ({ browser, page, errors } = await openReport(file));
  });

  afterAll(async () => {
    await browser?.close();
  });

  browserIt('renders headline cards, family sections with SVG charts, and the generic fallback', async () => {
    expect(await page.locator('.card').count()).toBeGreaterThanOrEqual(4);
    for (const fam of ['typos', 'noise', 'grammar', 'entity-swap']) {
      await expect.poll(() => page.locator(`section#fam-${fam}`).count()).toBe(1);
    }
    const charts = page.locator('figure.chart svg');
    expect(await charts.count()).toBeGreaterThanOrEqual(6);
    // Charts really drew marks (lines/bars), not empty frames.
    expect(await page.locator('#fam-grammar figure.chart svg path').count()).toBeGreaterThan(10);
    const titles = await page.locator('#fam-grammar figure h4').allTextContents();
    expect(titles).toEqual(
      expect.arrayContaining(['Success vs modification budget', 'Error types in successful attacks', 'Success by search method']),
    );
    expect(await page.locator('.card .m .l').allTextContents()).toContain('clean accuracy');
    expect(await page.locator('body').textContent()).toMatch(/stability/);
  });

  browserIt('shows examples with highlighted, labelled edits, and the filters work', async () => {
    const all = await page.locator('#eb-list article.ex').count();
    expect(all).toBeGreaterThan(5);
    expect(await page.locator('#eb-list mark.e .et').count()).toBeGreaterThan(0);
    await page.selectOption('#eb-family', { label: 'Grammatical errors' });
    const chips = await page.locator('#eb-list article.ex .chip').allTextContents();
    expect(chips.length).toBeGreaterThan(0);
    expect(new Set(chips)).toEqual(new Set(['Grammatical errors']));
    await page.selectOption('#eb-type', { label: 'Prep (preposition)  [grammar:Prep]' });
    const labels = await page.locator('#eb-list mark.e .et').allTextContents();
    expect(labels).toContain('Prep (preposition)');
    await page.selectOption('#eb-family', '');
    await page.selectOption('#eb-type', '');
    await page.selectOption('#eb-status', '1');
    const badges = await page.locator('#eb-list .badge').allTextContents();
    expect(badges.length).toBeGreaterThan(0);
    // The outcome filter covers stress cases too: status 1 is a failed attack, or a stress case the model held.
    expect(new Set(badges)).toEqual(new Set(['attack failed', 'held']));
    await page.selectOption('#eb-status', '');
    await page.fill('#eb-search', 'window.__pwned');
    expect(await page.locator('#eb-list article.ex').count()).toBeGreaterThanOrEqual(3);
  });

  browserIt('a fooling run gets its section: S and F per epoch on axes of their own, and its top sentences', async () => {
    const section = page.locator('section#fam-fooling');
    expect(await section.count()).toBe(1);
    const titles = await section.locator('h4').allTextContents();
    expect(titles.some((t) => /S and F per epoch$/.test(t))).toBe(true);
    expect(titles.some((t) => /highest-scoring fooling sentences$/.test(t))).toBe(true);
    expect(await section.locator('figure.chart svg [aria-roledescription="line mark"]').count()).toBe(2);
    // S (a score, with T_task) and F (a share) each on their own y axis (issue 34 item 16: they shared one).
    const axes = await section.locator('figure.chart svg [aria-roledescription="axis"] text').allTextContents();
    expect(axes).toEqual(expect.arrayContaining(['S: mean target score', 'F: fooling share']));
    expect(axes).not.toContain('S, F');
    expect(await section.textContent()).toMatch(/with T_task = 0\.\d{4} dashed/);
  });

  browserIt('encoder probes get their sections: layer × type and head × layer heat maps, attention examples, the cloze chart', async () => {
    const layers = page.locator('section#fam-probe-layers');
    expect(await layers.count()).toBe(1);
    const titles = await layers.locator('h4').allTextContents();
    expect(titles.some((t) => /probe accuracy by layer and error type \(Table 7\)$/.test(t))).toBe(true);
    expect(titles.some((t) => /attention heads that point at the error \(Figure 3\)$/.test(t))).toBe(true);
    // 2 types × 3 layers in each of the two layer heat maps, 2 layers × 2 heads in the head map
    expect(await layers.locator('figure.chart svg [aria-roledescription="rect mark"]').count()).toBe(6 + 6 + 4);
    expect(await layers.textContent()).toMatch(/Appendix E/);
    // its records are the tables above: no generic "first records" dump
    expect(titles.some((t) => /first records$/.test(t))).toBe(false);
    const cloze = page.locator('section#fam-cloze');
    expect(await cloze.locator('h4').allTextContents()).toEqual(
      expect.arrayContaining([expect.stringMatching(/likelihood drop by distance from the error \(Figure 4\)$/)]),
    );
    // one line per error type with a one-token pair (the tiny vocabulary splits many words), and the pooled line
    expect(await cloze.locator('figure.chart svg [aria-roledescription="line mark"]').count()).toBeGreaterThanOrEqual(2);
  });

  browserIt('a stress run gets its card, its section (Table 2, confusion, sweep, two charts) and its cases in the browser', async () => {
    await page.selectOption('#eb-status', '');
    await page.fill('#eb-search', '');
    const section = page.locator('section#fam-stress-nli');
    expect(await section.locator('h4').allTextContents()).toEqual(
      expect.arrayContaining([
        'Table 2: accuracy per stress test (% reduction from the original accuracy on the same pairs)',
        'Error confusion: share of gold X predicted as Y',
        'Accuracy per test',
        'Tautology sweep (Figure 2)',
      ]),
    );
    expect(await section.locator('table.stress tbody tr').first().locator('td').first().textContent()).toBe('original');
    // Bars of the accuracy chart and the sweep's lines were drawn.
    expect(await section.locator('figure.chart svg [aria-roledescription="bar"]').count()).toBeGreaterThanOrEqual(6);
    expect(await section.locator('figure.chart svg [aria-roledescription="line mark"]').count()).toBe(2);
    expect(await page.locator('.card[data-family="stress-nli"] .m .l').allTextContents()).toEqual([
      'original accuracy',
      'lowest test accuracy',
      'largest reduction',
      'tests',
    ]);
    await page.selectOption('#eb-family', { label: 'NLI stress tests' });
    const badges = await page.locator('#eb-list .badge').allTextContents();
    expect(badges.length).toBe(20);
    expect(badges.every((b) => ['broken by the test', 'held', 'wrong before and after'].includes(b))).toBe(true);
    await page.selectOption('#eb-type', { label: 'negation  [nli:negation]' });
    expect(await page.locator('#eb-list article.ex').count()).toBe(4);
    expect(new Set(await page.locator('#eb-list mark.e .et').allTextContents())).toEqual(new Set(['negation']));
    expect(await page.locator('#eb-list mark.e').first().textContent()).toMatch(/^ and false is not truenegation$/);
    await page.selectOption('#eb-family', '');
    await page.selectOption('#eb-type', '');
  });

  browserIt('shows malicious dataset strings as text and runs none of them', async () => {
    await page.fill('#eb-search', '');
    expect(await page.evaluate(() => (globalThis as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await page.locator('#eb-list img').count()).toBe(0);
    expect(await page.locator('img').count()).toBe(0);
    const listText = (await page.locator('#eb-list').textContent()) ?? '';
    expect(listText).toContain(XSS_SCRIPT);
    expect(listText).toContain(XSS_IMG);
    expect(listText).toContain('</script><!-- end');
    expect(await page.title()).toContain(XSS_SCRIPT);
    // Exactly the report's own two script elements (data island + browser script).
    expect(await page.locator('script').count()).toBe(2);
    expect(errors).toEqual([]);
    mkdirSync(SHOTS, { recursive: true });
    const shot = join(SHOTS, 'report.png');
    await page.screenshot({ path: shot, fullPage: true });
    expect(statSync(shot).size).toBeGreaterThan(10_000);
  });
  browserIt('reads at 1280 and 1440 px: nothing cut, no local absolute path, human labels, tagger tags before and after', async () => {
    const html = readFileSync(file, 'utf8');
    // The fooling run's train file and the tiny models were given as absolute paths: none reaches the page.
    expect(html).not.toContain(ROOT);
    expect(html).not.toMatch(/(?:=|>|\s)\/(?:tmp|home|work|root|Users)\//);
    for (const width of [1280, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      const cut = await page.evaluate(`[...document.querySelectorAll('body *')].filter((el) => {
        const r = el.getBoundingClientRect();
        if (r.width === 0 || el.closest('#examples')) return false;
        const cs = getComputedStyle(el);
        const scrolls = cs.overflowX === 'auto' || cs.overflowX === 'hidden' || cs.overflowX === 'scroll';
        return r.right > document.documentElement.clientWidth + 1 || (scrolls && el.scrollWidth > el.clientWidth + 1);
      }).map((el) => el.tagName + '.' + el.className + ': ' + (el.textContent || '').slice(0, 60))`);
      expect(cut, `cut at ${width} px`).toEqual([]);
    }
    await page.setViewportSize({ width: 1360, height: 900 });
    // Every tile of every card says in words what it shows (no snake_case metric keys).
    const labels = await page.locator('.card .m .l').allTextContents();
    expect(labels.length).toBeGreaterThan(10);
    expect(labels.filter((l) => /^[a-z0-9]+(_[a-z0-9]+)+/.test(l.trim()))).toEqual([]);
    // The encoder card's figures carry their intervals, and cells over a few test sentences say so.
    expect(await page.locator('section.card[data-family="probe-layers"] .m .ci').count()).toBeGreaterThanOrEqual(4);
    expect(await page.locator('section.card[data-family="probe-layers"] .m .ci.few').count()).toBeGreaterThan(0);
    expect(await page.locator('#fam-probe-layers td.few').count()).toBeGreaterThan(0);
    // A tagger example shows gold and the predicted tags before and after the edit.
    await page.selectOption('#eb-run', { label: 'ner-typos' });
    const table = page.locator('#eb-list article.ex table.tags').first();
    await expect.poll(() => table.count()).toBe(1);
    expect(await table.locator('th').allTextContents()).toEqual(['token', 'after edit', 'gold', 'predicted before', 'predicted after']);
    await page.selectOption('#eb-run', '');
  });
});

describe('QA examples of real runs on tiny-bert-qa in the report (chromium, file://)', () => {
  let browser: Browser;
  let page: Page;
  let errors: string[] = [];
  let typos: ExampleResult[] = [];
  let noise: ExampleResult[] = [];

  beforeAll(async () => {
    if (OPT_OUT || !existsSync(CHROMIUM)) return; // each test says why
    const root = tmp('report-qa');
    await runQaTypos(join(root, 'typos-qa'), 30);
    typos = readJsonl(join(root, 'typos-qa', 'results.jsonl'));
    noise = await writeQaContextNoiseRun(join(root, 'context-noise'), 12);
    const file = join(root, 'report.html');
    await writeHtmlReport([root], file);
    ({ browser, page, errors } = await openReport(file));
  });

  afterAll(async () => {
    await browser?.close();
  });

  const sides = (card: ReturnType<Page['locator']>) => [card.locator('p.ctx').nth(0), card.locator('p.ctx').nth(1)] as const;
  const spanText = async (p: ReturnType<Page['locator']>, cls: 'g' | 'p'): Promise<string> =>
    (await p.locator(`span.qa.${cls}`).allTextContents()).join('');

  browserIt('draws the gold answers and the model’s answer before and after a question typo, in distinct line styles', async () => {
    expect(await page.locator('#qa-legend').isVisible()).toBe(true);
    await page.selectOption('#eb-family', { label: 'Keyboard typos & misspellings' });
    await page.selectOption('#eb-status', '0');
    const won = typos.filter((r) => r.status === 'succeeded');
    expect(won.length).toBeGreaterThan(0);
    const cards = page.locator('#eb-list article.ex');
    expect(await cards.count()).toBe(won.length);
    for (const [i, r] of won.entries()) {
      const card = cards.nth(i);
      const [before, after] = sides(card);
      expect(await spanText(before, 'p')).toBe(r.original_prediction.answer!.text);
      expect(await spanText(after, 'p')).toBe(r.perturbed_prediction.answer!.text);
      for (const p of [before, after]) {
        expect(await p.locator('span.qa.g').first().isVisible()).toBe(true);
        expect(await p.locator('span.qa.p').first().isVisible()).toBe(true);
        const gold = await spanText(p, 'g');
        for (const t of goldTexts(r.gold)) expect(gold).toContain(t);
      }
      // The question's typo is marked and labelled as classifier edits are.
      expect(await card.locator('.texts > p.txt:not(.ctx) mark.e .et').count()).toBe(1);
      expect(await card.locator('.pred .score').allTextContents()).toEqual([
        `EM ${r.original_prediction.em} · F1 ${r.original_prediction.f1!.toFixed(2)}`,
        `EM ${r.perturbed_prediction.em} · F1 ${r.perturbed_prediction.f1!.toFixed(2)}`,
      ]);
    }
    // Gold: a solid underline; the model's answer: a dashed overline (not colour alone).
    const style = (sel: string, prop: string): Promise<string> =>
      page.evaluate(`getComputedStyle(document.querySelector('#eb-list p.ctx ${sel}')).${prop}`);
    expect(await style('span.qa.g', 'borderBottomStyle')).toBe('solid');
    expect(await style('span.qa.p', 'borderTopStyle')).toBe('dashed');
  });

  browserIt('folds a long context around the spans and expands it on demand', async () => {
    const card = page.locator('#eb-list article.ex').first();
    const fold = card.locator('p.ctx .fold').first();
    expect(await fold.count()).toBe(1);
    expect(await fold.isVisible()).toBe(false);
    const more = card.locator('button.more');
    expect(await more.getAttribute('aria-expanded')).toBe('false');
    await more.click();
    expect(await fold.isVisible()).toBe(true);
    expect(await more.getAttribute('aria-expanded')).toBe('true');
    expect(await card.locator('p.ctx .ell').first().isVisible()).toBe(false);
  });

  browserIt('context noise: edits marked in the context, gold answers at their re-mapped offsets; filters and search apply', async () => {
    await page.selectOption('#eb-family', { label: 'Recipe “qa-context-noise”' });
    await page.selectOption('#eb-status', '');
    await page.selectOption('#eb-type', { label: 'noise:natural  [noise:natural]' });
    const edited = noise.filter((r) => r.edits.length > 0);
    expect(edited.length).toBeGreaterThan(0);
    const cards = page.locator('#eb-list article.ex');
    expect(await cards.count()).toBe(edited.length);
    for (const [i, r] of edited.entries()) {
      const [before, after] = sides(cards.nth(i));
      expect(r.perturbed_gold).toBeDefined();
      expect(await before.locator('del.e').count()).toBeGreaterThan(0);
      expect(await after.locator('mark.e').count()).toBeGreaterThan(0);
      for (const t of goldTexts(r.gold)) expect(await spanText(after, 'g')).toContain(t);
      expect(await spanText(after, 'p')).toBe(r.perturbed_prediction.answer!.text);
      expect(await cards.nth(i).locator('.why').count()).toBe(r.status === 'skipped' ? 1 : 0);
    }
    await page.selectOption('#eb-type', '');
    await page.selectOption('#eb-family', '');
    // The free-text search reaches the answers and the context.
    const gold = goldTexts(typos.find((r) => r.status === 'succeeded')!.gold)[0]!;
    await page.fill('#eb-search', gold);
    expect(await page.locator('#eb-list article.ex').count()).toBeGreaterThan(0);
    // Its own card among them (others hold the text in their context).
    expect(await page.locator('#eb-list article.ex .pred .qa.g').allTextContents()).toContain(gold);
    await page.fill('#eb-search', 'no such text in any example');
    expect(await page.locator('#eb-list article.ex').count()).toBe(0);
    await page.fill('#eb-search', '');
  });

  browserIt('chromium draws the pieces exactly as the unit tests’ stand-in document does', async () => {
    const r = noise.find((x) => x.edits.length > 0 && x.original_prediction.answer)!;
    const types: { id: string; label: string }[] = [];
    const idx = (t: string): number => (types.findIndex((x) => x.id === t) + 1 || types.push({ id: t, label: t })) - 1;
    const { q } = qaCard(r, idx, { keep: 60 });
    const stub = loadDraw();
    for (const side of [0, 1] as const) {
      const real = await page.evaluate(
        ([c, s, ts]) =>
          (
            globalThis as unknown as { textstressDraw: { context(c: unknown, s: number, t: unknown): { outerHTML: string } } }
          ).textstressDraw.context(c, s, ts).outerHTML,
        [q.c, side, types] as const,
      );
      expect(real).toBe(stub.context(q.c, side, types).outerHTML);
    }
  });

  browserIt('runs without errors', async () => {
    expect(errors).toEqual([]);
    mkdirSync(SHOTS, { recursive: true });
    await page.selectOption('#eb-status', '0');
    await page.locator('#examples').screenshot({ path: join(SHOTS, 'report-qa.png') });
  });
});
