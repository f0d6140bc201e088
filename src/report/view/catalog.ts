/**
 * The runs `textstress view` lists: every finished run under the given folders, read from its summary.json and
 * run.json only (results files are never opened here, so a folder of million-example runs lists in seconds).
 */
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import {
  formatBound,
  formatMetric,
  metricLabel,
  metricUnit,
  settingLabel,
  settingValue,
  type MetricDisplay,
  type MetricUnit,
} from '../../metrics/display.ts';
import { kindOfSummary } from '../../kinds/index.ts';
import { wilson, type Interval } from '../../stats/index.ts';
import { displayPath, withoutAbsolutePaths } from '../html/paths.ts';

/** One headline figure of a run, with its 95% interval where the summary gives one or its counts allow one. */
export interface CatalogMetric {
  name: string;
  /** What the page calls it ("attack success rate", "pairs used"): never the snake_case name. */
  label: string;
  value: number | null;
  low: number | null;
  high: number | null;
  n: number | null;
  /** How it is written: a share in %, points, a count, a layer index or a plain number (src/metrics/display.ts). */
  unit: MetricUnit;
  /** The value and the bounds as the page shows them (`92.0%`, `81.2`–`96.8`; `7,040`; `0.907`). */
  text: { value: string; low: string | null; high: string | null };
}

/** One recorded setting of a run, as the page shows it: "max words: 512", "sources: insertion, deletion, …". */
export interface CatalogSetting {
  /** The setting's name as recorded (camelCase, as in the library API). */
  key: string;
  label: string;
  value: string;
}

export interface CatalogEntry {
  /** Stable id within one catalog: the root's index and the run's path below it. */
  id: string;
  /** The folder given on the command line, as given. */
  root: string;
  /** The run's folder relative to its root ("." for a root that is itself a run). */
  path: string;
  /** The enclosing experiment or suite folder (relative to the root), for folding sub-runs under it; absent: top level. */
  parent?: string;
  recipe: string;
  kind: string;
  model: string;
  data: string | null;
  seed: number | null;
  /** When the run was last written (run.json's updated_at, else summary.json's modification time), ISO 8601. */
  date: string;
  n: number | null;
  complete: boolean;
  metrics: CatalogMetric[];
  /** The recipe's settings (issue 34: two runs that differ only in a setting must look different). */
  settings: CatalogSetting[];
}

/** What the registry declares that the catalog shows: recipes' metric labels and units, and their setting labels. */
export interface CatalogDeclarations {
  metrics?: Record<string, MetricDisplay>;
  settingLabels?: (recipe: string) => Record<string, string>;
}

/** A folder that could not be read as a run: listed, never fatal. */
export interface CatalogProblem {
  root: string;
  path: string;
  reason: string;
}

const MAX_DEPTH = 6;
const SKIP = new Set(['node_modules', '.git']);

/**
 * Every run under `roots` (folders holding summary.json), newest first; unreadable summaries become problems. The
 * registry's metric declarations give the labels and units of the recipes' own figures.
 */
export function scanRuns(
  roots: readonly string[],
  declared: CatalogDeclarations = {},
): { runs: CatalogEntry[]; problems: CatalogProblem[] } {
  const runs: CatalogEntry[] = [];
  const problems: CatalogProblem[] = [];
  roots.forEach((root, i) => {
    const abs = resolve(root);
    if (!existsSync(abs) || !statSync(abs).isDirectory()) {
      problems.push({ root, path: '.', reason: `no folder at ${root}` });
      return;
    }
    const real = realpathSync(abs);
    walk(abs, 0, (dir) => {
      const path = relative(abs, dir).split(sep).join('/') || '.';
      try {
        const out = linksOut(dir, real, 0);
        // Never read, and never shown: a link to ~/.ssh/id_rsa named summary.json must not reach the page (issue 35).
        if (out.length) throw new Error(`${out.join(', ')}: a symbolic link out of ${root}, not followed`);
        const entry = entryOf(i, root, abs, dir, path, declared);
        if (entry) runs.push(entry);
      } catch (err) {
        problems.push({ root, path, reason: err instanceof Error ? err.message : String(err) });
      }
    });
  });
  runs.sort((a, b) => b.date.localeCompare(a.date) || a.id.localeCompare(b.id));
  return { runs, problems };
}

