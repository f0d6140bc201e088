import { existsSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Node as YamlNode } from 'yaml';
import type { z } from 'zod';
import { isHubSpec } from '../data/hf/spec.ts';
import { metricRange, type AnyRecipe } from '../recipes/registry/define.ts';
import { GATE_METRIC_RANGES } from '../metrics/names.ts';
import { camelKeys, snake } from '../util/casing.ts';
import type { Registry } from '../recipes/registry/registry.ts';
import { closest } from '../recipes/registry/registry.ts';
import { settingProblems } from '../recipes/registry/settings.ts';
import { TextstressError, errorMessage } from '../util/errors.ts';
import { kindOf } from '../kinds/index.ts';
import { suiteJsonSchema, suiteSchemaFor, THRESHOLD_RE, type Suite } from './schema.ts';

/** A parsed and validated suite file. */
export interface LoadedSuite {
  file: string;
  /** Folder that relative paths in the suite are resolved against: the suite file's folder. */
  dir: string;
  suite: Suite;
}

/** A suite file that does not validate: every problem with its line and key. */
export class SuiteError extends TextstressError {
  readonly problems: { line: number; key: string; message: string }[];
  constructor(file: string, problems: { line: number; key: string; message: string }[]) {
    const text = problems.map((p) => `line ${p.line}: ${p.key ? `${p.key}: ` : ''}${p.message}`).join('; ');
    super(`invalid suite: ${text}.`, { where: file, hint: 'See schema/suite.schema.json or `textstress init` for the format.' });
    this.name = 'SuiteError';
    this.problems = problems;
  }
}

/**
 * Reads and validates a suite YAML file against the registry's recipes.
 * Throws a TextstressError when the file is missing and a {@link SuiteError} listing every problem when it is invalid.
 */
export function loadSuite(file: string, registry: Registry): LoadedSuite {
  if (!existsSync(file)) throw new TextstressError(`no suite file at ${file}.`, { hint: 'Create one with `textstress init`.' });
  return parseSuite(readFileSync(file, 'utf8'), resolve(file), registry);
}

/** Parses and validates suite YAML against a registry's recipes; errors name the line and the key at fault. */
export function parseSuite(text: string, file: string, registry: Registry): LoadedSuite {
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc, prettyErrors: false, uniqueKeys: true });
  const lineOf = (offset: number): number => lc.linePos(offset).line;
  if (doc.errors.length) {
    throw new SuiteError(
      file,
      doc.errors.map((e) => ({ line: lineOf(e.pos[0]), key: '', message: e.message.split('\n')[0]! })),
    );
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 100 });
  } catch (err) {
    // The yaml library refuses alias bombs (billion laughs) here; say which file and why.
    throw new SuiteError(file, [
      { line: 1, key: '', message: `cannot be read: ${errorMessage(err)} (too many aliases: at most 100 expansions)` },
    ]);
  }
  const result = suiteSchemaFor(registry).safeParse(value);
  const suggest = suggester(registry);
  if (!result.success) {
    const problems = result.error.issues.flatMap((issue) => describeIssue(issue, doc.contents, lineOf, suggest));
    problems.sort((a, b) => a.line - b.line);
    throw new SuiteError(file, problems);
  }
  // Each test's settings once more through its recipe's own schema: cross-setting rules live there.
  const problems = result.data.tests.flatMap((test, i) => {
    const def = registry.get(test.recipe);
    const parsed = def.settings.safeParse(camelKeys(test.settings ?? {}));
    if (parsed.success) return [];
    return settingProblems(def, parsed.error).map((p) => {
      const path = ['tests', i, 'settings', ...p.key.split('.').filter(Boolean).map(snake)];
      return { line: nearestLine(doc.contents, path, lineOf), key: keyPath(path), message: p.message };
    });
  });
  problems.push(...unreportedMetrics(result.data, registry, (path) => nearestLine(doc.contents, path, lineOf)));
  problems.push(...impossibleThresholds(result.data, registry, (path) => nearestLine(doc.contents, path, lineOf)));
  problems.sort((a, b) => a.line - b.line);
  if (problems.length) throw new SuiteError(file, problems);
  return { file, dir: dirname(file), suite: result.data };
}

/**
 * Thresholds on a metric the test's recipe never reports (a stress test's clean_accuracy): they would pass
 * validation and fail the gate after the whole run as "not reported", so they are refused here, with the metrics
 * the recipe does report. The suite's `gate:` applies to every test, so it is checked against each one.
 */
