import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { ExampleResult } from '../../src/core/result.ts';

export const ROOT = resolve(import.meta.dirname, '..', '..');
export const BIN = join(ROOT, 'bin', 'textstress.mjs');
export const DEMO_SST2 = join(ROOT, 'models', 'demo-sst2');
export const DEMO_NER = join(ROOT, 'models', 'demo-ner');
/**
 * Committed slices of the real data files, in their real formats (test/fixtures/data/README.md), so `npm test`
 * needs nothing beside the checkout. Checks on the full data files live in test/full-data/ (npm run test:data).
 */
export const FIXTURE_DATA = join(ROOT, 'test', 'fixtures', 'data');
export const fixtureData = (rel: string): string => join(FIXTURE_DATA, rel);
/** The first 400 sentences of GLUE SST-2 dev. */
export const SST2_DEV = fixtureData('sst2/dev.tsv');
/** The first 200 rows of GLUE SST-2 train. */
export const SST2_TRAIN = fixtureData('sst2/train.tsv');
/** 60 CoNLL-2003-format sentences written for this project (not Reuters text). */
export const CONLL = fixtureData('conll2003/handmade.conll');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function tmp(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `textstress-${prefix}-`));
}

/**
 * The CLI in this process (test/cli/in-process.ts): what most tests use. Where a test needs a real process, it
 * says why beside its call of runCliProcess or startCliProcess.
 */
export { runCliInProcess as runCli } from './in-process.ts';

/**
 * Starts the CLI as a child process, as a user would (node bin/textstress.mjs); env adds to (not replaces) the
 * current environment.
 */
export function startCliProcess(args: string[], env: Record<string, string> = {}): ChildProcess {
  return spawn(process.execPath, [BIN, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** The first match of `re` in what a child writes to stderr; rejects with that text if the child exits first. */
export function stderrMatch(child: ChildProcess, re: RegExp, what: string): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let err = '';
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      const m = re.exec(err);
      if (m) resolve(m);
    });
    child.on('exit', () => reject(new Error(`${what} exited: ${err}`)));
  });
}

/** The URL a `textstress serve` child prints once it listens (rejects if it exits first). */
export async function servedUrl(server: ChildProcess): Promise<string> {
  return (await stderrMatch(server, /serving .* at (http:\/\/\S+)/, 'serve'))[1]!;
}

/** A TCP port that is free on 127.0.0.1 now (for a server a test or benchmark starts). */
export async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  await new Promise((r) => srv.close(r));
  return port;
}

/** `textstress worker --queue URL` (with `extra` flags), resolved once it listens. */
export async function startQueueWorker(url: string, extra: string[] = []): Promise<ChildProcess> {
  const w = startCliProcess(['worker', '--queue', url, ...extra]);
  await stderrMatch(w, /worker listening/, 'worker');
  return w;
}

/** The CLI as a child process, to its exit: for the checks that need the real binary and a process of its own. */
export function runCliProcess(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return new Promise((resolvePromise, reject) => {
    const child = startCliProcess(args, env);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code, stdout, stderr: stripNpmNoise(stderr) }));
  });
}

function stripNpmNoise(s: string): string {
  return s
    .split('\n')
    .filter((l) => !l.startsWith('npm warn'))
    .join('\n');
}

/** A user-facing error: one paragraph, no stack frames. */
export function expectCleanError(r: CliResult): string {
  if (r.code === 0) throw new Error(`expected failure, got exit 0; stdout: ${r.stdout}`);
  if (/\n\s+at .+:\d+:\d+/.test(r.stderr)) throw new Error(`stack trace in stderr:\n${r.stderr}`);
  const lines = r.stderr.trim().split('\n').filter(Boolean);
  const err = lines.find((l) => l.startsWith('textstress: error: '));
  if (!err) throw new Error(`no "textstress: error:" line in stderr:\n${r.stderr}`);
  return err;
}

/** The lines of a results.jsonl. */
export const readJsonl = (path: string): ExampleResult[] =>
  readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as ExampleResult);
export const readJson = (path: string): Record<string, unknown> => JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
/** `attack typos` of demo-sst2 on the SST-2 dev slice, then `more` (the argument list many CLI tests start from). */
export const typosOnSst2 = (...more: string[]): string[] => ['attack', 'typos', '--model', DEMO_SST2, '--data', SST2_DEV, ...more];

/** A summary without the fields that describe this process rather than the results. */
export const stable = (s: Record<string, unknown>): Record<string, unknown> => {
  const { wall_seconds: _w, process: _p, ...rest } = s;
  return rest;
};

/** A suite file in `dir` over demo-sst2 and the SST-2 slice (first `limit` rows), with the given test lines. */
export function writeSst2Suite(dir: string, tests: string[], limit: number): string {
  const file = join(dir, 'suite.yaml');
  writeFileSync(
    file,
    [
      'models:',
      `  m: ${JSON.stringify(DEMO_SST2)}`,
      'datasets:',
      `  sst2: { path: ${JSON.stringify(SST2_DEV)}, limit: ${limit} }`,
      // These suites test the plumbing (shards, merge, the queue) on a few examples: no minimum n for the gate.
      'min_n: 1',
      'tests:',
      ...tests.map((t) => `  - ${t}`),
    ].join('\n') + '\n',
  );
  return file;
}

/** Every file under a folder, read as one string (latin1, so any bytes compare): for "appears nowhere" checks. */
export function allFilesText(dir: string): string {
  let out = '';
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    out += statSync(p).isDirectory() ? allFilesText(p) : readFileSync(p).toString('latin1');
  }
  return out;
}
