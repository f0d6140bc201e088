import type { Shard } from '../runner/shard.ts';
import { runQueued } from '../queue/coordinator.ts';
import { isOpenAiSpec } from '../models/load.ts';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { isHubSpec } from '../data/hf/spec.ts';
import type { ModelAdapter } from '../models/types.ts';
import type { QueryEngine } from '../query/engine.ts';
import { camelKeys } from '../util/casing.ts';
import type { Registry } from '../recipes/registry/registry.ts';
import { formatGrid } from '../util/table.ts';
import { loadGroups, writeHtmlReport, VERDICT_FILE } from '../report/html/index.ts';
import { groupSubject } from '../report/html/load.ts';
import { kindOfSummary, refusal, supports } from '../kinds/index.ts';
import type { CheckResult, RunGroup, Verdict } from '../report/html/types.ts';
import { lockFolder } from '../runner/lock.ts';
import { runRecipe, type ProgressSink } from '../kinds/run.ts';
import { openEngine, openModel, openModelToInspect, type DataSpec, type ModelSpec } from '../runner/open.ts';
import { TextstressError } from '../util/errors.ts';
import { fromSuiteEntry } from '../options/derive.ts';
import { checkTest, parseThreshold, verdictOf } from './gate.ts';
import { BINARY_METRICS, compareRuns, type Comparison } from '../report/compare/index.ts';
import { suitePath, suiteSettings, type LoadedSuite } from './load.ts';
import { DEFAULT_MIN_N, type DatasetEntry, type ModelEntry, type Suite, type SuiteTest } from './schema.ts';

/** Options of {@link runSuite}. */
export interface SuiteRunOptions {
  /** The recipes the suite's tests name (the one its file was validated against). */
  registry: Registry;
  out: string;
  resume?: boolean;
  overwrite?: boolean;
  /** Output folder of an earlier run to compare with (overrides the suite's `baseline`). */
  baseline?: string;
  /** Report file (default OUT/report.html). */
  html?: string;
  /** Progress lines on stderr. */
  progress?: boolean;
  /** Limit every test to n examples (for quick tries). */
  limit?: number;
  /** Progress bars for each test's examples. */
  bars?: ProgressSink;
  /**
   * Environment variables a suite's models may send as their Authorization header (auth_env). A suite file is
   * code-like input: one from elsewhere could name any secret and any URL. With a list, other names are refused
   * before anything runs; without one, each use is announced on stderr.
   */
  allowAuthEnv?: readonly string[];
  /** URLs a model's RESEMBLE config may send texts to (--allow-remote): never from the suite file itself. */
  allowRemote?: string[];
  /** Only shard I of N of every test's examples (`--shard I/N`); `textstress merge` joins the suite folders. */
  shard?: Shard;
  /** redis:// URL: per-example tests are spread over `textstress worker` processes through this queue. */
  queue?: string;
  /** With `queue`: examples per job. */
  blockSize?: number;
  /** Run against stand-in models (nothing is sent): the summaries count what the real run would send; see dryRunTable. */
  dryRun?: boolean;
}

/** What {@link runSuite} returns: the gate's verdict, the report file's path and the runs grouped by test. */
export interface SuiteOutcome {
  verdict: Verdict;
  report: string;
  groups: RunGroup[];
}

/** Runs every test of a suite into OUT/<test>, resumably; then the gate and one report. */
export async function runSuite(loaded: LoadedSuite, opts: SuiteRunOptions): Promise<SuiteOutcome> {
  mkdirSync(opts.out, { recursive: true });
  const release = lockFolder(opts.out);
  try {
    return await runSuiteLocked(loaded, opts);
  } finally {
    release();
  }
}

