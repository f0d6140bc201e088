/**
 * `npm run zoo`: the compatibility matrix of docs/compatibility.md, made by running it. Every recipe of the registry
 * (and `eval`, and `serve` answering an HTTP attack) runs on every model of the architecture zoo (../shared/zoo: tiny
 * models of nine encoder families, see its README) whose task the recipe declares, on a few examples of the data
 * that task takes, as a user runs it: `node bin/textstress.mjs …` in a process of its own. A cell says "works" (exit
 * 0), "not applicable" (the recipe declares no task the model has) or "not supported" with the error the user got,
 * shortened. Regenerate after any change to recipes, models or tokenization; a new recipe gets a column by itself.
 *
 *   npx tsx scripts/zoo-matrix.ts [--zoo DIR] [--data DIR] [--jobs N] [--timeout S] [--models a,b] [--recipes x,y]
 *                                 [--out FILE] [--check]
 *
 * --models / --recipes run a part and print it (the file is left as it is); --check writes nothing and exits 1 when the
 * file is not what the zoo gives now. Needs ../shared (the zoo and the data sets).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { builtinRegistry } from '../src/families/index.ts';
import { commandsOf } from '../src/kinds/index.ts';
import type { AnyRecipe } from '../src/recipes/registry/define.ts';
import { renderMatrix, type Cell, type Column, type ZooModel } from './zoo-matrix-render.ts';

const ROOT = resolve(import.meta.dirname, '..');
const BIN = join(ROOT, 'bin', 'textstress.mjs');
const { values: args } = parseArgs({
  options: {
    zoo: { type: 'string', default: resolve(ROOT, '..', 'shared', 'zoo') },
    data: { type: 'string', default: resolve(ROOT, '..', 'shared', 'data') },
    jobs: { type: 'string', default: '2' },
    timeout: { type: 'string', default: '300' },
    models: { type: 'string' },
    recipes: { type: 'string' },
    out: { type: 'string', default: join(ROOT, 'docs', 'compatibility.md') },
    check: { type: 'boolean', default: false },
  },
});
const ZOO = resolve(args.zoo);
const DATA = resolve(args.data);
if (!existsSync(join(ZOO, 'manifest.json'))) throw new Error(`no zoo at ${ZOO} (manifest.json): pass --zoo DIR`);
const data = (rel: string): string => join(DATA, rel);

/** The zoo's tasks as textstress names them, and the data each runs on. */
const TASKS: Record<ZooModel['task'], { task: string; data?: string; limit: number }> = {
  sst2: { task: 'text-classification', data: data('sst2/dev.tsv'), limit: 3 },
  ner: { task: 'token-classification', data: data('conll2003/eng.testa'), limit: 3 },
  qa: { task: 'question-answering', data: data('squad-v1.1/dev-v1.1.json'), limit: 3 },
  mlm: { task: 'fill-mask', limit: 3 },
};

/**
 * Settings that make each recipe a run of seconds (defaults otherwise). `limit` overrides the task's: the entity
 * probes need examples that hold a name.
 */
const QUICK: Record<string, { args?: string[]; limit?: number }> = {
  typos: { args: ['--k', '1'] },
  'typos-curve': { args: ['--k-max', '2', '--random-seeds', '1'] },
  'grammar-budget-curve': { args: ['--budgets', '0.15,0.3'] },
  entities: { args: ['--budget', '2'], limit: 60 },
  'universal-names': {
    args: ['--rounds', '1', '--per-round', '2', '--candidates', '4', '--budget', '4', '--top', '2', '--random', '2'],
    limit: 40,
  },
  fooling: { args: ['--train', data('sst2/train.tsv'), '--population', '8', '--epochs', '2', '--threshold', '0.9'] },
  'fooling-sweep': {
    args: ['--train', data('sst2/train.tsv'), '--population', '8', '--epochs', '1', '--threshold', '0.9', '--seeds', '0'],
  },
  'probe-layers': { args: ['--error-types', 'Prep', '--design', 'pairs', '--pairs', '20', '--max-epochs', '1', '--examples', '0'] },
  'probe-heads': { args: ['--error-types', 'Prep', '--pairs', '20'] },
  cloze: { args: ['--error-types', 'Prep', '--pairs', '10'] },
  bae: { args: ['--mlm', join(ROOT, 'models', 'demo-mlm')] },
};

/** The result of one process: exit code and what it wrote. */
interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

function run(argv: string[], timeoutS: number): Promise<Ran> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [BIN, ...argv], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' } });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGTERM');
    }, timeoutS * 1000);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr, timedOut });
    });
  });
}

/** The error a user saw, one line: the CLI's "textstress: error: …" paragraph, paths made relative, shortened. */
export function shortError(r: Ran, out: string): string {
  if (r.timedOut) return `did not finish within ${args.timeout} s`;
  const lines = r.stderr.split('\n').filter(Boolean);
  const error = lines
    .filter((l) => l.startsWith('textstress: error: '))
    .at(-1)
    ?.slice('textstress: error: '.length);
  let text = error ?? `exit ${r.code}: ${lines.at(-1) ?? '(no output)'}`;
  for (const [path, name] of [
    [out, '<out>'],
    [ZOO, '<zoo>'],
    [DATA, '<data>'],
    [ROOT, '.'],
  ] as const)
    text = text.split(path).join(name);
  text = text.replace(/\s+/g, ' ').trim();
  // The first sentence says what went wrong; the hint after it is for the reader of the full error.
  const first = /^(.{40,}?[.:;])\s/.exec(text)?.[1] ?? text;
  return first.length > 240 ? `${first.slice(0, 239)}…` : first;
}

async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  await new Promise((r) => srv.close(r));
  return port;
}

