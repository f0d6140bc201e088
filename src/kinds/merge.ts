/**
 * `textstress merge OUT_1 … OUT_N --out OUT`: joins the folders of a run made in N shards (`--shard I/N`) into the
 * folder one process would have written. It checks that the shards belong together (same settings, data file and
 * shard count; every index once; each complete), that every example of the data lies in exactly one shard's results
 * and in its own shard, then writes results.jsonl in data order and has the recipe finish the run from it (a resume
 * with nothing left to do): summary.json, run.json and any files the recipe writes (D_worst / D_best) are then the
 * same as an unsharded run's, timing and traffic aside.
 */
import {
  appendFileSync,
  closeSync,
  createReadStream,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Registry } from '../recipes/registry/registry.ts';
import { TextstressError } from '../util/errors.ts';
import { RESULTS_FILE, STATE_FILE, SUMMARY_FILE, type RunSettings } from '../runner/per-example.ts';
import { runRecipe, type RecipeOutcome, type RunRequest } from './run.ts';
import { readStateFile } from '../runner/resume.ts';
import { openData } from '../runner/open.ts';
import { shardOf } from '../runner/shard.ts';
import { kindOf } from './index.ts';

interface ShardState {
  settings: RunSettings;
  request?: Record<string, unknown>;
  data_fingerprint?: string;
  status: string;
  wall_seconds: number;
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

/** Joins the shard folders into `out` and finishes the run there (see the file comment). */
export async function mergeShards(
  dirs: readonly string[],
  opts: { registry: Registry; out: string; overwrite?: boolean },
): Promise<RecipeOutcome> {
  const { states, dirs: ordered } = readShards(dirs);
  const count = states.length;
  if (existsSync(join(opts.out, STATE_FILE)) || existsSync(join(opts.out, RESULTS_FILE))) {
    if (!opts.overwrite)
      throw new TextstressError(`${opts.out} already holds a run.`, { hint: 'Pass --overwrite to replace it, or name another --out.' });
    for (const f of [STATE_FILE, RESULTS_FILE, SUMMARY_FILE]) rmSync(join(opts.out, f), { force: true });
  }
  mkdirSync(opts.out, { recursive: true });
  const request = states[0]!.request as Record<string, unknown> & Pick<RunRequest, 'recipe' | 'settings' | 'seed' | 'data'>;
  const index = await indexResults(ordered, count);

  // The data's examples in order, each result copied from its shard: the order one process writes.
  const resultsPath = join(opts.out, RESULTS_FILE);
  writeFileSync(resultsPath, '');
  const fds = ordered.map((d) => openSync(join(d, RESULTS_FILE), 'r'));
  const copied = ordered.map(() => 0);
  const selects = kindOf(opts.registry.get(request.recipe)).perExample?.mayLeaveOut === true;
  try {
    const dataset = await openData(request as unknown as Parameters<typeof openData>[0]);
    for await (const example of dataset.examples()) {
      const at = index.get(example.id);
      if (!at) {
        const shard = shardOf(example.id, count);
        // A stress suite may leave examples out by design (its selection); the counts below still catch a lost one.
        if (selects) continue;
        throw new TextstressError(
          `example ${example.source ?? example.id} (id ${example.id}) is missing from shard ${shard}/${count} (${ordered[shard]}).`,
          {
            hint: 'That shard did not finish it: run the shard again with --resume, then merge.',
          },
        );
      }
      const buf = Buffer.alloc(at.length);
      readSync(fds[at.shard]!, buf, 0, at.length, at.offset);
      appendFileSync(resultsPath, buf.toString('utf8') + '\n');
      copied[at.shard]!++;
      index.delete(example.id);
    }
  } finally {
    for (const fd of fds) closeSync(fd);
  }
  if (index.size) {
    const [id, at] = index.entries().next().value!;
    throw new TextstressError(
      `${index.size} result${index.size === 1 ? '' : 's'} belong${index.size === 1 ? 's' : ''} to no example of the data, e.g. ${id} in ${ordered[at.shard]}.`,
      {
        hint: 'The shards were run on other data than the file named in their run.json now holds.',
      },
    );
  }
  ordered.forEach((dir, i) => {
    const n = (JSON.parse(readFileSync(join(dir, SUMMARY_FILE), 'utf8')) as { n?: number }).n;
    if (n !== undefined && n !== copied[i]) {
      throw new TextstressError(
        `shard ${i}/${count} in ${dir}: its summary counts ${n} examples, but ${copied[i]} results of the data's examples are in its results.jsonl.`,
        {
          hint: 'Its results.jsonl lost or gained lines since the shard finished: run that shard again (--overwrite), then merge.',
        },
      );
    }
  });
  const { shard: _shard, ...settings } = states[0]!.settings;
  const wall = states.reduce((s, x) => s + x.wall_seconds, 0);
  writeFileSync(
    join(opts.out, STATE_FILE),
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
  return runRecipe({
    ...(spec as Omit<RunRequest, 'registry' | 'recipe' | 'settings' | 'out'>),
    registry: opts.registry,
    recipe,
    settings: recipeSettings,
    out: opts.out,
    resume: true,
  });
}

/**
 * The shard folders of a suite run (`run suite.yaml --shard I/N`): each test's N folders merged into OUT/<test>.
 * The gate and report then come from `run suite.yaml --out OUT --resume`, which finds every test finished.
 */
export async function mergeSuiteShards(
  dirs: readonly string[],
  opts: { registry: Registry; out: string; overwrite?: boolean },
): Promise<{ test: string; outcome: RecipeOutcome }[]> {
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
  const out: { test: string; outcome: RecipeOutcome }[] = [];
  for (const test of tests)
    out.push({
      test,
      outcome: await mergeShards(
        dirs.map((d) => join(d, test)),
        { ...opts, out: join(opts.out, test) },
      ),
    });
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
