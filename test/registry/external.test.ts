/**
 * Recipes registered from outside src/ run through every surface without any src/ file changed: the CLI
 * (`--plugin`), a suite file, the gate and the report. Also the run kinds the built-in families do not use yet:
 * a probe (B variants, worst and best) and a generator (no source examples, resumable per step).
 */
import { CLASSIC_RECIPES } from '../../src/families/classic/index.ts';
import { BUILD_OPENERS } from '../../src/kinds/prepare.ts';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILTIN_RECIPES } from '../../src/families/index.ts';
import { createRegistry } from '../../src/recipes/registry/registry.ts';
import { runRecipeAs } from '../../src/kinds/run.ts';
import { runGenerator } from '../../src/kinds/generate/run.ts';
import { QueryEngine } from '../../src/query/engine.ts';
import { buildProgram } from '../../src/cli/main.ts';
import type { ExampleResult } from '../../src/core/result.ts';
import type { Generator } from '../../src/core/generate.ts';
import { lexiconModel } from '../core/helpers.ts';
import { DEMO_SST2, ROOT, runCli, tmp } from '../cli/helpers.ts';
import { evolveRecipe } from './fixtures/evolve.ts';
import { shoutRecipe } from './fixtures/shout.ts';
import { swapNamesRecipe } from './fixtures/swap-names.ts';

