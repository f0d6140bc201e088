import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/main.ts';
import { addRecipeOptions, recipeSettingsFrom } from '../../src/cli/derive.ts';
import { BUILTIN_RECIPES, builtinRegistry } from '../../src/families/index.ts';
import { defineRecipe, type AnyRecipe } from '../../src/recipes/registry/define.ts';
import { createRegistry } from '../../src/recipes/registry/registry.ts';
import { commandOf as commandWords, KINDS } from '../../src/kinds/index.ts';
import { stressWordsRecipe } from './fixtures/stress-words.ts';
import { settingFields } from '../../src/recipes/registry/fields.ts';
import { kebab } from '../../src/util/casing.ts';
import { ADDING, OPTIONS, README, REFERENCE, addingText, optionsText, readmeText, referenceText } from '../../scripts/gen-docs.ts';

const registry = builtinRegistry();
const program = buildProgram({ registry });
const commandOf = (def: AnyRecipe, from: Command = program): Command =>
  commandWords(def).reduce((cmd: Command, word: string) => cmd.commands.find((c: Command) => c.name() === word)!, from);

const fixture = (over: Partial<AnyRecipe> & { settings?: z.ZodObject }): AnyRecipe =>
  defineRecipe({
    name: 'fixture',
    summary: 'a test recipe',
    kind: 'attack',
    tasks: ['text-classification'],
    settings: z.strictObject({ depth: z.number().int().default(1) }),
    build: () => {
      throw new Error('not built');
    },
    ...over,
  } as AnyRecipe);

describe('the built-in recipes', () => {
  it.each(BUILTIN_RECIPES.map((d) => [d.name, d] as const))(
    '%s: settings parse from nothing, and --help lists every setting',
    (_name, def) => {
      expect(() => def.settings.parse({})).not.toThrow();
      const help = commandOf(def).helpInformation();
      for (const f of settingFields(def)) {
        if (f.hint === null) continue;
        const flag = f.shape.type === 'boolean' && f.default === true ? `--no-${kebab(f.key)}` : `--${kebab(f.key)}`;
        expect(help).toContain(flag);
      }
      expect(help).toContain('--model');
    },
  );

  it('attack grammar --help lists grammar options and not typo sources', () => {
    const help = commandOf(registry.get('grammar')).helpInformation();
    expect(help).toMatch(/--search <name>/);
    expect(help).toMatch(/--beam-width <n>/);
    expect(help).not.toMatch(/--sources/);
    expect(help).not.toMatch(/--target/);
    expect(help).not.toMatch(/--noise/);
  });

  it("each recipe's report section shows its runs: the registry maps the recipe to it, and it shows its kind's runs", () => {
    const sections = registry.sections();
    const method = { runs: 'section', stress: 'stressSection', generated: 'generatedSection' } as const;
    for (const def of registry.all()) {
      expect([def.name, sections.familyOf(def.name)]).toEqual([def.name, def.report]);
      const slot = KINDS[def.kind].finished?.slot;
      if (def.report && slot) expect([def.name, typeof def.report[method[slot]]]).toEqual([def.name, 'function']);
    }
    expect(sections.familyOf('no-such-recipe')).toBeUndefined();
    expect(sections.order).toEqual(registry.families());
  });

  it('the generated docs are up to date (regenerate: npx tsx scripts/gen-docs.ts)', () => {
    expect(readFileSync(README, 'utf8')).toBe(readmeText());
    expect(readFileSync(REFERENCE, 'utf8')).toBe(referenceText());
    expect(readFileSync(OPTIONS, 'utf8')).toBe(optionsText());
    expect(readFileSync(ADDING, 'utf8')).toBe(addingText());
  });
});

