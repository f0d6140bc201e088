import type { Shard } from '../runner/shard.ts';
import { runQueued } from '../queue/coordinator.ts';
import { isOpenAiSpec } from '../models/load.ts';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ModelAdapter } from '../models/types.ts';
import type { QueryEngine } from '../query/engine.ts';
import { camelKeys } from '../util/casing.ts';
import { figureDisplays, type Registry } from '../recipes/registry/registry.ts';
import { emptyRunChecks, failedChecks, type FailedTest } from './measured.ts';
export type { FailedTest } from './measured.ts';
import { formatGrid } from '../util/table.ts';
import { loadGroups, renderReport, writeHtmlReport, VERDICT_FILE } from '../report/html/index.ts';
import { groupSubject } from '../report/html/load.ts';
import { refusal, supports } from '../kinds/index.ts';
import type { CheckResult, DataFallback, RunGroup, Verdict } from '../report/html/types.ts';
import { lockFolder } from '../runner/lock.ts';
import { runRecipe, type ProgressSink } from '../kinds/run.ts';
import { openEngine, openModel, openModelToInspect } from '../runner/open.ts';
import { TextstressError, errorMessage } from '../util/errors.ts';
import { fromSuiteEntry } from '../options/derive.ts';
import { checkTest, parseThreshold, verdictOf } from './gate.ts';
import { BINARY_METRICS, compareRuns, type Comparison } from '../report/compare/index.ts';
import { suitePath, suiteSettings, type LoadedSuite } from './load.ts';
import { dataOptions, modelOptions, pick, type DataResult } from './entries.ts';
import { DEFAULT_MIN_N, type Suite, type SuiteTest } from './schema.ts';
import { terminalSafe } from '../util/terminal.ts';

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
    if (opts.progress !== false) process.stderr.write(`textstress: ${terminalSafe(s, { keepLayout: true })}\n`);
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
  // A model that could not be opened fails every test that names it, opened once.
  const unopened = new Map<string, string>();
  const skipped: { test: string; reason: string }[] = [];
  const fallbacks: DataFallback[] = [];
  const failed: FailedTest[] = [];
  const ran: { test: SuiteTest; group: RunGroup }[] = [];
  // A test that stops with an error costs its own row: marked failed with the reason, and the suite goes on.
  const fail = (i: number, test: SuiteTest, reason: string): void => {
    failed.push({ test: test.name, recipe: test.recipe, reason });
    log(`[${i + 1}/${suite.tests.length}] ${test.name}: FAILED — ${reason}`);
  };
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
        fail(
          i,
          test,
          `dataset "${dataName}": ${data.reason}. Fix the path (relative to the suite file), add a \`fallback\`, or mark it \`optional: true\`.`,
        );
        continue;
      }
      const notEstimated = opts.dryRun ? refusal(opts.registry.get(test.recipe), 'dryRun') : undefined;
      if (notEstimated) {
        skipped.push({ test: test.name, reason: `not estimated: ${notEstimated.message}` });
        log(`[${i + 1}/${suite.tests.length}] ${test.name}: skipped (${notEstimated.message})`);
        continue;
      }
      const limit = opts.limit ?? test.limit ?? (data?.ok ? data.options.limit : undefined);
      const fellBack = data?.ok && data.fallback ? { dataset: dataName!, ...data.fallback } : undefined;
      if (fellBack) {
        const known = fallbacks.find((f) => f.dataset === fellBack.dataset);
        if (known) known.tests.push(test.name);
        else fallbacks.push({ ...fellBack, tests: [test.name] });
      }
      log(
        `[${i + 1}/${suite.tests.length}] ${test.name}: ${test.recipe} on ` +
          `${modelName}${dataName ? ` over ${dataName}` : ''}${limit ? ` (first ${limit})` : ''}` +
          `${fellBack ? ` — FALLBACK DATA: ${fellBack.wanted} not found, using ${fellBack.used}` : ''} …`,
      );
      const t0 = performance.now();
      const notOpened = unopened.get(modelName);
      if (notOpened !== undefined) {
        fail(i, test, `model "${modelName}" could not be opened: ${notOpened}`);
        continue;
      }
      let shared = models.get(modelName);
      if (!shared) {
        try {
          const model = inspectsOnly(modelName) ? await openModelToInspect(modelOpts) : await openModel(modelOpts);
          shared = { model, engine: openEngine(model, modelOpts) };
          models.set(modelName, shared);
        } catch (err) {
          unopened.set(modelName, errorMessage(err));
          fail(i, test, `model "${modelName}" could not be opened: ${errorMessage(err)}`);
          continue;
        }
      }
      try {
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
        // Fewer examples than the limit asked for: the data held no more (a fallback is often smaller).
        const n = (subject.run.summary as { n?: unknown }).n;
        const short =
          limit !== undefined && data?.ok && group.runs.length + group.stress.length === 1 && typeof n === 'number' && n < limit;
        log(
          `    ${test.name}: ${subject.gate.line(subject.run, figureDisplays(opts.registry))} (${took})` +
            (short && data?.ok
              ? `\n    ${test.name}: n = ${String(n)}, not the first ${limit} asked for: ${data.options.data} holds no more`
              : ''),
        );
      } catch (err) {
        fail(i, test, errorMessage(err));
      }
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
    const checks = failedChecks(failed);
    const verdict: Verdict = {
      ...(checks.length ? verdictOf(checks) : { passed: true, checks }),
      skipped: [
        {
          test: '(all)',
          reason: `shard ${opts.shard.index}/${opts.shard.count}: the gate applies after textstress merge and run --resume`,
        },
      ],
      ...(failed.length ? { failed } : {}),
    };
    return { verdict, report: '', groups: ran.map((r) => r.group) };
  }
  const baselineDir = opts.baseline ?? (suite.baseline ? suitePath(dir, suite.baseline) : undefined);
  const baseline = baselineDir ? await loadGroups([baselineDir], { sampleSize: 0 }) : undefined;
  const metrics = opts.registry.metrics();
  const minN = suite.min_n ?? DEFAULT_MIN_N;
  const checks: CheckResult[] = failedChecks(failed);
  for (const { test, group } of ran) {
    const exprs = [...(suite.gate ?? []), ...(test.thresholds ?? [])];
    const paired = baseline ? await pairedWithBaseline(test.name, group, exprs, baseline, suite, opts.registry) : undefined;
    checks.push(
      ...emptyRunChecks(test.name, group, opts.registry),
      ...checkTest(test.name, group, exprs, baseline, metrics, opts.registry, { minN, ...(paired ? { paired } : {}) }),
    );
  }
  const verdict: Verdict = {
    ...verdictOf(checks, metrics),
    ...(skipped.length ? { skipped } : {}),
    ...(fallbacks.length ? { fallbacks } : {}),
    ...(failed.length ? { failed } : {}),
  };
  writeFileSync(join(opts.out, VERDICT_FILE), JSON.stringify(verdict, null, 2) + '\n');
  writeFileSync(
    join(opts.out, 'suite.json'),
    JSON.stringify({ file: loaded.file, suite, ...(fallbacks.length ? { fallbacks } : {}) }, null, 2) + '\n',
  );
  const report = opts.html ?? join(opts.out, 'report.html');
  const groups = ran.map((r) => r.group);
  const reportOpts = {
    verdict,
    registry: opts.registry,
    ...(baselineDir ? { baselineDir } : {}),
    ...(suite.name ? { title: suite.name } : {}),
    ...(suite.report?.title ? { title: suite.report.title } : {}),
    ...(suite.report?.max_examples ? { maxExamples: suite.report.max_examples } : {}),
  };
  if (groups.length) await writeHtmlReport([opts.out], report, reportOpts);
  // No test finished: the report is the verdict, which names each failure and its reason.
  else if (failed.length) {
    const { baselineDir: _b, ...rest } = reportOpts;
    mkdirSync(dirname(report), { recursive: true });
    writeFileSync(report, await renderReport([], rest));
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
      process.stderr.write(
        terminalSafe(`textstress: ${where} sends the environment variable ${authEnv} as its Authorization header`) + '\n',
      );
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
  const dirOf = (g: RunGroup): string => groupSubject(g, registry).run.dir;
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

/** One line per test: the headline numbers, as each test's kind reads them; a test that failed, FAILED and why. */
export function suiteTable(groups: readonly RunGroup[], registry?: Registry, failed: readonly FailedTest[] = []): string {
  const rows = groups.map((g) => {
    const subject = groupSubject(g, registry);
    return [g.name, ...subject.gate.row(subject.run, registry ? figureDisplays(registry) : {})];
  });
  // A test that did not finish: its row says so, with the start of the reason (the gate's lines hold all of it).
  const short = (why: string): string => (why.length > 100 ? `${why.slice(0, 99)}…` : why);
  for (const f of failed) rows.push([f.test, f.recipe, 'FAILED', '', '', '', '', short(f.reason)]);
  const head = ['test', 'recipe', 'n', 'clean', 'attacked', 'success', 'stability'];
  // Generators and encoder probes have no clean/attacked figures: theirs get a column of their own.
  if (rows.some((r) => (r[head.length] ?? '') !== '')) head.push('other figures');
  return formatGrid(
    head,
    rows.map((r) => [...r, ...Array<string>(Math.max(0, head.length - r.length)).fill('')].slice(0, head.length)),
  );
}