const FIXTURES = join(import.meta.dirname, 'fixtures');
const REVIEWS = join(ROOT, 'demo', 'reviews.tsv');
const lines = (path: string): Record<string, unknown>[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('recipes registered from outside src/', () => {
  const registry = createRegistry(BUILTIN_RECIPES).add(shoutRecipe).add(swapNamesRecipe).add(evolveRecipe);

  it('get their own CLI commands and flags from their declaration', () => {
    const program = buildProgram({ registry });
    const attack = program.commands.find((c) => c.name() === 'attack')!;
    const shout = attack.commands.find((c) => c.name() === 'shout')!;
    const help = shout.helpInformation();
    expect(help).toMatch(/-k, --k <n>\s+most words upper-cased \(default: 2\)/);
    expect(help).toMatch(/--min-letters <n>/);
    expect(help).not.toMatch(/--sources/);
    // Probes stay reachable under `attack` and have their own verb too.
    // The built-in attacks (the classic ones among them, as CLASSIC_RECIPES lists them), then the plugins'.
    const classic = CLASSIC_RECIPES.map((r) => r.name);
    expect(attack.commands.map((c) => c.name())).toEqual(['typos', 'noise', 'grammar', 'entities', ...classic, 'shout', 'swap-names']);
    expect(program.commands.find((c) => c.name() === 'probe')!.commands.map((c) => c.name())).toEqual([
      'entities',
      'layers',
      'heads',
      'cloze',
      'swap-names',
    ]);
    expect(program.commands.map((c) => c.name())).toContain('evolve');
  });

  it('run through `attack` from the command line (--plugin), with their settings recorded', async () => {
    const out = tmp('plugin-attack');
    const r = await runCli([
      '--plugin',
      join(FIXTURES, 'shout.ts'),
      'attack',
      'shout',
      '--model',
      DEMO_SST2,
      '--data',
      REVIEWS,
      '--limit',
      '12',
      '--out',
      out,
      '-k',
      '3',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as Record<string, unknown>;
    expect(summary).toMatchObject({ recipe: 'shout', n: 12, settings: { k: 3, target: 'max', minLetters: 3 } });
    expect(lines(join(out, 'results.jsonl'))).toHaveLength(12);
  });

  it('run in a suite (settings in snake_case, validated with lines), pass the gate on their own metrics, and get report sections', async () => {
    const dir = tmp('plugin-suite');
    const suite = join(dir, 'suite.yaml');
    const yaml = (minLetters: string): string => `models:
  m: ${DEMO_SST2}
datasets:
  d: { path: ${REVIEWS}, limit: 10 }
gate: []
tests:
  - name: shouting
    recipe: shout
    model: m
    dataset: d
    settings: { k: 2, ${minLetters} }
  - name: names
    recipe: swap-names
    settings: { budget: 3, names: [film, movie, story, plot] }
  - name: evolved
    recipe: evolve
    settings: { population: 6, epochs: 3, threshold: 0.5 }
    thresholds: [evolved_fraction >= 0]
min_n: 6
`;
    writeFileSync(suite, yaml('min_leters: 4'));
    const plugins = ['shout', 'swap-names', 'evolve'].flatMap((f) => ['--plugin', join(FIXTURES, `${f}.ts`)]);
    const bad = await runCli([...plugins, 'run', suite, '--out', join(dir, 'out')]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/line 11: tests\[0\]\.settings\.min_leters: unknown key "min_leters" \(did you mean "min_letters"\?\)/);

    writeFileSync(suite, yaml('min_letters: 4'));
    const r = await runCli([...plugins, 'run', suite, '--out', join(dir, 'out'), '--no-progress']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Gate: PASS — all 1 checks hold/);
    const shouted = JSON.parse(readFileSync(join(dir, 'out', 'shouting', 'summary.json'), 'utf8')) as Record<string, unknown>;
    expect(shouted.settings).toMatchObject({ k: 2, minLetters: 4 });
    const names = JSON.parse(readFileSync(join(dir, 'out', 'names', 'summary.json'), 'utf8')) as { probe?: { n: number } };
    expect(names.probe?.n).toBeGreaterThan(0);
    expect(existsSync(join(dir, 'out', 'evolved', 'steps.jsonl'))).toBe(true);
    const html = readFileSync(join(dir, 'out', 'report.html'), 'utf8');
    expect(html).toContain('id="fam-shout"');
    expect(html).toContain('Shouting');
    expect(html).toContain('id="fam-gen-evolve"');
    expect(html).toContain('mean_score per step');
  });

  it('a probe keeps the worst and the best of B consistent rewrites', async () => {
    const out = tmp('probe');
    const data = join(out, 'names.jsonl');
    writeFileSync(
      data,
      [
        { id: 'a', text: 'nolan film with nolan', label: 'negative' },
        { id: 'b', text: 'a plain film', label: 'negative' },
      ]
        .map((x) => JSON.stringify(x))
        .join('\n') + '\n',
    );
    const outcome = await runRecipeAs('probe', {
      registry,
      recipe: 'swap-names',
      settings: { budget: 8 },
      model: 'lexicon',
      data,
      textColumn: 'text',
      labelColumn: 'label',
      out,
      seed: 1,
      shared: { model: lexiconModel, engine: new QueryEngine(lexiconModel) },
    });
    const [a, b] = lines(join(out, 'results.jsonl')) as unknown as ExampleResult[];
    // "nolan … nolan" → every mention replaced by the same name; "good" or "nice" pushes the lexicon model to positive.
    expect(a!.probe!.variants).toBe(8);
    const worst = a!.perturbed.text as string;
    const best = a!.probe!.best.fields.text as string;
    expect(worst).toMatch(/^(good|nice) film with \1$/);
    expect(a!.probe!.worst_metric).toBe(0);
    expect(best).toMatch(/^(kubrick) film with \1$/);
    expect(a!.probe!.best_metric).toBe(1);
    expect(a!.edits.map((e) => [e.start, e.before, e.group])).toEqual([
      [0, 'nolan', 'nolan'],
      [worst.indexOf(' with ') + 6, 'nolan', 'nolan'],
    ]);
    expect(a!.status).toBe('succeeded');
    expect(b!.status).toBe('skipped');
    expect(b!.skip_reason).toBe('no listed name');
    expect(outcome.summary.probe).toMatchObject({ n: 1, original_metric: 1, worst_metric: 0, best_metric: 1, stability: 0 });
  });

  it('a generator resumes after a failure mid-run to exactly what an uninterrupted run writes', async () => {
    const built = await evolveRecipe.build(evolveRecipe.settings.parse({ epochs: 6, population: 6 }), {
      model: lexiconModel.info,
      task: 'text-classification',
      goal: {
        name: 'unused',
        create: () => {
          throw new Error('unused');
        },
      },
      seed: 5,
      ...BUILD_OPENERS,
    });
    const gen = built.generator as Generator<string[][]>;
    const settings = { recipe: 'evolve', model: 'lexicon', dataset: null, seed: 5, options: {} };
    const whole = tmp('gen-whole');
    const s1 = await runGenerator({ outDir: whole, generator: gen, engine: new QueryEngine(lexiconModel), settings });
    expect(s1).toMatchObject({ steps: 6, kind: 'generate' });

    const broken = tmp('gen-broken');
    let calls = 0;
    const failing: Generator<string[][]> = {
      ...gen,
      step: async (state, ctx) => {
        if (++calls === 4) throw new Error('the model went away');
        return gen.step(state, ctx);
      },
    };
    await expect(runGenerator({ outDir: broken, generator: failing, engine: new QueryEngine(lexiconModel), settings })).rejects.toThrow(
      /went away/,
    );
    expect(lines(join(broken, 'steps.jsonl'))).toHaveLength(3);
    await expect(runGenerator({ outDir: broken, generator: gen, engine: new QueryEngine(lexiconModel), settings })).rejects.toThrow(
      /already holds a run/,
    );
    const s2 = await runGenerator({ outDir: broken, generator: gen, engine: new QueryEngine(lexiconModel), settings, resume: true });
    for (const f of ['results.jsonl', 'steps.jsonl'])
      expect(readFileSync(join(broken, f), 'utf8')).toBe(readFileSync(join(whole, f), 'utf8'));
    expect({ ...s2, wall_seconds: 0 }).toEqual({ ...s1, wall_seconds: 0 });
    expect(s1.metrics.evolved_fraction).toBeGreaterThan(0);
  });
});