function unreportedMetrics(suite: Suite, registry: Registry, lineAt: (path: Path) => number): SuiteProblem[] {
  const out: SuiteProblem[] = [];
  suite.tests.forEach((test, i) => {
    const def = registry.get(test.recipe);
    const gate = kindOf(def).finished?.gate;
    // An experiment's sub-runs are of other kinds: what it reports is known only once it ran.
    if (!gate) return;
    const reported = [...gate.builtIn, ...Object.keys(def.metrics ?? {})];
    const check = (expr: string, path: Path, where: string): void => {
      const metric = THRESHOLD_RE.exec(expr)?.[1];
      if (metric === undefined || reported.includes(metric)) return;
      const near = closest(metric, reported);
      out.push({
        line: lineAt(path),
        key: keyPath(path),
        message:
          `${where}"${expr}": test "${test.name}" (recipe ${def.name}) does not report ${metric}` +
          `${near ? ` (did you mean ${near}?)` : ''}; it reports ${reported.join(', ') || 'no gate metric'}`,
      });
    };
    (test.thresholds ?? []).forEach((expr, j) => check(expr, ['tests', i, 'thresholds', j], ''));
    (suite.gate ?? []).forEach((expr, j) => check(expr, ['gate', j], 'gate '));
  });
  return out.sort((a, b) => a.line - b.line);
}

/** A metric's possible values: the built-in ones', or as its recipe declares them (undefined: unknown metric). */
function rangeOf(metric: string, registry: Registry): readonly [number, number] | undefined {
  if (metric in GATE_METRIC_RANGES) return GATE_METRIC_RANGES[metric as keyof typeof GATE_METRIC_RANGES];
  const m = registry.metrics()[metric];
  return m ? metricRange(m) : undefined;
}

/** "lies between 0 and 1 (0%–100%)", "is at most 1 (100%)", "is at least 0". */
function rangeText([lo, hi]: readonly [number, number]): string {
  const n = (x: number): string => (x < 0 ? `−${-x}` : String(x));
  const p = (x: number): string => `${x < 0 ? '−' : ''}${Math.abs(x * 100)}%`;
  if (Number.isFinite(lo) && Number.isFinite(hi)) return `lies between ${n(lo)} and ${n(hi)} (${p(lo)}–${p(hi)})`;
  if (Number.isFinite(hi)) return `is at most ${n(hi)} (${p(hi)})`;
  return `is at least ${n(lo)}`;
}

/**
 * Thresholds on a value the metric can never take (issue 35): a share above 100% (`stability >= 150%`) or below 0, a
 * negative count, a reduction above 100%. Such a check would always hold or never hold whatever the model did, so it
 * is refused when the suite is read, naming the line, like a misspelt metric. (A value at the edge of the range,
 * `attack_success_rate < 0`, is a legitimate if strict check, and stays.)
 */
function impossibleThresholds(suite: Suite, registry: Registry, lineAt: (path: Path) => number): SuiteProblem[] {
  const out: SuiteProblem[] = [];
  const check = (expr: string, path: Path): void => {
    const m = THRESHOLD_RE.exec(expr);
    if (!m || m[4] || m[8] === undefined) return;
    const metric = m[1]!;
    const range = rangeOf(metric, registry);
    if (!range) return;
    const [lo, hi] = range;
    const value = Number(m[8]) / (m[9] ? 100 : 1);
    if (value >= lo && value <= hi) return;
    const op = m[3]!;
    // Outside the range, the comparison gives one answer for every value the metric can take.
    const always = op === '<' || op === '<=' ? value > hi : op === '>' || op === '>=' ? value < lo : false;
    const name = m[2] && m[2] !== 'value' ? `${metric}.${m[2]}` : metric;
    out.push({
      line: lineAt(path),
      key: keyPath(path),
      message:
        `"${expr}": ${name} ${rangeText(range)}, so ${m[8]}${m[9] ?? ''} is impossible and the check would ` +
        `${always ? 'always hold' : 'never hold'}${Number.isFinite(hi) ? ' (a share is a fraction, or a percentage with %)' : ''}`,
    });
  };
  suite.tests.forEach((test, i) => (test.thresholds ?? []).forEach((expr, j) => check(expr, ['tests', i, 'thresholds', j])));
  (suite.gate ?? []).forEach((expr, j) => check(expr, ['gate', j]));
  return out;
}

type Path = readonly PropertyKey[];
type SuiteProblem = SuiteError['problems'][number];

