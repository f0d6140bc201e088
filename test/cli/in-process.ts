/**
 * The CLI run inside the test process: `main(['node', 'textstress', ...args])` with what it writes to stdout and
 * stderr captured, for the tests where a separate process adds nothing but 2–3 s of start-up (tsx and the imports
 * of transformers.js and onnxruntime, paid again by every call). A process-wide state the CLI touches is saved
 * and given back after each call, also when it throws: the two streams' write and isTTY, console, the exit
 * code, the variables of `env` and the working folder; a signal listener the run leaves is removed.
 *
 * Each run starts as a fresh process would: what this process resolved of hub datasets is forgotten first (else
 * a second run would not ask the hub again). Runs are one at a time (a queue): output is captured from
 * process-wide streams, so two runs at once would mix theirs; `Promise.all` of two runs is still correct, only
 * not parallel.
 *
 * What needs a real process stays one (runCliProcess / startCliProcess in helpers.ts): the real binary's exit
 * code, signals and kill -9, `serve` and `worker` (refused here: they keep running after their command returns,
 * until a signal), a run beside another process's lock, and the packed tarball. A run that leaves a signal
 * listener behind fails here, saying so.
 */
import { fileURLToPath } from 'node:url';
import type { CliResult } from './helpers.ts';

/** Where a child process starts (helpers.ts's ROOT). */
const ROOT_DIR = fileURLToPath(new URL('../..', import.meta.url));
/** Commands that keep running until a signal, which they handle by ending the process. */
const PROCESS_ONLY = new Set(['serve', 'worker']);
const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

let queue: Promise<unknown> = Promise.resolve();

/** `textstress ...args` in this process, after any run still in progress; env adds to the environment. */
export function runCliInProcess(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  const run = queue.then(() => runOnce(args, env));
  queue = run.catch(() => undefined);
  return run;
}

type Write = typeof process.stdout.write;

/** Replaces a stream's write (and isTTY: a child's pipes are no terminal) until the returned function is called. */
function capture(stream: NodeJS.WriteStream, sink: string[]): () => void {
  const write = Object.getOwnPropertyDescriptor(stream, 'write');
  const isTTY = Object.getOwnPropertyDescriptor(stream, 'isTTY');
  stream.write = ((chunk: string | Uint8Array, encoding?: unknown, cb?: unknown): boolean => {
    sink.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString());
    const done = typeof encoding === 'function' ? encoding : cb;
    if (typeof done === 'function') process.nextTick(done as () => void);
    return true;
  }) as Write;
  Object.defineProperty(stream, 'isTTY', { value: false, configurable: true, writable: true });
  return () => {
    if (write) Object.defineProperty(stream, 'write', write);
    else delete (stream as { write?: unknown }).write;
    if (isTTY) Object.defineProperty(stream, 'isTTY', isTTY);
    else delete (stream as { isTTY?: unknown }).isTTY;
  };
}

/** console.* as a child process has it: log and info to stdout, warn, error and debug to stderr. */
function captureConsole(out: string[], err: string[]): () => void {
  const saved = { log: console.log, info: console.info, warn: console.warn, error: console.error, debug: console.debug };
  const line =
    (sink: string[]) =>
    (...xs: unknown[]) =>
      void sink.push(xs.map((x) => (typeof x === 'string' ? x : String(x))).join(' ') + '\n');
  Object.assign(console, { log: line(out), info: line(out), warn: line(err), error: line(err), debug: line(err) });
  return () => void Object.assign(console, saved);
}

function setEnv(vars: Record<string, string>): () => void {
  const before = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  Object.assign(process.env, vars);
  return () => {
    for (const [k, v] of Object.entries(before)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  };
}

async function runOnce(args: string[], env: Record<string, string>): Promise<CliResult> {
  if (PROCESS_ONLY.has(args[0] ?? '')) throw new Error(`textstress ${args[0]} keeps running: start it with startCliProcess`);
  // Imported on first use: a test file that only needs the paths in helpers.ts does not load the whole CLI.
  const { main } = await import('../../src/cli/main.ts');
  const { forgetResolvedSplits } = await import('../../src/data/hf/resolve.ts');
  forgetResolvedSplits();
  const stdout: string[] = [];
  const stderr: string[] = [];
  const listeners = new Map(SIGNALS.map((e) => [e, process.listeners(e)]));
  const cwd = process.cwd();
  const exitCode = process.exitCode;
  const restore: (() => void)[] = [];
  const left: string[] = [];
  let code: number;
  try {
    restore.push(setEnv({ ...env, NO_COLOR: '1' }));
    process.chdir(ROOT_DIR);
    process.exitCode = undefined;
    restore.push(capture(process.stdout, stdout), capture(process.stderr, stderr), captureConsole(stdout, stderr));
    await main(['node', 'textstress', ...args]);
    code = Number(process.exitCode ?? 0);
  } finally {
    for (const undo of restore.reverse()) undo();
    process.exitCode = exitCode;
    process.chdir(cwd);
    // A signal listener a run leaves would act on the next run's signals, and pile up. (Exit listeners are not
    // checked: libraries add theirs once, on import; the lock's goes with its signal listeners.)
    for (const [signal, before] of listeners) {
      for (const l of process.listeners(signal)) {
        if (before.includes(l)) continue;
        process.off(signal, l as () => void);
        left.push(signal);
      }
    }
  }
  if (left.length) throw new Error(`textstress ${args.join(' ')} left ${left.join(', ')} listeners behind`);
  return { code, stdout: stdout.join(''), stderr: stderr.join('') };
}
