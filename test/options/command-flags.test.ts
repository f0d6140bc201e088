/**
 * One option table: a flag that src/options/shared.ts or src/options/command.ts declares is added to a command by
 * key (`addOptions` / `addFlags` in src/cli/options.ts), never re-declared with a hand-written `.option()` carrying
 * its own parser, default and help. Commands keep `.option()` only for flags of their own that no table holds.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { addFlags, TABLE_FLAG_KEYS } from '../../src/cli/options.ts';
import { camelFromSnake } from '../../src/util/casing.ts';

const ROOT = resolve(import.meta.dirname, '..', '..');
const CLI = join(ROOT, 'src', 'cli');

// Flags spelled like a table flag that mean something else, each kept for now with its reason.
const OTHER_MEANING: Record<string, string> = {
  // A filter on cached identities (a substring), not a model to open: same word, another thing.
  'src/cli/commands/cache.ts --model': 'filter',
  // One label map per model ("model=map", repeatable), not the run's single dataset → model map.
  'src/cli/commands/compare.ts --label-map': 'per-model maps',
  // serve's port is on --host (not only 127.0.0.1), with -p and a default of 8080, not view's "any free port".
  'src/cli/commands/serve.ts --port': 'listening port',
  // Repeatable (--allow-remote a --allow-remote b) as serve's --allowed-host is, not the runs' one comma list.
  'src/cli/commands/serve.ts --allow-remote': 'repeatable',
};

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** Every hand-written `.option(…)` / `.requiredOption(…)` in src/cli: its file and long flag. */
function handWritten(): { file: string; flag: string }[] {
  return sources(CLI).flatMap((path) => {
    const file = relative(ROOT, path);
    const text = readFileSync(path, 'utf8');
    return [...text.matchAll(/\.(?:option|requiredOption)\(\s*['"`]([^'"`]*)/g)].flatMap((m) => {
      const long = /--(?:no-)?([a-z][a-z0-9-]*)/.exec(m[1]!);
      return long ? [{ file, flag: `--${long[1]!}` }] : [];
    });
  });
}

describe('one option table', () => {
  it('no command re-declares a flag that an option table declares', () => {
    const found = handWritten();
    // The scan sees the commands' own flags (a scan that matched nothing would pass).
    expect(found.map((f) => f.flag)).toEqual(expect.arrayContaining(['--title', '--alpha', '--jobs', '--plugin']));
    const keyOf = (flag: string): string => camelFromSnake(flag.slice(2).replace(/-/g, '_'));
    const redeclared = found.filter((f) => TABLE_FLAG_KEYS.includes(keyOf(f.flag)) && !OTHER_MEANING[`${f.file} ${f.flag}`]);
    expect(redeclared.map((f) => `${f.file}: ${f.flag}`)).toEqual([]);
    // An exception that no longer applies is dropped from the list.
    const stale = Object.keys(OTHER_MEANING).filter((k) => !found.some((f) => `${f.file} ${f.flag}` === k));
    expect(stale).toEqual([]);
  });

  it('a command asks for table flags by key: the table’s spelling, parser and default, or the use it states', () => {
    const cmd = addFlags(new Command('x'), {
      maxExamples: true,
      seed: { help: 'bootstrap seed', default: undefined },
      out: { help: 'where', required: true },
    });
    const [maxExamples, seed, out] = cmd.options;
    expect(maxExamples!.flags).toBe('--max-examples <n>');
    expect(maxExamples!.defaultValue).toBe(3000);
    expect(seed!.flags).toBe('-s, --seed <n>');
    expect(seed!.defaultValue).toBeUndefined();
    expect(seed!.description).toBe('bootstrap seed');
    expect(out!.mandatory).toBe(true);
    cmd.exitOverride().configureOutput({ writeErr: () => {} });
    expect(() => cmd.parse(['--max-examples', '0', '-o', 'o'], { from: 'user' })).toThrow(/--max-examples must be an integer ≥ 1/);
    expect(() => addFlags(new Command('y'), { maxExampels: true })).toThrow(/no option table declares the flag "maxExampels"/);
  });
});