async function runSuiteLocked(loaded: LoadedSuite, opts: SuiteRunOptions): Promise<SuiteOutcome> {
  const { suite, dir } = loaded;
  const log = (s: string): void => {
    if (opts.progress !== false) process.stderr.write(`textstress: ${s}\n`);
  };
  mkdirSync(opts.out, { recursive: true });
  if (!opts.resume && !opts.overwrite) {
    const taken = suite.tests.filter((t) => existsSync(join(opts.out, t.name)) && readdirSync(join(opts.out, t.name)).length > 0);
    if (taken.length) {
      throw new TextstressError(`${opts.out} already holds results of ${taken.map((t) => t.name).join(', ')}.`, {
        hint: 'Pass --resume to continue (finished tests are kept), --overwrite to start again, or choose another --out.',
      });
    }
  }
  checkAuthEnv(loaded, opts);
  const names = new Set<string>();
  for (const t of suite.tests) {
    if (names.has(t.name))
      throw new TextstressError(`two tests are named "${t.name}".`, {
        where: loaded.file,
        hint: 'Test names name the output folders; make them unique.',
      });
    names.add(t.name);
  }

  const models = new Map<string, { model: ModelAdapter; engine: QueryEngine }>();
  /** Whether every test on this model entry reads its inner layers through a session of its own (probes). */
  const inspectsOnly = (modelName: string): boolean =>
    suite.tests.every((t) => {
      try {
        return (
          pick('model', t.model, Object.keys(suite.models), t.name, loaded.file) !== modelName ||
          opts.registry.get(t.recipe).inspectsModel === true
        );
      } catch {
        return false;
      }
    });
  const skipped: { test: string; reason: string }[] = [];
  const ran: { test: SuiteTest; group: RunGroup }[] = [];
  try {
    for (const [i, test] of suite.tests.entries()) {
      const modelName = pick('model', test.model, Object.keys(suite.models), test.name, loaded.file);
      const needsData = opts.registry.get(test.recipe).data ?? 'required';
      // A recipe that may take data (fooling: only to look up a pair's fixed sentence) gets it only when the test names one.
      const dataName =
        needsData !== 'required' && test.dataset === undefined
          ? undefined
          : pick('dataset', test.dataset, Object.keys(suite.datasets), test.name, loaded.file);
      const modelOpts = {
        ...modelOptions(suite.models[modelName]!, dir),
        ...(opts.allowRemote ? { allowRemote: opts.allowRemote } : {}),
        ...(opts.dryRun ? { dryRun: true } : {}),
      };
      const data: DataResult | undefined = dataName === undefined ? undefined : dataOptions(suite.datasets[dataName]!, dir);
      if (data && !data.ok) {
        if (data.optional) {
          skipped.push({ test: test.name, reason: data.reason });
          log(`[${i + 1}/${suite.tests.length}] ${test.name}: skipped (${data.reason})`);
          continue;
        }
        throw new TextstressError(`dataset "${dataName}": ${data.reason}.`, {
          where: loaded.file,
          hint: 'Fix the path (relative to the suite file), add a `fallback`, or mark it `optional: true`.',
        });
      }
      const notEstimated = opts.dryRun ? refusal(opts.registry.get(test.recipe), 'dryRun') : undefined;
      if (notEstimated) {
        skipped.push({ test: test.name, reason: `not estimated: ${notEstimated.message}` });
        log(`[${i + 1}/${suite.tests.length}] ${test.name}: skipped (${notEstimated.message})`);
        continue;
      }
      const limit = opts.limit ?? test.limit ?? (data?.ok ? data.options.limit : undefined);
      log(
        `[${i + 1}/${suite.tests.length}] ${test.name}: ${test.recipe} on ` +
          `${modelName}${dataName ? ` over ${dataName}` : ''}${limit ? ` (first ${limit})` : ''} …`,
      );
      const t0 = performance.now();
      let shared = models.get(modelName);
      if (!shared) {
        const model = inspectsOnly(modelName) ? await openModelToInspect(modelOpts) : await openModel(modelOpts);
        shared = { model, engine: openEngine(model, modelOpts) };
        models.set(modelName, shared);
      }
      // The test's run options (its limit and seed have fallbacks: the dataset's, the suite's).
      const {
        limit: _limit,
        seed: _seed,
        compact,
        ...testOptions
      } = fromSuiteEntry('test', test as unknown as Record<string, unknown>, (p) => p);
      const request = {
        registry: opts.registry,
        recipe: test.recipe,
        settings: suiteSettings(opts.registry.get(test.recipe), camelKeys(test.settings ?? {}), dir),
        ...modelOpts,
        ...(data?.ok ? data.options : {}),
        ...(limit !== undefined && data ? { limit } : {}),
        out: join(opts.out, test.name),
        seed: test.seed ?? suite.seed ?? 0,
        resume: opts.resume,
        overwrite: opts.overwrite,
        concurrency: 32,
        ...testOptions,
        ...(compact ? { compact: true } : {}),
        ...(opts.bars ? { progress: opts.bars } : {}),
        ...(opts.shard ? { shard: opts.shard } : {}),
      };
      // With a queue, per-example tests go to the workers; the others run here.
      const def = opts.registry.get(test.recipe);
      if (opts.queue && data && supports(def, 'queue')) {
        await runQueued({ ...request, queue: opts.queue, ...(opts.blockSize ? { blockSize: opts.blockSize } : {}), log });
      } else {
        await runRecipe({ ...request, shared });
      }
      const group = (await loadGroups([join(opts.out, test.name)], { sampleSize: 0, registry: opts.registry }))[0]!;
      group.name = test.name;
      for (const r of group.runs) r.group = test.name;
      ran.push({ test, group });
      const took = `${((performance.now() - t0) / 1000).toFixed(1)} s`;
      const subject = groupSubject(group, opts.registry);
      log(`    ${test.name}: ${subject.gate.line(subject.run)} (${took})`);
    }
  } finally {
    for (const { model, engine } of models.values()) {
      await engine.flushed();
      await model.close?.();
    }
  }

  // A shard holds some examples of each test: its thresholds would judge a part. The gate and the report come after
  // merge, from `run --resume` on the merged folder.
  if (opts.shard) {
    const verdict: Verdict = {
      passed: true,
      checks: [],
      skipped: [
        {
          test: '(all)',
          reason: `shard ${opts.shard.index}/${opts.shard.count}: the gate applies after textstress merge and run --resume`,
        },
      ],
    };
    return { verdict, report: '', groups: ran.map((r) => r.group) };
  }
  const baselineDir = opts.baseline ?? (suite.baseline ? suitePath(dir, suite.baseline) : undefined);
  const baseline = baselineDir ? await loadGroups([baselineDir], { sampleSize: 0 }) : undefined;
  const metrics = opts.registry.metrics();
  const minN = suite.min_n ?? DEFAULT_MIN_N;
  const checks: CheckResult[] = [];
  for (const { test, group } of ran) {
    const exprs = [...(suite.gate ?? []), ...(test.thresholds ?? [])];
    const paired = baseline ? await pairedWithBaseline(test.name, group, exprs, baseline, suite, opts.registry) : undefined;
    checks.push(
      ...emptyRunChecks(test.name, group, opts.registry),
      ...checkTest(test.name, group, exprs, baseline, metrics, opts.registry, { minN, ...(paired ? { paired } : {}) }),
    );
  }
  const verdict: Verdict = { ...verdictOf(checks), ...(skipped.length ? { skipped } : {}) };
  writeFileSync(join(opts.out, VERDICT_FILE), JSON.stringify(verdict, null, 2) + '\n');
  writeFileSync(join(opts.out, 'suite.json'), JSON.stringify({ file: loaded.file, suite }, null, 2) + '\n');
  const report = opts.html ?? join(opts.out, 'report.html');
  const groups = ran.map((r) => r.group);
  if (groups.length) {
    await writeHtmlReport([opts.out], report, {
      verdict,
      registry: opts.registry,
      ...(baselineDir ? { baselineDir } : {}),
      ...(suite.name ? { title: suite.name } : {}),
      ...(suite.report?.title ? { title: suite.report.title } : {}),
      ...(suite.report?.max_examples ? { maxExamples: suite.report.max_examples } : {}),
    });
  }
  return { verdict, report, groups };
}