function walk(dir: string, depth: number, onRun: (dir: string) => void): void {
  if (existsSync(join(dir, 'summary.json'))) {
    onRun(dir);
    return;
  }
  if (depth >= MAX_DEPTH) return;
  let names: string[];
  try {
    names = readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory() && !SKIP.has(e.name) && !e.name.startsWith('.'))
      .map((e) => e.name)
      .sort();
  } catch {
    return;
  }
  for (const name of names) walk(join(dir, name), depth + 1, onRun);
}

/** The files under a run's folder (`dir`, real sub-folders too) that are symbolic links resolving outside `rootReal`. */
function linksOut(dir: string, rootReal: string, depth: number): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (e.isDirectory() && depth < MAX_DEPTH) out.push(...linksOut(path, rootReal, depth + 1).map((n) => `${e.name}/${n}`));
    if (!e.isSymbolicLink()) continue;
    let target: string | undefined;
    try {
      target = realpathSync(path);
    } catch {
      target = undefined; // dangling: reading it fails anyway, but say why
    }
    if (target === undefined || (target !== rootReal && !target.startsWith(rootReal + sep))) out.push(e.name);
  }
  return out;
}

function readObject(file: string): Record<string, unknown> | undefined {
  if (!existsSync(file)) return undefined;
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as unknown;
  return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** A run's entry; undefined for a summary that is no run's (`eval` writes one naming its `command`). */
function entryOf(
  index: number,
  root: string,
  abs: string,
  dir: string,
  path: string,
  declared: CatalogDeclarations,
): CatalogEntry | undefined {
  let summary: Record<string, unknown> | undefined;
  try {
    summary = readObject(join(dir, 'summary.json'));
  } catch (err) {
    // Not the parser's message: it quotes the file's first bytes, and a file's bytes never reach the page raw.
    throw new Error('summary.json is not JSON', { cause: err });
  }
  if (summary && typeof summary.recipe !== 'string' && typeof summary.command === 'string') return undefined;
  if (!summary || typeof summary.recipe !== 'string') throw new Error('summary.json is not a textstress run summary');
  let runJson: Record<string, unknown> | undefined;
  try {
    runJson = readObject(join(dir, 'run.json'));
  } catch {
    runJson = undefined;
  }
  const date = str(runJson?.updated_at) ?? statSync(join(dir, 'summary.json')).mtime.toISOString();
  const parentPath = path === '.' ? undefined : path.split('/').slice(0, -1).join('/');
  const parent = parentPath && isGroupFolder(join(abs, parentPath)) ? parentPath : undefined;
  return {
    id: `${index}:${path}`,
    root,
    path,
    ...(parent ? { parent } : {}),
    recipe: summary.recipe,
    kind: kindOfSummary(summary).kind,
    model: displayName(str(summary.model) ?? '?'),
    data: str(summary.dataset) ? displayName(str(summary.dataset)!) : null,
    seed: num(summary.seed),
    date,
    n: num(summary.n),
    complete: summary.complete !== false,
    metrics: metricsOf(summary).map((m) => shown(m, declared.metrics?.[m.name])),
    settings: settingsOf(summary.settings, declared.settingLabels?.(summary.recipe)),
  };
}

/** The recorded settings in words, paths without the user's folders. */
export function settingsOf(settings: unknown, labels: Record<string, string> = {}): CatalogSetting[] {
  if (typeof settings !== 'object' || settings === null) return [];
  return Object.entries(settings as Record<string, unknown>)
    .filter(([, v]) => v !== null && v !== undefined && !(Array.isArray(v) && v.length === 0))
    .map(([key, v]) => ({
      key,
      label: labels[key] ?? settingLabel(key),
      value: withoutAbsolutePaths(
        typeof v === 'string'
          ? displayPath(v)
          : settingValue(Array.isArray(v) ? v.map((x) => (typeof x === 'string' ? displayPath(x) : x)) : v),
      ),
    }));
}

/** A figure labelled and written in its unit. */
function shown(m: Figure, declared?: MetricDisplay): CatalogMetric {
  const unit = metricUnit(m.name, m.value, declared);
  const digits = unit === 'number' ? 3 : 1;
  const bound = (x: number | null): string | null => (x === null ? null : formatBound(x, unit, digits));
  return {
    ...m,
    label: m.label ?? metricLabel(m.name, declared),
    unit,
    text: { value: formatMetric(m.value, unit), low: bound(m.low), high: bound(m.high) },
  };
}

/** A folder whose sub-runs belong together: an experiment (manifest) or a suite's output (suite.json). */
function isGroupFolder(dir: string): boolean {
  return existsSync(join(dir, 'experiment.json')) || existsSync(join(dir, 'suite.json'));
}

/** A model or data path as a person wants to read it: relative paths as given, absolute ones by their last two parts. */
export const displayName = displayPath;

/** The interval the summary wrote for a figure, if it did (summary.intervals, or metrics.intervals). */
function writtenInterval(summary: Record<string, unknown>, name: string): Interval | undefined {
  for (const holder of [summary.intervals, (summary.metrics as Record<string, unknown> | undefined)?.intervals]) {
    const iv = (holder as Record<string, unknown> | undefined)?.[name] as Interval | undefined;
    if (iv && typeof iv === 'object' && 'low' in iv && 'high' in iv) return iv;
  }
  return undefined;
}

/** A figure before it is written: its value, interval and n (and a label where the name alone would mislead). */
type Figure = Pick<CatalogMetric, 'name' | 'value' | 'low' | 'high' | 'n'> & { label?: string };

function rate(summary: Record<string, unknown>, name: string, value: unknown, k: number | null, n: number | null): Figure {
  const written = writtenInterval(summary, name);
  if (written) return { name, value: written.value, low: written.low, high: written.high, n: written.n };
  const v = num(value);
  if (v !== null && k !== null && n !== null && n > 0) {
    const iv = wilson(Math.round(k), n);
    return { name, value: v, low: iv.low, high: iv.high, n };
  }
  return { name, value: v, low: null, high: null, n };
}

/** The headline figures: the attack kind's four, else the numbers a generator or stress run puts in `metrics`. */
function metricsOf(s: Record<string, unknown>): Figure[] {
  // Attack-shaped runs (attacks, probes: the report's `runs` slot) have the four; the others their own `metrics`.
  if (kindOfSummary(s).finished?.slot === 'runs') {
    const n = num(s.n);
    const attacked = num(s.attacked);
    const byF1 = s.clean_f1 !== undefined && s.clean_f1 !== null;
    const out: Figure[] = [];
    if (byF1) {
      out.push(rate(s, 'clean_f1', s.clean_f1, null, n), rate(s, 'attacked_f1', s.attacked_f1, null, n));
    } else {
      const acc = num(s.clean_accuracy);
      const att = num(s.attacked_accuracy);
      out.push(
        rate(s, 'clean_accuracy', acc, acc !== null && n ? acc * n : null, n),
        rate(s, 'attacked_accuracy', att, att !== null && n ? att * n : null, n),
      );
    }
    out.push(rate(s, 'attack_success_rate', s.attack_success_rate, num(s.succeeded), attacked));
    const stN = num(s.stability_n);
    const st = num(s.stability);
    out.push(rate(s, 'stability', st, st !== null && stN ? st * stN : null, stN));
    // What a successful attack costs in queries (attack runs since issue 33), with its bootstrap interval.
    if (s.queries_per_success !== undefined) {
      const iv = writtenInterval(s, 'queries_per_success');
      out.push({
        name: 'queries_per_success',
        value: num(s.queries_per_success),
        low: iv?.low ?? null,
        high: iv?.high ?? null,
        n: iv?.n ?? num(s.succeeded),
      });
    }
    // A tagger's success rate and stability are over different sentences (issue 34): the labels say which.
    if (byF1 && s.clean_em === undefined) {
      out[2]!.label = 'attack success rate (of sentences with an entity right)';
      out[3]!.label = 'stability (of sentences fully right)';
    }
    return out;
  }
  const metrics = s.metrics;
  if (typeof metrics !== 'object' || metrics === null) return [];
  return Object.entries(metrics as Record<string, unknown>)
    .filter(([, v]) => typeof v === 'number' && Number.isFinite(v))
    .slice(0, 6)
    .map(([name, v]) => {
      const iv =
        writtenInterval(s, name) ?? writtenInterval({ intervals: (s.details as Record<string, unknown> | undefined)?.intervals }, name);
      return { name, value: v as number, low: iv?.low ?? null, high: iv?.high ?? null, n: iv?.n ?? null };
    });
}