describe('derivation', () => {
  it('forwards only the flags the user typed, parsed and checked by the schema', () => {
    const def = registry.get('typos');
    const cmd = addRecipeOptions(new Command('typos').exitOverride(), def);
    cmd.parse(['--k', '3', '--sources', 'swap,mistype', '--max-candidates', '4'], { from: 'user' });
    expect(recipeSettingsFrom(cmd, def)).toEqual({ k: 3, sources: ['swap', 'mistype'], maxCandidates: 4 });
    const bad = addRecipeOptions(new Command('typos').exitOverride(), def);
    bad.parse(['--k', '1.5'], { from: 'user' });
    expect(() => recipeSettingsFrom(bad, def)).toThrow(/invalid settings for the typos recipe: --k: /);
    const curve = registry.get('typos-curve');
    const c = addRecipeOptions(new Command('c').exitOverride(), curve);
    c.parse(['--no-by-source'], { from: 'user' });
    expect(recipeSettingsFrom(c, curve)).toEqual({ bySource: false });
    const budgets = registry.get('grammar-budget-curve');
    const b = addRecipeOptions(new Command('b').exitOverride(), budgets);
    b.parse(['--budgets', '0.1,0.2'], { from: 'user' });
    expect(recipeSettingsFrom(b, budgets)).toEqual({ budgets: [0.1, 0.2] });
  });

  it('refuses declarations it cannot derive everything from', () => {
    const reg = () => createRegistry(BUILTIN_RECIPES);
    expect(() => reg().add(fixture({ name: 'Bad_Name' }))).toThrow(/kebab-case/);
    expect(() => reg().add(fixture({ settings: z.strictObject({ useHTTP: z.boolean().default(false) }) }))).toThrow(
      /"useHTTP" must be camelCase that round-trips/,
    );
    expect(() => reg().add(fixture({ settings: z.strictObject({ seed: z.number().default(1) }) }))).toThrow(
      /clash with the shared --seed option/,
    );
    expect(() => reg().add(fixture({ settings: z.strictObject({ weights: z.record(z.string(), z.number()).default({}) }) }))).toThrow(
      /"weights" has no flag form/,
    );
    expect(() =>
      reg().add(fixture({ settings: z.strictObject({ weights: z.record(z.string(), z.number()).default({}) }), cli: { weights: null } })),
    ).not.toThrow();
    expect(() => reg().add(fixture({ cli: { nope: null } as never }))).toThrow(/cli\.nope names no setting/);
    expect(() => reg().add(fixture({ name: 'typos' }))).toThrow(/registered twice/);
    expect(() => reg().add(fixture({ kind: 'experiment', verb: 'typos-curve' }))).toThrow(/both claim the verb "typos-curve"/);
    expect(() =>
      reg()
        .add(stressWordsRecipe)
        .add(fixture({ name: 'words-two', kind: 'stress', verb: 'words' })),
    ).toThrow(/both claim the verb "words"/);
    expect(() => reg().add(fixture({ tasks: [] }))).toThrow(/task kinds/);
    expect(() => reg().get('typo')).toThrow(/unknown recipe "typo" \(did you mean "typos"\?\)/);
    // Shared options that are not data/model/run groups still own their flag names.
    expect(() => reg().add(fixture({ settings: z.strictObject({ compact: z.boolean().default(false) }) }))).toThrow(
      /"compact" would clash with the shared --compact option/,
    );
    expect(() => reg().add(fixture({ settings: z.strictObject({ plugin: z.string().default('') }) }))).toThrow(
      /"plugin" would clash with the shared --plugin option/,
    );
    const two = z.strictObject({ depth: z.number().default(1), width: z.number().default(1) });
    expect(() => reg().add(fixture({ settings: two, cli: { depth: { short: 'o' } } }))).toThrow(
      /the short flag -o of "depth" is taken by a shared option/,
    );
    expect(() => reg().add(fixture({ settings: two, cli: { depth: { short: 'w' }, width: { short: 'w' } } }))).toThrow(
      /the settings "depth" and "width" both want the short flag -w/,
    );
    expect(() => reg().add(fixture({ settings: two, cli: { depth: { short: 'w' } } }))).not.toThrow();
    const metric = { description: 'x', read: () => 1 };
    expect(() => reg().add(fixture({ metrics: { stability: metric } }))).toThrow(
      /the metric "stability" would shadow the built-in gate metric/,
    );
    const withMetric = reg().add(fixture({ metrics: { fooled_rate: metric } }));
    expect(() => withMetric.add(fixture({ name: 'fixture-two', metrics: { fooled_rate: metric } }))).toThrow(
      /recipe "fixture-two": the metric "fooled_rate" is already declared by recipe "fixture"/,
    );
  });

  it('a stress recipe gets `stress <verb>` with its own flags; `attack <it>` and a misspelt suite say where to look', async () => {
    const reg = createRegistry(BUILTIN_RECIPES).add(stressWordsRecipe);
    const prog = buildProgram({ registry: reg });
    expect(commandWords(stressWordsRecipe)).toEqual(['stress', 'words']);
    const help = commandOf(stressWordsRecipe, prog).helpInformation();
    expect(help.replace(/\s+/g, ' ')).toContain('--tests <list> tests to run (default: drop-good,add-nice,worst-suffix)');
    expect(help).toMatch(/--suffixes <list>/);
    expect(prog.commands.find((c) => c.name() === 'attack')!.commands.map((c) => c.name())).not.toContain('stress-words');
    const attack = buildProgram({ registry: reg });
    attack.exitOverride();
    attack.commands.forEach((c) => c.exitOverride());
    await expect(attack.parseAsync(['node', 'textstress', 'attack', 'stress-words'])).rejects.toThrow(
      /stress-words is a stress suite, not an attack/,
    );
    await expect(attack.parseAsync(['node', 'textstress', 'stress', 'wrods'])).rejects.toThrow(
      /unknown stress suite "wrods" \(did you mean "words"\?\)/,
    );
  });

  it('a suite-only setting has no flag but is accepted in suites', () => {
    const def = fixture({ settings: z.strictObject({ weights: z.record(z.string(), z.number()).default({}) }), cli: { weights: null } });
    const cmd = addRecipeOptions(new Command('fixture'), def);
    expect(cmd.options.map((o) => o.long)).toEqual([]);
  });
});
