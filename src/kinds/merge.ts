/**
 * `textstress merge OUT_1 … OUT_N --out OUT`: joins the folders of a run made in N shards (`--shard I/N`) into the
 * folder one process would have written. It checks that the shards belong together (same settings, data file and
 * shard count; every index once; each complete), that every example of the data lies in exactly one shard's results
 * and in its own shard, then writes results.jsonl in data order and has the recipe finish the run from it (a resume
 * with nothing left to do): summary.json, run.json and any files the recipe writes (D_worst / D_best) are then the
 * same as an unsharded run's, timing and traffic aside.
 *
 * Nothing is written before everything is checked (the output folder is none of the shards, each shard's files are
 * what it wrote when it finished, every example is found), and the joined run is built in a hidden sibling folder
 * that is moved into OUT only once it is complete: a refused or failed merge leaves OUT and the shards as they were.
 */
import {
  closeSync,
  createReadStream,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { refuseOverlap } from './merge-paths.ts';
import { createInterface } from 'node:readline';
import type { Registry } from '../recipes/registry/registry.ts';
import { TextstressError } from '../util/errors.ts';
import { RESULTS_FILE, STATE_FILE, SUMMARY_FILE, type RunSettings } from '../runner/per-example.ts';
import { runRecipe, type RecipeOutcome, type RunRequest } from './run.ts';
import { readStateFile } from '../runner/resume.ts';
import { fileFingerprint, openData } from '../runner/open.ts';
import { shardOf } from '../runner/shard.ts';
import { checkDigests, type Digests } from '../runner/digest.ts';
import { lockFolder } from '../runner/lock.ts';
import { kindOf } from './index.ts';

interface ShardState {
  settings: RunSettings;
  request?: Record<string, unknown>;
  data_fingerprint?: string;
  status: string;
  wall_seconds: number;
  digests?: Digests;
}

interface Located {
  shard: number;
  offset: number;
  length: number;
}

/** The shard folders' states, checked to belong to one run; returned by shard index. */
function readShards(dirs: readonly string[]): { states: ShardState[]; dirs: string[] } {
  if (dirs.length === 0) throw new TextstressError('merge needs the shard folders.', { hint: 'textstress merge OUT_0 OUT_1 … --out OUT' });
  const byIndex = new Map<number, { dir: string; state: ShardState }>();
  let first: { dir: string; state: ShardState; plain: string } | undefined;
  for (const dir of dirs) {
    const state = readStateFile<ShardState>(join(dir, STATE_FILE));
    if (!state)
      throw new TextstressError(`${dir} holds no run (no ${STATE_FILE}).`, { hint: 'Name the output folders of the sharded runs.' });
    const shard = state.settings.shard;
    if (!shard) throw new TextstressError(`${dir} holds a run that was not sharded (no --shard in its settings).`);
    if (state.status !== 'complete' || !existsSync(join(dir, SUMMARY_FILE))) {
      throw new TextstressError(`shard ${shard.index}/${shard.count} in ${dir} is not finished (status ${state.status}).`, {
        hint: 'Finish it with the same command and --resume, then merge.',
      });
    }
    if (!state.request)
      throw new TextstressError(`${dir}/${STATE_FILE} does not say how the run was made (written by an older textstress).`, {
        hint: 'Re-run the shard with this version.',
      });
    if (!state.digests)
      throw new TextstressError(
        `shard ${shard.index}/${shard.count} in ${dir}: ${STATE_FILE} holds no content digests (finished by an older textstress), ` +
          'so its results cannot be verified.',
        { hint: 'Run that shard again with this version (same command with --overwrite), then merge.' },
      );
    checkDigests(dir, state.digests, `shard ${shard.index}/${shard.count}`);
    const { shard: _s, ...rest } = state.settings;
    const plain = JSON.stringify({
      settings: rest,
      count: shard.count,
      data: state.data_fingerprint ?? null,
      request: { ...state.request, shard: undefined },
    });
    if (!first) first = { dir, state, plain };
    else if (plain !== first.plain) {
      throw new TextstressError(
        `${dir} and ${first.dir} are not shards of the same run: ${differences(first.state, state).join('; ') || 'their settings differ'}.`,
        {
          hint: 'Merge only the N folders of one sharded command (same recipe, settings, model, data, seed and N).',
        },
      );
    }
    const other = byIndex.get(shard.index);
    if (other) throw new TextstressError(`shard ${shard.index}/${shard.count} is given twice: ${other.dir} and ${dir}.`);
    byIndex.set(shard.index, { dir, state });
  }
  const count = first!.state.settings.shard!.count;
  const missing = Array.from({ length: count }, (_, i) => i).filter((i) => !byIndex.has(i));
  if (missing.length) {
    throw new TextstressError(
      `shard${missing.length === 1 ? '' : 's'} ${missing.map((i) => `${i}/${count}`).join(', ')} ${missing.length === 1 ? 'is' : 'are'} missing.`,
      {
        hint: `A run in ${count} shards needs all ${count} folders.`,
      },
    );
  }
  const ordered = Array.from({ length: count }, (_, i) => byIndex.get(i)!);
  return { states: ordered.map((o) => o.state), dirs: ordered.map((o) => o.dir) };
}

/** What differs between two shards' settings, in a few words. */
function differences(a: ShardState, b: ShardState): string[] {
  const out: string[] = [];
  for (const k of ['recipe', 'model', 'dataset', 'seed', 'limit'] as const) {
    if (JSON.stringify(a.settings[k]) !== JSON.stringify(b.settings[k]))
      out.push(`${k} ${JSON.stringify(a.settings[k])} vs ${JSON.stringify(b.settings[k])}`);
  }
  if (a.settings.shard!.count !== b.settings.shard!.count) out.push(`shard count ${a.settings.shard!.count} vs ${b.settings.shard!.count}`);
  if (JSON.stringify(a.settings.options) !== JSON.stringify(b.settings.options)) out.push('recipe or data options');
  if (a.data_fingerprint !== b.data_fingerprint) out.push('the data file changed between them');
  return out;
}

/** Where each result line is: id → shard, byte offset and length (only ids and numbers are held). */
async function indexResults(dirs: readonly string[], count: number): Promise<Map<string, Located>> {
  const index = new Map<string, Located>();
  for (const [shard, dir] of dirs.entries()) {
    const path = join(dir, RESULTS_FILE);
    let offset = 0;
    let line = 0;
    const rl = createInterface({ input: createReadStream(path), crlfDelay: Infinity });
    for await (const text of rl) {
      line++;
      const length = Buffer.byteLength(text) + 1;
      if (text.trim()) {
        let id: unknown;
        try {
          id = (JSON.parse(text) as { id?: unknown }).id;
        } catch {
          throw new TextstressError(`${path}:${line} is not a JSON result line.`);
        }
        if (typeof id !== 'string') throw new TextstressError(`${path}:${line} has no example id.`);
        const seen = index.get(id);
        if (seen) throw new TextstressError(`example ${id} is in the results twice: ${dirs[seen.shard]} and ${path}:${line}.`);
        if (shardOf(id, count) !== shard) {
          throw new TextstressError(
            `example ${id} is in shard ${shard}'s results (${path}:${line}) but belongs to shard ${shardOf(id, count)}/${count}.`,
          );
        }
        index.set(id, { shard, offset, length: Buffer.byteLength(text) });
      }
      offset += length;
    }
  }
  return index;
}

/**
 * Each example of the data with its result's place, in data order; throws, before anything is written, when an
 * example has no result, a result belongs to no example, or a shard's summary counts other examples than it holds.
 */
async function dataOrder(
  request: Parameters<typeof openData>[0],
  index: Map<string, Located>,
  dirs: readonly string[],
  selects: boolean,
): Promise<Located[]> {
  const count = dirs.length;
  const order: Located[] = [];
  const dataset = await openData(request);
  for await (const example of dataset.examples()) {
    const at = index.get(example.id);
    if (!at) {
      const shard = shardOf(example.id, count);
      // A stress suite may leave examples out by design (its selection); the counts below still catch a lost one.
      if (selects) continue;
      throw new TextstressError(
        `example ${example.source ?? example.id} (id ${example.id}) is missing from shard ${shard}/${count} (${dirs[shard]}).`,
        {
          hint: 'That shard did not finish it: run the shard again with --resume, then merge.',
        },
      );
    }
    order.push(at);
    index.delete(example.id);
  }
  if (index.size) {
    const [id, at] = index.entries().next().value!;
    throw new TextstressError(
      `${index.size} result${index.size === 1 ? '' : 's'} belong${index.size === 1 ? 's' : ''} to no example of the data, e.g. ${id} in ${dirs[at.shard]}.`,
      {
        hint: 'The shards were run on other data than the file named in their run.json now holds.',
      },
    );
  }
  dirs.forEach((dir, i) => {
    const n = (JSON.parse(readFileSync(join(dir, SUMMARY_FILE), 'utf8')) as { n?: number }).n;
    const copied = order.filter((at) => at.shard === i).length;
    if (n !== undefined && n !== copied) {
      throw new TextstressError(
        `shard ${i}/${count} in ${dir}: its summary counts ${n} examples, but ${copied} results of the data's examples are in its results.jsonl.`,
        {
          hint: 'Its results.jsonl lost or gained lines since the shard finished: run that shard again (--overwrite), then merge.',
        },
      );
    }
  });
  return order;
}

/** Copies each result line, in data order, from its shard's results.jsonl into `path`. */
function writeResults(path: string, dirs: readonly string[], order: readonly Located[]): void {
  const out = openSync(path, 'w');
  const fds = dirs.map((d) => openSync(join(d, RESULTS_FILE), 'r'));
  try {
    for (const at of order) {
      const buf = Buffer.alloc(at.length + 1);
      readSync(fds[at.shard]!, buf, 0, at.length, at.offset);
      buf[at.length] = 0x0a;
      writeSync(out, buf);
    }
  } finally {
    for (const fd of fds) closeSync(fd);
    closeSync(out);
  }
}

/** Moves every file of the finished `from` into `to` (renames in one file system: each file whole or not at all). */
function moveInto(from: string, to: string, replace: readonly string[]): void {
  for (const f of replace) rmSync(join(to, f), { force: true });
  for (const entry of readdirSync(from)) renameSync(join(from, entry), join(to, entry));
}

/** The outcome of the run built in `tmp`, its paths pointing into `out` where its files now are. */
function relocate(outcome: RecipeOutcome, tmp: string, out: string): RecipeOutcome {
  if (outcome.kind === 'probe' && outcome.sets) {
    const sets = { worst: join(out, relative(tmp, outcome.sets.worst)), best: join(out, relative(tmp, outcome.sets.best)) };
    return { ...outcome, dir: out, sets };
  }
  return { ...outcome, dir: out };
}

interface MergeOptions {
  registry: Registry;
  out: string;
  overwrite?: boolean;
}

/** A merge checked in full and not yet written: the shards' states and folders, and each result's place in data order. */
interface MergePlan {
  opts: MergeOptions;
  states: ShardState[];
  ordered: string[];
  order: Located[];
  request: Record<string, unknown> & Pick<RunRequest, 'recipe' | 'settings' | 'seed' | 'data'>;
}

/** Joins the shard folders into `out` and finishes the run there (see the file comment). */
export async function mergeShards(dirs: readonly string[], opts: MergeOptions): Promise<RecipeOutcome> {
  return writeMerge(await checkMerge(dirs, opts));
}

/** Everything a merge checks, before anything is written (see the file comment). */
async function checkMerge(dirs: readonly string[], opts: MergeOptions): Promise<MergePlan> {
  refuseOverlap(dirs, opts.out);
  const { states, dirs: ordered } = readShards(dirs);
  const count = states.length;
  if ((existsSync(join(opts.out, STATE_FILE)) || existsSync(join(opts.out, RESULTS_FILE))) && !opts.overwrite)
    throw new TextstressError(`${opts.out} already holds a run.`, { hint: 'Pass --overwrite to replace it, or name another --out.' });
  const request = states[0]!.request as Record<string, unknown> & Pick<RunRequest, 'recipe' | 'settings' | 'seed' | 'data'>;
  const selects = kindOf(opts.registry.get(request.recipe)).perExample?.mayLeaveOut === true;
  const before = states[0]!.data_fingerprint;
  if (before && typeof request.data === 'string' && (await fileFingerprint(request.data)) !== before) {
    throw new TextstressError(`the data file ${request.data} changed since the shards ran (its size or content differs).`, {
      hint: 'Merge with the data the shards ran on, or run the shards again on the new data; nothing was written.',
    });
  }
  const index = await indexResults(ordered, count);
  // The data's examples in order, each result taken from its shard: the order one process writes.
  const order = await dataOrder(request as unknown as Parameters<typeof openData>[0], index, ordered, selects);
  return { opts, states, ordered, order, request };
}

/** Builds the checked merge in a hidden sibling of `out`, and moves it into `out` once the recipe has finished it. */
async function writeMerge({ opts, states, ordered, order, request }: MergePlan): Promise<RecipeOutcome> {
  const out = resolve(opts.out);
  const tmp = join(dirname(out), `.${basename(out)}.merging-${process.pid}-${Date.now()}`);
  mkdirSync(tmp, { recursive: true });
  try {
    writeResults(join(tmp, RESULTS_FILE), ordered, order);
    const { shard: _shard, ...settings } = states[0]!.settings;
    const wall = states.reduce((s, x) => s + x.wall_seconds, 0);
    writeFileSync(
      join(tmp, STATE_FILE),
      JSON.stringify(
        {
          settings,
          ...(states[0]!.data_fingerprint ? { data_fingerprint: states[0]!.data_fingerprint } : {}),
          status: 'running',
          wall_seconds: wall,
          updated_at: new Date().toISOString(),
        },
        null,
        2,
      ) + '\n',
    );
    // The recipe finishes the run from the joined results, as a resume with nothing left to do.
    const { recipe, settings: recipeSettings, ...spec } = request;
    const outcome = await runRecipe({
      ...(spec as Omit<RunRequest, 'registry' | 'recipe' | 'settings' | 'out'>),
      registry: opts.registry,
      recipe,
      settings: recipeSettings,
      out: tmp,
      resume: true,
    });
    const release = lockFolder(out);
    try {
      moveInto(tmp, out, [STATE_FILE, RESULTS_FILE, SUMMARY_FILE]);
    } finally {
      release();
    }
    return relocate(outcome, tmp, opts.out);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * The shard folders of a suite run (`run suite.yaml --shard I/N`): each test's N folders merged into OUT/<test>.
 * The gate and report then come from `run suite.yaml --out OUT --resume`, which finds every test finished.
 */
export async function mergeSuiteShards(dirs: readonly string[], opts: MergeOptions): Promise<{ test: string; outcome: RecipeOutcome }[]> {
  refuseOverlap(dirs, opts.out);
  const testsOf = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isDirectory() && existsSync(join(dir, d.name, STATE_FILE)))
      .map((d) => d.name)
      .sort();
  const tests = testsOf(dirs[0]!);
  for (const dir of dirs.slice(1)) {
    const here = testsOf(dir);
    const missing = tests.filter((t) => !here.includes(t));
    const extra = here.filter((t) => !tests.includes(t));
    if (missing.length || extra.length) {
      throw new TextstressError(
        `${dir} and ${dirs[0]} are not shards of the same suite run: ` +
          `${missing.length ? `${dir} lacks ${missing.join(', ')}` : `${dir} also holds ${extra.join(', ')}`}.`,
      );
    }
  }
  // Every test checked before any is written: a refused suite merge writes nothing.
  const plans: MergePlan[] = [];
  for (const test of tests)
    plans.push(
      await checkMerge(
        dirs.map((d) => join(d, test)),
        { ...opts, out: join(opts.out, test) },
      ),
    );
  const out: { test: string; outcome: RecipeOutcome }[] = [];
  for (const [i, test] of tests.entries()) out.push({ test, outcome: await writeMerge(plans[i]!) });
  return out;
}

/** Whether a folder holds a suite run's tests (test folders with run.json) rather than one run. */
export function isSuiteFolder(dir: string): boolean {
  return (
    !existsSync(join(dir, STATE_FILE)) &&
    existsSync(dir) &&
    readdirSync(dir, { withFileTypes: true }).some((d) => d.isDirectory() && existsSync(join(dir, d.name, STATE_FILE)))
  );
}
