/**
 * The source tree's dependency rules, checked on the real files: nothing below cli/ imports it, and the graph of
 * top-level folders under src/ has no cycle (dependencies point one way: cli → suite → report → runner →
 * recipes → attack/metrics/perturb → query → models/data → text/util).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '..', '..', 'src');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** Relative imports of a file (static, re-exports, type-only and dynamic), resolved to paths. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map((m) => m[1]!);
  return specs.map((s) => resolve(dirname(file), s));
}

const top = (path: string): string => relative(SRC, path).split('/')[0]!.replace(/\.ts$/, '');

function edges(): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const f of files(SRC)) {
    const from = top(f);
    for (const target of importsOf(f)) {
      if (!target.startsWith(SRC)) continue;
      const to = top(target);
      if (to === from || from === 'index') continue;
      if (!graph.has(from)) graph.set(from, new Map());
      if (!graph.get(from)!.has(to)) graph.get(from)!.set(to, relative(SRC, f));
    }
  }
  return graph;
}

describe('source layers', () => {
  it('nothing outside src/cli imports from src/cli', () => {
    const offenders = files(SRC)
      .filter((f) => top(f) !== 'cli')
      .filter((f) => importsOf(f).some((t) => top(t) === 'cli' && t.startsWith(SRC)))
      .map((f) => relative(SRC, f));
    expect(offenders).toEqual([]);
  });

  it('the folders of src/ import each other without a cycle', () => {
    const graph = edges();
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

  it('keeps files under 400 lines', () => {
    const long = files(SRC)
      .map((f) => ({ f: relative(SRC, f), n: readFileSync(f, 'utf8').split('\n').length }))
      .filter((x) => x.n > 400);
    expect(long).toEqual([]);
  });
});
