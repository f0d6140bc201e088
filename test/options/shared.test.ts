/**
 * The shared model, data and run options are declared once (src/options/shared.ts): their flags, suite keys,
 * reserved setting names, run.json's request and the model's load options all come from that table, with one
 * spelling and one set of bounds everywhere.
 */
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { addDataOptions, addModelOptions, addRunOptions } from '../../src/cli/options.ts';
import { builtinRegistry } from '../../src/families/index.ts';
import {
  ALL_OPTIONS,
  identityOptions,
  loadOptionsOf,
  RESERVED_SETTING_KEYS,
  savedOptions,
  suiteKeyOf,
  suiteOptions,
} from '../../src/options/derive.ts';
import { parseSuite } from '../../src/suite/load.ts';
import { kebab } from '../../src/util/casing.ts';

const registry = builtinRegistry();
const program = (): Command => {
  const cmd = new Command('x').exitOverride().configureOutput({ writeErr: () => undefined, writeOut: () => undefined });
  addRunOptions(addDataOptions(addModelOptions(cmd)));
  return cmd;
};
const parse = (args: string[]): Record<string, unknown> =>
  program()
    .parse(['node', 'x', '-m', 'demo-sst2', '-d', 'f.tsv', ...args])
    .opts();
const suiteWith = (model: string, test = ''): string =>
  ['models:', `  m: { path: demo-sst2${model} }`, 'datasets:', '  d: data.tsv', 'tests:', `  - { name: t, recipe: typos${test} }`].join(
    '\n',
  );

describe('the shared options, declared once', () => {
  it('every option with a flag has it, spelled --kebab-key, in the group its table says', () => {
    const flags = program().options.map((o) => o.long);
    for (const o of ALL_OPTIONS.filter((x) => x.meta.flag)) {
      const negated = flags.includes(`--no-${kebab(o.key)}`);
      expect([o.key, negated || flags.includes(`--${kebab(o.key)}`)]).toEqual([o.key, true]);
    }
    expect(flags).toContain('--llm-temperature');
    expect(flags).toContain('--no-cache');
    expect(program().options.find((o) => o.long === '--model')?.short).toBe('-m');
  });

  it('every option in a suite file is spelled snake_case (the thing itself is `path`), in the entry its table says', () => {
    for (const entry of ['model', 'dataset', 'test'] as const) {
      for (const o of suiteOptions(entry)) {
        const key = suiteKeyOf(o);
        expect([o.key, key]).toEqual([o.key, o.meta.suite?.key ?? key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)]);
      }
    }
    const model = suiteOptions('model').map(suiteKeyOf);
    expect(model).toEqual(
      expect.arrayContaining(['path', 'llm_temperature', 'price_input', 'price_output', 'max_cost', 'label_map', 'auth_env']),
    );
    expect(suiteOptions('test').map(suiteKeyOf)).toEqual(['limit', 'seed', 'concurrency', 'compact', 'max_queries']);
    // A suite spells a model option as the table does, and the old spellings are unknown keys.
    expect(() => parseSuite(suiteWith(', llm_temperature: 0.5, price_input: 1, price_output: 2'), 's.yaml', registry)).not.toThrow();
    expect(() => parseSuite(suiteWith(', temperature: 0.5'), 's.yaml', registry)).toThrow(/temperature/);
    expect(() => parseSuite(suiteWith('', ', max_queries: 50'), 's.yaml', registry)).not.toThrow();
  });

  it('one set of bounds: a value the CLI refuses, the suite refuses too', () => {
    expect(() => parse(['--max-cost', '0'])).toThrow(/--max-cost must be a number > 0\./);
    expect(() => parseSuite(suiteWith(', max_cost: 0'), 's.yaml', registry)).toThrow(/max_cost/);
    expect(parse(['--max-cost', '0.5']).maxCost).toBe(0.5);
    expect(() => parse(['--batch-size', '0'])).toThrow(/--batch-size must be an integer ≥ 1\./);
    expect(() => parseSuite(suiteWith(', batch_size: 0'), 's.yaml', registry)).toThrow(/batch_size/);
    expect(() => parse(['--llm-temperature', '-1'])).toThrow(/--llm-temperature must be a number ≥ 0\./);
    expect(() => parse(['--shard', '2/2'])).toThrow(/--shard "2\/2" is not of the form I\/N/);
    expect(() => parse(['--format', 'xml'])).toThrow(/Allowed choices are sst2/);
    expect(parse(['--labels', 'neg, pos']).labels).toEqual(['neg', 'pos']);
    expect(parse([]).seed).toBe(0);
    expect(parse([]).concurrency).toBe(32);
  });

  it('recipe settings may not take a shared option’s name', () => {
    for (const o of ALL_OPTIONS) expect(RESERVED_SETTING_KEYS).toContain(o.key);
  });

  it('run.json keeps the saved options given, never a secret; a resume matches the identity options in table order', () => {
    const values = {
      model: 'm',
      authEnv: 'TOKEN',
      queue: 'redis://:secret@host:6379',
      data: 'd.tsv',
      textColumn: 'review',
      labelMap: 'a=b',
      skipBadRows: false,
      defence: 'r.json',
      maxQueries: 9,
      out: 'o',
      json: true,
    };
    const saved = savedOptions(values);
    expect(saved).toEqual({
      model: 'm',
      authEnv: 'TOKEN',
      defence: 'r.json',
      data: 'd.tsv',
      textColumn: 'review',
      skipBadRows: false,
      labelMap: 'a=b',
      maxQueries: 9,
    });
    expect(JSON.stringify(saved)).not.toContain('secret');
    expect(Object.keys(identityOptions(values, 'data'))).toEqual(['textColumn', 'labelMap']);
    expect(identityOptions(values, 'run')).toEqual({ defence: 'r.json', maxQueries: 9 });
  });

  it("the model's load options come from the same table", () => {
    expect(
      loadOptionsOf({
        model: 'openai:x',
        timeout: 5,
        llmTemperature: 0.2,
        labelRegex: 'x',
        batchSize: 4,
        requestConcurrency: 3,
        priceInput: 1,
      }),
    ).toEqual({
      timeoutMs: 5,
      temperature: 0.2,
      regex: 'x',
      batchSize: 4,
      maxBatchSize: 4,
      concurrency: 3,
      prices: { input: 1, output: 0 },
    });
  });
});