/** Which secrets the suite's models send where: refused unless allowed (with a list), else announced. */
function checkAuthEnv(loaded: LoadedSuite, opts: SuiteRunOptions): void {
  for (const [name, entry] of Object.entries(loaded.suite.models)) {
    const e = modelOptions(entry, loaded.dir);
    // An openai: model sends OPENAI_API_KEY unless told otherwise, to wherever base_url points.
    const authEnv = e.authEnv ?? (isOpenAiSpec(e.model) ? 'OPENAI_API_KEY' : undefined);
    if (!authEnv) continue;
    const where = `model "${name}" (${typeof entry === 'string' ? entry : entry.path}${e.baseUrl ? ` at ${e.baseUrl}` : ''})`;
    if (opts.allowAuthEnv && !opts.allowAuthEnv.includes(authEnv)) {
      throw new TextstressError(
        `${where} would send the environment variable ${authEnv} as its Authorization header, and ${authEnv} is not allowed.`,
        {
          where: loaded.file,
          hint:
            `Allowed: ${opts.allowAuthEnv.join(', ') || 'none'} (--allow-auth-env or TEXTSTRESS_ALLOW_AUTH_ENV). Check the ` +
            `suite before allowing it: it decides where the value goes.`,
        },
      );
    }
    if (opts.progress !== false && (process.env[authEnv] || authEnv !== 'OPENAI_API_KEY'))
      process.stderr.write(`textstress: ${where} sends the environment variable ${authEnv} as its Authorization header\n`);
  }
}

/**
 * The paired comparison of a test's run with the baseline's run of the same test (same examples), over the metrics
 * its baseline checks name, Holm across them; undefined when there is no such check or the runs cannot be paired
 * (not per-example runs, or different examples): those checks then compare raw values.
 */