function describeIssue(
  issue: z.core.$ZodIssue,
  root: unknown,
  lineOf: (offset: number) => number,
  suggest: (key: string) => string | undefined,
): { line: number; key: string; message: string }[] {
  const path = issue.path as Path;
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((k) => {
      const keyNode = findKeyNode(root, path, k);
      const hint = suggest(k);
      return {
        line: keyNode ? lineOf(keyNode.range![0]) : nearestLine(root, path, lineOf),
        key: keyPath([...path, k]),
        message: `unknown key "${k}"${hint ? ` (did you mean "${hint}"?)` : ''}`,
      };
    });
  }
  if (issue.code === 'invalid_union' && 'note' in issue && issue.note === 'No matching discriminator') {
    const opts = (issue as { options?: unknown[] }).options ?? [];
    return [
      {
        line: nearestLine(root, path, lineOf),
        key: keyPath(path),
        message: `must be one of ${opts.map((o) => JSON.stringify(o)).join(', ')}`,
      },
    ];
  }
  const missing = issue.code === 'invalid_type' && /received undefined/.test(issue.message);
  return [
    {
      line: nearestLine(root, path, lineOf),
      key: keyPath(path),
      message: missing ? 'is required' : issue.message,
    },
  ];
}

function keyPath(path: Path): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i ? '.' : ''}${String(p)}`)).join('');
}

/** The YAML node at a path (or its deepest existing ancestor). */
function nodeAt(root: unknown, path: Path): { node: unknown; depth: number } {
  let node = root;
  let depth = 0;
  for (const key of path) {
    let next: unknown;
    if (isMap(node)) next = node.items.find((p) => isPair(p) && isScalar(p.key) && p.key.value === key)?.value;
    else if (isSeq(node) && typeof key === 'number') next = node.items[key];
    if (next === undefined || next === null) break;
    node = next;
    depth++;
  }
  return { node, depth };
}

function nearestLine(root: unknown, path: Path, lineOf: (offset: number) => number): number {
  // Prefer the key of the deepest existing map entry (the line a person reads as "that setting").
  for (let n = path.length; n > 0; n--) {
    const key = findKeyNode(root, path.slice(0, n - 1), path[n - 1]!);
    if (key) return lineOf(key.range![0]);
  }
  const { node } = nodeAt(root, path);
  const range = (node as YamlNode | undefined)?.range;
  return range ? lineOf(range[0]) : 1;
}

function findKeyNode(root: unknown, parentPath: Path, key: PropertyKey): YamlNode | undefined {
  const { node, depth } = nodeAt(root, parentPath);
  if (depth !== parentPath.length) return undefined;
  if (isMap(node)) {
    const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && p.key.value === key);
    return pair && isScalar(pair.key) ? pair.key : undefined;
  }
  if (isSeq(node) && typeof key === 'number') {
    const item = node.items[key];
    return item && typeof item === 'object' && 'range' in item ? (item as YamlNode) : undefined;
  }
  return undefined;
}

/** The closest key the registry's suite schema knows (edit distance ≤ 2), for "did you mean". */
function suggester(registry: Registry): (key: string) => string | undefined {
  let knownKeys: string[] | undefined;
  return (key) => {
    knownKeys ??= collectKeys(suiteJsonSchema(registry));
    return closest(key, knownKeys);
  };
}

function collectKeys(schema: unknown, out = new Set<string>()): string[] {
  if (Array.isArray(schema)) schema.forEach((s) => collectKeys(s, out));
  else if (schema && typeof schema === 'object') {
    for (const [k, v] of Object.entries(schema)) {
      if (k === 'properties' && v && typeof v === 'object') Object.keys(v).forEach((p) => out.add(p));
      collectKeys(v, out);
    }
  }
  return [...out];
}

/** A path from the suite, relative to the suite file's folder (URLs and absolute paths as they are). */
export function suitePath(dir: string, p: string): string {
  if (/^https?:\/\//.test(p) || isAbsolute(p)) return p;
  return resolve(dir, p);
}

/** A test's settings with the files its recipe names (RecipeDef.paths) relative to the suite file, as `data:` is. */
export function suiteSettings(def: AnyRecipe, settings: Record<string, unknown>, dir: string): Record<string, unknown> {
  const out = { ...settings };
  for (const key of def.paths ?? []) {
    const value = out[key];
    if (typeof value === 'string' && !isHubSpec(value)) out[key] = suitePath(dir, value);
    else if (Array.isArray(value)) out[key] = value.map((v: unknown) => (typeof v === 'string' && !isHubSpec(v) ? suitePath(dir, v) : v));
  }
  return out;
}
