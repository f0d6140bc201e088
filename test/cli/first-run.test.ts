/**
 * Where a new user stumbled on the CLI (issue 28 part 4), each replayed: the same command twice without --out, the
 * label map, a semicolon CSV, errors in CLI words, one exit rule for runs that measured nothing, readable progress
 * figures, a did-you-mean for gate metrics, and a missing model folder named as such. (`--version` is
 * test/cli/version.test.ts.)
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { claimRunDir } from '../../src/cli/out-dir.ts';
import { demoOutDir, demoSuite } from '../../src/cli/commands/demo.ts';
import { sniffDelimiter } from '../../src/data/tabular.ts';
import { nearMetrics } from '../../src/suite/schema.ts';
import { DEMO_SST2, ROOT, readJson, runCli, tmp } from './helpers.ts';

const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

const writingTo = (stderr: string): string => /writing to (\S+) \(a new folder/.exec(stderr)?.[1] ?? '';

describe('no --out: a new folder per run', () => {
  it('`attack typos --model models/demo-sst2 --data demo/reviews.tsv` twice in a row works, each run in its own folder', async () => {
    // The command as a user types it from the repository (runs/ is git-ignored); -n keeps the test cheap.
    const args = ['attack', 'typos', '--model', 'models/demo-sst2', '--data', 'demo/reviews.tsv', '-n', '4', '--no-progress'];
    const first = await runCli(args);
    const second = await runCli(args);
    const dirs = [writingTo(first.stderr), writingTo(second.stderr)];
    made.push(...dirs.filter(Boolean).map((d) => join(ROOT, d)));
    expect(first.code, first.stderr).toBe(0);
    expect(second.code, second.stderr).toBe(0);
    for (const d of dirs) expect(d).toMatch(/^runs\/typos-\d{8}-\d{6}(-\d+)?$/);
    expect(dirs[0]).not.toBe(dirs[1]);
    for (const d of dirs) expect(readJson(join(ROOT, d, 'summary.json')).n).toBe(4);
    expect(second.stdout).toContain(`Results: ${dirs[1]}/summary.json`);
  }, 90_000);

  it('claims a folder that did not exist: the same second gives -2, -3', () => {
    const parent = tmp('claim');
    const at = new Date(2026, 10, 27, 6, 40, 12);
    expect(claimRunDir('typos', { parent, at })).toBe(join(parent, 'typos-20261127-064012'));
    expect(claimRunDir('typos', { parent, at })).toBe(join(parent, 'typos-20261127-064012-2'));
    mkdirSync(join(parent, 'typos-20261127-064012-3'));
    expect(claimRunDir('typos', { parent, at })).toBe(join(parent, 'typos-20261127-064012-4'));
  });

  it('--resume without --out says to name the folder', async () => {
    const r = await runCli(['attack', 'typos', '--model', DEMO_SST2, '--data', 'demo/reviews.tsv', '--resume']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('--resume continues a run folder: name it with --out.');
  });
});

describe('data and labels', () => {
  const dir = tmp('first-run-data');
  const posneg = join(dir, 'posneg.tsv');
  writeFileSync(posneg, 'sentence\tlabel\ngreat movie , loved it\tpos\nawful and boring\tneg\n');

  it('--label-map is echoed as written, with the likely model label', async () => {
    const r = await runCli([
      'attack',
      'typos',
      ...['--model', DEMO_SST2, '--data', 'demo/reviews.tsv', '-n', '2', '--out', join(dir, 'echo')],
      ...['--label-map', '0=negative,1=postive'],
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'textstress: error: --label-map 0=negative,1=postive does not fit: "postive" is not a label of the model ' +
        '[negative, positive] (did you mean "positive"?).',
    );
  });

  it('an SST-2-shaped TSV with pos/neg labels runs with --label-map, and says to use it without', async () => {
    const out = join(dir, 'posneg');
    const ok = await runCli([
      'attack',
      'noise',
      '--model',
      DEMO_SST2,
      '--data',
      posneg,
      '--label-map',
      'pos=positive,neg=negative',
      '--out',
      out,
    ]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(readJson(join(out, 'summary.json'))).toMatchObject({ n: 2, clean_accuracy: 1 });
    const bare = await runCli(['attack', 'noise', '--model', DEMO_SST2, '--data', posneg, '--out', join(dir, 'bare')]);
    expect(bare.code).toBe(1);
    expect(bare.stderr).toContain('posneg.tsv:2: label "pos" is not in the label set (expected one of "0", "1").');
    // Paired by name, never by position (pos=negative would swap the classes: issue 34 item 10).
    expect(bare.stderr).toContain('map each to the label of the same class with --label-map (e.g. --label-map pos=positive)');
    // CLI words, not the library's.
    expect(bare.stderr).toContain('--skip-bad-rows');
    expect(bare.stderr).not.toMatch(/skipBadRows|openDataset\(/);
  });

  it('a semicolon CSV is read by its own delimiter', async () => {
    const csv = join(dir, 'semi.csv');
    writeFileSync(csv, 'review;stars\ngreat movie, loved it;positive\nawful and boring;negative\n');
    const out = join(dir, 'semi');
    const r = await runCli(['attack', 'noise', '--model', DEMO_SST2, '--data', csv, '--label-column', 'stars', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(readJson(join(out, 'summary.json'))).toMatchObject({ n: 2, clean_accuracy: 1 });
    expect(sniffDelimiter('review;stars')).toBe(';');
    expect(sniffDelimiter('"a;b",c')).toBe(',');
    expect(sniffDelimiter('text\tlabel')).toBe('\t');
    expect(sniffDelimiter('text')).toBe(',');
  });

  it('a wrong header names --format, not a library call', async () => {
    const r = await runCli([
      'attack',
      'noise',
      '--model',
      DEMO_SST2,
      '--data',
      join(dir, 'semi.csv'),
      '--format',
      'sst2',
      '--out',
      join(dir, 'x'),
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('name it with --format (e.g. --format csv)');
    expect(r.stderr).not.toContain('openDataset(');
  });
});

describe('one exit rule: a run that measured nothing exits 1', () => {
  const dir = tmp('first-run-empty');

  it('an attack that attacked no example (typos --k 0) exits 1, names the skip reasons and writes its files (issue 34 item 11)', async () => {
    const out = join(dir, 'k0');
    const r = await runCli(['attack', 'typos', '--k', '0', '--model', DEMO_SST2, '--data', 'demo/reviews.tsv', '-n', '10', '--out', out]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'textstress: error: no example attacked: all 10 examples were skipped (nothing to edit: every word is ruled out by max-edits(0): ',
    );
    expect(r.stderr).toContain('so the attack measured nothing (attack success rate and stability are n/a).');
    expect(readJson(join(out, 'summary.json'))).toMatchObject({ n: 10, attacked: 0, attack_success_rate: null });
  });

  it('labels paired the wrong way round: the hint pairs by name, and a clean accuracy far below chance exits 1 (issue 34 item 10)', async () => {
    // The first 16 demo reviews, labelled pos / neg in a CSV.
    const rows = readFileSync(join(ROOT, 'demo', 'reviews.tsv'), 'utf8')
      .trim()
      .split('\n')
      .slice(1, 17);
    const csv = join(dir, 'posneg.csv');
    writeFileSync(csv, ['text,label', ...rows.map((l) => l.split('\t')).map(([t, y]) => `"${t}",${y === '1' ? 'pos' : 'neg'}`)].join('\n'));
    const bare = await runCli(['attack', 'noise', '--model', DEMO_SST2, '--data', csv, '--out', join(dir, 'bare')]);
    expect(bare.code).toBe(1);
    expect(bare.stderr).toContain(
      'If the names mean the same classes: --label-map "pos=positive,neg=negative" (paired by name; check it).',
    );
    const noise = (labelMap: string, out: string): ReturnType<typeof runCli> =>
      runCli(['attack', 'noise', '--model', DEMO_SST2, '--data', csv, '--label-map', labelMap, '--out', out]);
    const swapped = join(dir, 'swapped');
    const r = await noise('pos=negative,neg=positive', swapped);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /textstress: error: clean accuracy \d+\.\d% \[[\d.]+–[\d.]+\] \(n = 16\) is far below chance \(50\.0% for 2 classes/,
    );
    expect(r.stderr).toContain("the model's labels and the data's are most likely paired the wrong way round");
    const summary = readJson(join(swapped, 'summary.json'));
    expect(summary.clean_below_chance).toMatchObject({ classes: 2, chance: 0.5, n: 16 });
    expect((summary.clean_below_chance as { high: number }).high).toBeLessThan(0.5);
    // The right pairing runs and passes the check.
    const right = await noise('pos=positive,neg=negative', join(dir, 'right'));
    expect(right.code, right.stderr).toBe(0);
    expect(readJson(join(dir, 'right', 'summary.json')).clean_below_chance).toBeUndefined();
  });

  it('an attack over zero examples, and an entity probe that probed none', async () => {
    const empty = join(dir, 'empty.tsv');
    writeFileSync(empty, 'sentence\tlabel\n');
    const attack = await runCli(['attack', 'noise', '--model', DEMO_SST2, '--data', empty, '--out', join(dir, 'a')]);
    expect(attack.code).toBe(1);
    expect(attack.stderr).toContain('no examples tested');
    // The first sentence of demo/news.conll has no LOC entity: nothing to probe.
    const probe = await runCli(
      ['probe', 'entities', '--model', 'models/demo-ner', '--data', 'demo/news.conll', '-n', '1', '--type', 'LOC', '--budget', '2'].concat([
        '--no-progress',
        '--out',
        join(dir, 'p'),
      ]),
    );
    expect(probe.code).toBe(1);
    expect(probe.stdout).toContain('0 of 1 examples probed');
    expect(probe.stderr).toContain('textstress: error: nothing probed: none of the 1 examples had what the probe rewrites');
    // Its files are written all the same.
    expect(existsSync(join(dir, 'p', 'summary.json'))).toBe(true);
  }, 60_000);
});

describe('suites: readable figures, and a did-you-mean for gate metrics', () => {
  const dir = tmp('first-run-suite');
  const suite = (thresholds: string): string => {
    const file = join(dir, 'suite.yaml');
    writeFileSync(
      file,
      [
        'models:',
        `  m: ${JSON.stringify(DEMO_SST2)}`,
        'datasets:',
        `  d: { path: ${JSON.stringify(join(ROOT, 'demo', 'reviews.tsv'))}, limit: 3 }`,
        // Three examples: every check would be inconclusive at the default min_n; these tests are about the wording.
        'min_n: 1',
        'tests:',
        `  - { name: noise, recipe: noise, model: m, dataset: d, thresholds: [${thresholds}] }`,
        `  - { name: fool, recipe: fooling, model: m, settings: { train: ${JSON.stringify(join(ROOT, 'demo', 'reviews.tsv'))}, ` +
          'population: 10, length: 5, epochs: 2 } }',
      ].join('\n') + '\n',
    );
    return file;
  };

  it('an unknown metric gets the likeliest names, not the list of every metric', async () => {
    const r = await runCli(['run', suite('"succes_rate < 0.5"'), '--out', join(dir, 'bad'), '--no-progress']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('unknown metric "succes_rate" in threshold "succes_rate < 0.5" (did you mean attack_success_rate?)');
    expect(r.stderr).not.toContain('nli_tautology');
    expect(nearMetrics('stabilty', ['stability', 'clean_accuracy'])).toEqual(['stability']);
    expect(nearMetrics('zzz', ['stability'])).toEqual([]);
  });

  it("a generator's figures: 3 significant digits in its progress line, its own column in the table", async () => {
    const r = await runCli(['run', suite('"clean_metric > 0.5"'), '--out', join(dir, 'ok')]);
    expect(r.code, r.stderr).toBe(0);
    // In words and units (issue 34): no snake_case name, the share in %.
    const line = r.stderr.split('\n').find((l) => l.includes('    fool: F (fooling share)'))!;
    expect(line).toBeDefined();
    // No raw float: no figure with more than three significant digits after the point.
    expect(line).not.toMatch(/\d\.\d{4,}/);
    expect(line).toMatch(
      /fool: F \(fooling share\) \d+\.\d%, S \(mean target score\) 0\.\d+, highest target score 0\.\d+, fooling sentences, all epochs \d+/,
    );
    const table = r.stdout.split('\n');
    const header = table.find((l) => l.startsWith('test '))!;
    expect(header).toMatch(/stability\s+other figures$/);
    const fool = table.find((l) => l.startsWith('fool '))!;
    // Under "clean" (which ends where its header ends) the fooling row has nothing.
    const cleanEnd = header.indexOf('clean') + 'clean'.length;
    expect(fool.slice(cleanEnd - 5, cleanEnd).trim()).toBe('');
    expect(fool).toMatch(/F \(fooling share\) \d+\.\d% · S \(mean target score\) 0\.\d/);
  }, 60_000);
});

describe('a missing model folder', () => {
  it('`models/nope` is a folder that does not exist (not a hub lookup), naming the model folders beside it', async () => {
    const r = await runCli(['attack', 'typos', '--model', 'models/nope', '--data', 'demo/reviews.tsv']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/the model folder \S+models\/nope does not exist\. \S+models holds the model folders [^.]*demo-sst2/);
    expect(r.stderr).not.toMatch(/from the Hugging Face hub|fetch failed|hub did not give/);
    // The folder claimed for the run is not left behind empty.
    const claimed = writingTo(r.stderr);
    expect(claimed).toMatch(/^runs\/typos-/);
    expect(existsSync(join(ROOT, claimed))).toBe(false);
  });
});

describe('README says what the commands do (issue 34 item 17)', () => {
  it('the demo encoder tests as the built-in suite runs them, the offline install error, demo and compare as they behave', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8').replace(/\s+/g, ' ');
    const tests = demoSuite({ k: 3, seed: 0 }).tests;
    const cloze = tests.find((t) => t.recipe === 'cloze')!.settings as { pairs: number; errorTypes: string };
    const types = cloze.errorTypes.split(',').length;
    expect(readme).toContain(`${cloze.pairs} minimal pairs built per error type for five types, ${cloze.pairs * types} in all`);
    expect(types).toBe(5);
    const layers = tests.find((t) => t.recipe === 'probe-layers')!.settings as { sentences: number; design?: string };
    expect(layers.design ?? 'sentences').toBe('sentences');
    expect(readme).toContain(`the paper's sentence design: ${layers.sentences} sentences per error type`);
    expect(readme).not.toMatch(/150 sentence pairs/);
    expect(readme).toContain('getaddrinfo ENOTFOUND api.nuget.org');
    expect(readme).not.toContain('nothing is ever overwritten');
    expect(readme).toContain('`--overwrite` replaces `textstress-demo/`');
    expect(readme).toContain('the terminal shows the first three newly broken');
  });
});

describe('what a new user meets (issue 34 item 14)', () => {
  const dir = tmp('first-run-new-user');

  it('a misspelled required flag is named, with the flag it probably meant', async () => {
    const r = await runCli(['attack', 'typos', '--modle', DEMO_SST2, '--data', 'demo/reviews.tsv']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("error: unknown option '--modle'");
    expect(r.stderr).toContain('(Did you mean --model?)');
    expect(r.stderr).not.toContain('required option');
  });

  it('view on a folder that does not exist exits 1 saying so, and starts no server', async () => {
    const r = await runCli(['view', join(dir, 'no-such-runs')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`textstress: error: "${join(dir, 'no-such-runs')}" is not a folder: nothing to view.`);
  });

  it('demo never replaces a folder that holds files without --overwrite: a new one beside the default, a refusal for --out', async () => {
    const cwd = join(dir, 'demo-cwd');
    mkdirSync(join(cwd, 'textstress-demo'), { recursive: true });
    expect(demoOutDir({}, cwd)).toBe('textstress-demo');
    writeFileSync(join(cwd, 'textstress-demo', 'my-notes.txt'), 'mine\n');
    expect(demoOutDir({}, cwd)).toBe('textstress-demo-2');
    mkdirSync(join(cwd, 'textstress-demo-2'));
    expect(demoOutDir({}, cwd)).toBe('textstress-demo-2');
    expect(demoOutDir({ overwrite: true }, cwd)).toBe('textstress-demo');
    const mine = join(cwd, 'textstress-demo');
    const r = await runCli(['demo', '--out', mine, '--no-progress']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${mine} already holds files; the demo replaces a folder only when asked.`);
    expect(readFileSync(join(mine, 'my-notes.txt'), 'utf8')).toBe('mine\n');
  });
});
