/**
 * A recipe's kind is worked out in one place: its runtime in src/kinds/ (KINDS), and summary.json's `kind`. These
 * checks read the syntax trees of src/ (TypeScript's parser, no type checking: a few hundred ms) for the ways code
 * used to work the kind out again elsewhere:
 *   - comparing a `.kind` with a recipe kind's literal, a `case` of one, or a kind type guard called with one;
 *   - a second kind table: an object literal keyed by recipe kinds only (three or more), or a `Record<RecipeKind, …>`;
 *   - guessing the kind from a summary's fields (`attack_success_rate` present or not);
 *   - telling probe results from attack results by their `probe` field, outside the few files that read a probe's own
 *     figures (each listed below with why).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '..', '..', 'src');
const RECIPE_KINDS = new Set(['attack', 'probe', 'stress', 'generate', 'experiment']);
/** Where the kind is declared and implemented. */
const KIND_HOME = (rel: string): boolean => rel.startsWith('kinds/') || rel === 'recipes/registry/define.ts';

/** Files that read a result's `probe` figures where it has them: not a guess at the run's kind. */
const PROBE_FIGURES: Readonly<Record<string, string>> = {
  'metrics/stable.ts': "the one definition of a surviving answer: a probe's result says it itself",
  'metrics/summary.ts': "sums the probe figures of the results that carry them (summary.json's `probe`)",
  'metrics/intervals.ts': 'the intervals of those figures',
  'report/html/examples.ts': "the example's badge shows how many of its variants changed the answer",
  'families/entities/table3.ts': "the entity family's own Table 3, over its probe's results",
};

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}

interface Finding {
  rel: string;
  line: number;
  what: string;
}

const scan = (file: string): Finding[] =>
  scanSource(relative(SRC, file), ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true));

/** The findings in one source file; `rel` is its path under src/. */
function scanSource(rel: string, sf: ts.SourceFile): Finding[] {
  const out: Finding[] = [];
  const add = (node: ts.Node, what: string): void => {
    out.push({ rel, line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1, what });
  };
  const isKindLiteral = (n: ts.Node): boolean => ts.isStringLiteralLike(n) && RECIPE_KINDS.has(n.text);
  const isKindAccess = (n: ts.Node): boolean =>
    (ts.isPropertyAccessExpression(n) && n.name.text === 'kind') || (ts.isIdentifier(n) && n.text === 'kind');
  const isCondition = (n: ts.Node): boolean => {
    const p = n.parent;
    if (ts.isIfStatement(p) || ts.isConditionalExpression(p)) return p.getChildAt(0) === n || (ts.isIfStatement(p) && p.expression === n);
    if (ts.isPrefixUnaryExpression(p) && p.operator === ts.SyntaxKind.ExclamationToken) return true;
    if (ts.isBinaryExpression(p))
      return [ts.SyntaxKind.AmpersandAmpersandToken, ts.SyntaxKind.BarBarToken].includes(p.operatorToken.kind) && p.left === n;
    return false;
  };
  const visit = (node: ts.Node): void => {
    if (!KIND_HOME(rel)) {
      if (ts.isBinaryExpression(node)) {
        const op = node.operatorToken.kind;
        const eq = [ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken].includes(op);
        if (eq && ((isKindAccess(node.left) && isKindLiteral(node.right)) || (isKindAccess(node.right) && isKindLiteral(node.left))))
          add(node, `compares a kind with a literal: ${node.getText(sf)}`);
      }
      if (ts.isCaseClause(node) && isKindLiteral(node.expression) && isKindAccess(node.parent.parent.expression))
        add(node, `switches on a kind: case ${node.expression.getText(sf)}`);
      if (ts.isCallExpression(node) && ['isOutcomeOf', 'isBuiltOf', 'builtAs'].includes(node.expression.getText(sf)))
        add(node, `narrows by kind: ${node.getText(sf)}`);
      if (ts.isObjectLiteralExpression(node)) {
        const keys = node.properties.map((p) => (p.name && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) ? p.name.text : ''));
        if (keys.length >= 3 && keys.every((k) => RECIPE_KINDS.has(k))) add(node, `a table keyed by kinds: ${keys.join(', ')}`);
      }
      if (ts.isTypeReferenceNode(node) && node.typeName.getText(sf) === 'Record' && node.typeArguments?.[0]?.getText(sf) === 'RecipeKind')
        add(node, `a table keyed by kinds: ${node.getText(sf)}`);
    }
    // A summary's kind guessed from which figures it has.
    if (ts.isPropertyAccessExpression(node) && node.name.text === 'attack_success_rate') {
      const p = node.parent;
      if (ts.isBinaryExpression(p) && p.right.kind === ts.SyntaxKind.UndefinedKeyword) add(p, `guesses a kind: ${p.getText(sf)}`);
      if (ts.isBinaryExpression(p) && ts.isIdentifier(p.right) && p.right.text === 'undefined') add(p, `guesses a kind: ${p.getText(sf)}`);
    }
    if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.InKeyword && ts.isStringLiteral(node.left)) {
      if (node.left.text === 'attack_success_rate' || node.left.text === 'probe') add(node, `guesses a kind: ${node.getText(sf)}`);
    }
    if (
      !KIND_HOME(rel) &&
      !(rel in PROBE_FIGURES) &&
      ts.isPropertyAccessExpression(node) &&
      node.name.text === 'probe' &&
      isCondition(node)
    )
      add(node, `tells probe results apart by their field: ${node.parent.getText(sf).slice(0, 80)}`);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

const show = (f: Finding): string => `${f.rel}:${f.line} ${f.what}`;

describe('the kind is worked out in one place', () => {
  const findings = files(SRC).flatMap(scan);

  it('outside src/kinds no file compares, switches or narrows on a recipe kind', () => {
    expect(findings.filter((f) => /compares|switches|narrows/.test(f.what)).map(show)).toEqual([]);
  });

  it('outside src/kinds there is no second table keyed by kinds', () => {
    expect(findings.filter((f) => f.what.startsWith('a table')).map(show)).toEqual([]);
  });

  it('no summary has its kind guessed from the figures it carries', () => {
    expect(findings.filter((f) => f.what.startsWith('guesses')).map(show)).toEqual([]);
  });

  it("no probe result is told apart by its `probe` field outside the files that read a probe's figures", () => {
    expect(findings.filter((f) => f.what.startsWith('tells')).map(show)).toEqual([]);
  });

  it('catches each form (the checks see what they are meant to)', () => {
    // The scanner on text written the old ways, as if it were a file outside src/kinds.
    const old = [
      "if (outcome.kind !== 'attack') throw new Error('x');",
      "switch (def.kind) { case 'probe': break; }",
      "const GROUPS = { attack: { noun: 'an attack' }, probe: { noun: 'a probe' }, stress: { noun: 'a stress suite' } };",
      'type T = Record<RecipeKind, string>;',
      "const kind = s.attack_success_rate !== undefined ? 'attack' : 'other';",
      'const stable = r.probe ? r.probe.changed === 0 : same(r);',
      "if (isOutcomeOf(o, 'probe')) {}",
    ];
    const sf = ts.createSourceFile('old-ways.ts', old.join('\n'), ts.ScriptTarget.Latest, true);
    const lines = new Set(scanSource('report/old-ways.ts', sf).map((f) => f.line));
    expect([...lines].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });
});