/** `serve` the model, then `attack typos` it over HTTP: the model as an endpoint. */
async function servedTypos(model: ZooModel, out: string, timeoutS: number): Promise<Ran> {
  const t = TASKS[model.task];
  if (!t.data) return { code: null, stdout: '', stderr: '', timedOut: false };
  const port = await freePort();
  const server = spawn(process.execPath, [BIN, 'serve', '--model', join(ZOO, model.name), '--port', String(port)], {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: '1' },
  });
  let serverErr = '';
  const listening = new Promise<boolean>((ok) => {
    server.stderr.on('data', (d: Buffer) => {
      serverErr += d.toString();
      if (/serving .* at http/.test(serverErr)) ok(true);
    });
    server.on('close', () => ok(false));
  });
  try {
    if (!(await listening)) return { code: 1, stdout: '', stderr: serverErr, timedOut: false };
    const url = `http://127.0.0.1:${port}`;
    return await run(
      ['attack', 'typos', '--model', url, '--data', t.data, '--limit', String(t.limit), '--k', '1', '--out', out, '--no-progress'],
      timeoutS,
    );
  } finally {
    server.kill('SIGTERM');
  }
}

/** The columns: every recipe of the registry, then eval and serve. */
function columns(recipes: readonly AnyRecipe[]): Column[] {
  const own: Column[] = recipes.map((r) => ({
    name: r.name,
    command: commandsOf(r)[0]!.join(' '),
    tasks: r.tasks.map(String),
    data: r.data ?? 'required',
  }));
  return [
    ...own,
    {
      name: 'eval',
      command: 'eval',
      tasks: ['text-classification', 'pair-classification', 'token-classification', 'question-answering'],
      data: 'required',
    },
    {
      name: 'serve',
      command: 'serve → attack typos over HTTP',
      tasks: ['text-classification', 'pair-classification', 'token-classification', 'question-answering'],
      data: 'required',
    },
  ];
}

async function cell(model: ZooModel, col: Column, timeoutS: number): Promise<Cell> {
  const t = TASKS[model.task];
  if (!col.tasks.includes(t.task)) return { status: 'n/a' };
  const out = mkdtempSync(join(tmpdir(), 'textstress-zoo-'));
  try {
    let ran: Ran;
    if (col.name === 'serve') ran = await servedTypos(model, join(out, 'run'), timeoutS);
    else {
      const quick = QUICK[col.name] ?? {};
      const takesData = col.data !== 'none' && col.data !== 'optional' && t.data !== undefined;
      const argv = [
        ...col.command.split(' '),
        '--model',
        join(ZOO, model.name),
        ...(takesData ? ['--data', t.data!, '--limit', String(quick.limit ?? t.limit)] : []),
        ...(quick.args ?? []),
        ...(col.name === 'eval' ? [] : ['--out', join(out, 'run'), '--no-progress']),
      ];
      if (col.data === 'required' && !takesData) return { status: 'n/a' };
      ran = await run(argv, timeoutS);
    }
    return ran.code === 0 ? { status: 'works' } : { status: 'fails', reason: shortError(ran, join(out, 'run')) };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const manifest = JSON.parse(readFileSync(join(ZOO, 'manifest.json'), 'utf8')) as { models: ZooModel[] };
  const pick = (list: string | undefined) => (list ? new Set(list.split(',')) : undefined);
  const onlyModels = pick(args.models);
  const onlyRecipes = pick(args.recipes);
  const models = manifest.models.filter((m) => !onlyModels || onlyModels.has(m.name));
  const cols = columns(builtinRegistry().all()).filter((c) => !onlyRecipes || onlyRecipes.has(c.name));
  const jobs = models.flatMap((m) => cols.map((c) => ({ m, c })));
  const results = new Map<string, Cell>();
  const timeoutS = Number(args.timeout);
  let next = 0;
  let finished = 0;
  const started = Date.now();
  const worker = async (): Promise<void> => {
    while (next < jobs.length) {
      const { m, c } = jobs[next++]!;
      const r = await cell(m, c, timeoutS);
      results.set(`${m.name}\u0000${c.name}`, r);
      finished++;
      if (r.status !== 'n/a' || finished === jobs.length) {
        const what = r.status === 'fails' ? `FAILS: ${r.reason}` : r.status;
        process.stderr.write(`[${finished}/${jobs.length}] ${m.name} × ${c.name}: ${what}\n`);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Number(args.jobs)) }, worker));
  const md = renderMatrix(models, cols, (m, c) => results.get(`${m.name}\u0000${c.name}`)!, {
    zoo: relative(ROOT, ZOO) || ZOO,
    limits: Object.fromEntries(Object.entries(TASKS).map(([k, v]) => [k, v.limit])),
    quick: QUICK,
    root: ROOT,
    data: DATA,
  });
  const minutes = ((Date.now() - started) / 60_000).toFixed(1);
  // A part of the matrix is printed, never written over the whole one.
  if (onlyModels || onlyRecipes) {
    process.stdout.write(md);
    process.stderr.write(`zoo: ${jobs.length} cells in ${minutes} min (a part: printed, ${relative(ROOT, args.out)} left as it is)\n`);
    return;
  }
  if (args.check) {
    const committed = existsSync(args.out) ? readFileSync(args.out, 'utf8') : '';
    if (committed !== md) {
      process.stderr.write(`zoo: ${relative(ROOT, args.out)} is not what the zoo gives now (${minutes} min): run npm run zoo\n`);
      process.exitCode = 1;
    } else process.stderr.write(`zoo: ${relative(ROOT, args.out)} is up to date (${minutes} min)\n`);
    return;
  }
  writeFileSync(args.out, md);
  process.stderr.write(`zoo: wrote ${relative(ROOT, args.out)} (${jobs.length} cells, ${minutes} min)\n`);
}

await main();
