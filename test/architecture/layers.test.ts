/**
 * The source tree's dependency rules, checked on the real files. The layers README states, top to bottom:
 *   cli → suite → report → queue → kinds → runner → families → recipes → defence
 *     → core · metrics · perturb · entities → options → query → models · data → text · util · stats
 * Every import (static, re-export, type-only and dynamic) goes down this list or stays in its layer, and the
 * folders import each other without a cycle. A family (src/families/<name>/) imports no other family, and opens no
 * model and runs no query itself (no value import from models/ or query/: those reach it through its contexts).
 * Outside src/kinds/, no file compares a recipe's kind with a literal (`kind === 'attack'`, `case 'probe':`); the
 * indirect forms (a second kind table, a kind guessed from a summary's figures or a result's `probe` field) are
 * checked on the syntax trees in kinds.test.ts.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '..', '..', 'src');

/** The layers, top first; folders in one layer may import each other (without a cycle). */
const LAYERS: readonly (readonly string[])[] = [
  ['cli'],
  ['suite'],
  ['report'],
  ['queue'],
  ['kinds'],
  ['runner'],
  ['families'],
  ['recipes'],
  ['defence'],
  ['core', 'metrics', 'perturb', 'entities'],
  ['options'],
  ['query'],
  ['models', 'data'],
  ['text', 'util', 'stats'],
];
/** Line counts: past REVIEW a file needs a reviewed entry in LONG_FILES; past HARD it must be split. */
const REVIEW = 450;
const HARD = 600;
/** Files over REVIEW lines, each with the one concept that keeps it whole (path under src/ → concept). */
const LONG_FILES: Readonly<Record<string, string>> = {};
/** The package's entry points, which re-export from every layer. */
const ENTRIES = ['index', 'internal'];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}

interface Import {
  target: string;
  /** `import type` / `export type`: no code of the target runs. */
  typeOnly: boolean;
}

/** Relative imports of a file (static, re-exports, type-only and dynamic), resolved to paths. */
function importsOf(file: string): Import[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(import|export)(\s+type)?[^'";]*?(?:from\s*|\(\s*)'(\.{1,2}\/[^']+)'/g)].map((m) => ({
    target: resolve(dirname(file), m[3]!),
    typeOnly: m[2] !== undefined,
  }));
}

const top = (path: string): string => relative(SRC, path).split('/')[0]!.replace(/\.ts$/, '');
const layerOf = (folder: string): number => LAYERS.findIndex((l) => l.includes(folder));
const SOURCES = files(SRC);

describe('source layers', () => {
  it('every folder of src/ has its place in the layers', () => {
    const folders = [...new Set(SOURCES.map(top))].filter((f) => !ENTRIES.includes(f));
    expect(folders.filter((f) => layerOf(f) < 0)).toEqual([]);
  });

  it('imports go down the layers (or stay in one)', () => {
    const upward = SOURCES.flatMap((f) => {
      const from = top(f);
      if (ENTRIES.includes(from)) return [];
      return importsOf(f)
        .map((i) => top(i.target))
        .filter((to) => to !== from && layerOf(to) < layerOf(from))
        .map((to) => `${relative(SRC, f)} → ${to}/`);
    });
    expect(upward).toEqual([]);
  });

  it('nothing outside src/cli imports from src/cli', () => {
    const offenders = SOURCES.filter((f) => top(f) !== 'cli')
      .filter((f) => importsOf(f).some((i) => top(i.target) === 'cli' && i.target.startsWith(SRC)))
      .map((f) => relative(SRC, f));
    expect(offenders).toEqual([]);
  });

  it('the folders of src/ import each other without a cycle', () => {
    const graph = new Map<string, Map<string, string>>();
    for (const f of SOURCES) {
      const from = top(f);
      if (ENTRIES.includes(from)) continue;
      for (const { target } of importsOf(f)) {
        const to = top(target);
        if (to === from || !target.startsWith(SRC)) continue;
        if (!graph.has(from)) graph.set(from, new Map());
        if (!graph.get(from)!.has(to)) graph.get(from)!.set(to, relative(SRC, f));
      }
    }
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (node: string, path: string[]): void => {
      if (state.get(node) === 'done') return;
      if (state.get(node) === 'open') {
        const loop = path.slice(path.indexOf(node));
        cycles.push([...loop, node].map((n, i, all) => (i + 1 < all.length ? `${n} (${graph.get(n)?.get(all[i + 1]!)})` : n)).join(' → '));
        return;
      }
      state.set(node, 'open');
      for (const next of graph.get(node)?.keys() ?? []) visit(next, [...path, node]);
      state.set(node, 'done');
    };
    for (const node of graph.keys()) visit(node, []);
    expect(cycles).toEqual([]);
  });

  it('no family imports another family', () => {
    const familyOf = (p: string): string | undefined => {
      const parts = relative(SRC, p).split('/');
      return parts[0] === 'families' && parts.length > 2 ? parts[1] : undefined;
    };
    const crossing = SOURCES.flatMap((f) => {
      const own = familyOf(f);
      if (!own) return [];
      return importsOf(f)
        .filter((i) => familyOf(i.target) !== undefined && familyOf(i.target) !== own)
        .map((i) => `${relative(SRC, f)} → families/${familyOf(i.target)}`);
    });
    expect(crossing).toEqual([]);
  });

  it('a family opens no model and runs no query itself: no value import from models/ or query/', () => {
    const opening = SOURCES.filter((f) => top(f) === 'families').flatMap((f) =>
      importsOf(f)
        .filter((i) => !i.typeOnly && ['models', 'query'].includes(top(i.target)))
        .map((i) => `${relative(SRC, f)} → ${relative(SRC, i.target)}`),
    );
    expect(opening).toEqual([]);
  });

  it('outside src/kinds, no file branches on a recipe kind', () => {
    const KIND =
      /(?:kind|Kind)\s*[!=]==\s*'(?:attack|probe|stress|generate|experiment)'|case\s+'(?:attack|probe|stress|generate|experiment)':/;
    const branching = SOURCES.filter((f) => top(f) !== 'kinds').flatMap((f) =>
      readFileSync(f, 'utf8')
        .split('\n')
        .flatMap((line, i) => (KIND.test(line) ? [`${relative(SRC, f)}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(branching).toEqual([]);
  });

  // Size is a hint, not the goal: a file is split by concept, never to pass a line count. Past REVIEW lines a file
  // must be listed below with the one concept it holds (a reviewed decision that it is still one thing); past
  // HARD lines it must be split whatever it holds.
  it(`files stay under ${HARD} lines, and those over ${REVIEW} are listed with the one concept they hold`, () => {
    const sizes = SOURCES.map((f) => ({ f: relative(SRC, f), n: readFileSync(f, 'utf8').split('\n').length }));
    expect(sizes.filter((x) => x.n > HARD)).toEqual([]);
    const unreviewed = sizes.filter((x) => x.n > REVIEW && !(x.f in LONG_FILES)).map((x) => `${x.f} (${x.n} lines)`);
    expect(unreviewed, 'add each to LONG_FILES with the one concept it holds, or split it by concept').toEqual([]);
    const stale = Object.keys(LONG_FILES).filter((f) => !sizes.some((x) => x.f === f && x.n > REVIEW));
    expect(stale, 'LONG_FILES lists files that are gone or no longer long').toEqual([]);
  });
});