async function pairedWithBaseline(
  name: string,
  group: RunGroup,
  exprs: readonly string[],
  baseline: readonly RunGroup[],
  suite: Suite,
  registry: Registry,
): Promise<Comparison | undefined> {
  const named = exprs
    .map((e) => parseThreshold(e, registry.metrics()))
    .filter((t) => t.baseline && (t.metric in BINARY_METRICS || t.metric.endsWith('_f1')));
  const b = baseline.find((g) => g.name === name) ?? (baseline.length === 1 ? baseline[0] : undefined);
  if (!named.length || !b) return undefined;
  const dirOf = (g: RunGroup): string => (groupSubject(g, registry).run as { dir: string }).dir;
  try {
    return await compareRuns(dirOf(b), dirOf(group), {
      seed: suite.seed ?? 0,
      alpha: suite.alpha ?? 0.05,
      metrics: [...new Set(named.map((t) => t.metric))],
      maxExamples: 0,
    });
  } catch {
    return undefined;
  }
}

/** A test that measured nothing fails the gate, whatever its thresholds: a metric over zero examples is no pass. */
function emptyRunChecks(test: string, group: RunGroup, registry: Registry): CheckResult[] {
  const measured = [...group.runs, ...group.stress, ...group.generated].map((run) => ({
    run,
    ...kindOfSummary(run.summary, registry).finished!.gate.measured(run),
  }));
  const empty = measured.filter((m) => m.n === 0);
  if (!empty.length) return [];
  const where = empty.map((m) => m.run.name).join(', ');
  return [{ test, expr: 'n > 0', passed: false, message: `${test}: no ${empty[0]!.unit} (0 in ${where}) — nothing was measured` }];
}

function pick(what: 'model' | 'dataset', name: string | undefined, names: string[], test: string, file: string): string {
  if (name !== undefined) {
    if (!names.includes(name)) {
      throw new TextstressError(`test "${test}" names ${what} "${name}", which the suite does not define.`, {
        where: file,
        hint: `Defined ${what}s: ${names.join(', ') || 'none'}.`,
      });
    }
    return name;
  }
  if (names.length !== 1) {
    throw new TextstressError(`test "${test}" must say which ${what} to use (the suite defines ${names.length}).`, { where: file });
  }
  return names[0]!;
}

function modelOptions(entry: ModelEntry, dir: string): ModelSpec & { labelMap?: string } {
  const e = typeof entry === 'string' ? { path: entry } : entry;
  const local = suitePath(dir, e.path);
  const model = /^https?:\/\//.test(e.path) ? e.path : existsSync(local) ? relative(process.cwd(), local) || '.' : e.path;
  return { model, ...fromSuiteEntry('model', e, (p) => suitePath(dir, p)) };
}

type DataResult = { ok: true; options: DataSpec } | { ok: false; optional: boolean; reason: string };

function dataOptions(entry: DatasetEntry, dir: string): DataResult {
  const e = typeof entry === 'string' ? { path: entry } : entry;
  // A hub dataset (hf:owner/name:split) is no path: not resolved against the suite folder, never "not found" here.
  const hub = isHubSpec(e.path);
  const primary = hub ? e.path : suitePath(dir, e.path);
  const fallback = !hub && e.fallback ? suitePath(dir, e.fallback) : undefined;
  const file = hub || existsSync(primary) ? primary : fallback && existsSync(fallback) ? fallback : undefined;
  if (!file) {
    return {
      ok: false,
      optional: e.optional === true,
      reason: `${relative(process.cwd(), primary)} not found${fallback ? ` (nor the fallback ${relative(process.cwd(), fallback)})` : ''}`,
    };
  }
  const given = fromSuiteEntry('dataset', e, (p) => suitePath(dir, p));
  return { ok: true, options: { data: hub ? file : relative(process.cwd(), file) || file, ...given } };
}

/** One line per test: the headline numbers, as each test's kind reads them. */
export function suiteTable(groups: readonly RunGroup[], registry?: Registry): string {
  const rows = groups.map((g) => {
    const subject = groupSubject(g, registry);
    return [g.name, ...subject.gate.row(subject.run)];
  });
  const head = ['test', 'recipe', 'n', 'clean', 'attacked', 'success', 'stability'];
  // Generators and encoder probes have no clean/attacked figures: theirs get a column of their own.
  if (rows.some((r) => (r[head.length] ?? '') !== '')) head.push('other figures');
  return formatGrid(
    head,
    rows.map((r) => [...r, ...Array<string>(Math.max(0, head.length - r.length)).fill('')].slice(0, head.length)),
  );
}
