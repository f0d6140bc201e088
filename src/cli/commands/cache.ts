/**
 * `textstress cache stats|verify|clear`: what the persistent query cache holds, per model; whether its file is sound;
 * emptying it. Each checks the file page by page with plain reads before LMDB maps it (a damaged page makes LMDB
 * kill the process with a signal); `verify` then reads every entry with LMDB in a child process, so damage the page
 * check missed is a "corrupt" answer rather than a dead process; `clear` removes the cache's own files without ever
 * opening them with LMDB (only `clear --model` opens a sound file, to remove some entries).
 */
import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import {
  CacheCorruptError,
  cacheFileProblem,
  CACHE_FILES,
  defaultCacheDir,
  openDiskCache,
  removeCacheFiles,
} from '../../query/disk-cache.ts';
import { PACKAGE_ROOT } from '../../util/package-root.ts';
import { jsonForTerminal, terminalSafe } from '../../util/terminal.ts';
import { addFlags } from '../options.ts';

function folderOption(cmd: Command): Command {
  return addFlags(cmd, { cacheDir: { help: 'the cache folder (default TEXTSTRESS_CACHE_DIR, else ~/.cache/textstress)' } });
}

/** A cache identity in a few words: adapter, endpoint and model, the rest summarised; safe to print. */
function describe(identity: string): string {
  let text = identity.length > 120 ? `${identity.slice(0, 120)}…` : identity;
  try {
    const j = JSON.parse(identity) as Record<string, unknown>;
    if (j.adapter === 'openai-chat')
      text =
        `openai:${String(j.model)} at ${String(j.base)} (${String(j.task)}, mapping ${String(j.mapping)}, template ` +
        `${typeof j.template === 'string' ? j.template : 'from a file'})`;
    else if (j.adapter === 'http') text = `${String(j.url)} (${String(j.task)})`;
  } catch {
    // not JSON: shown as stored
  }
  // The file is data anyone may have planted (a shared cache folder): its text is shown, never obeyed.
  return terminalSafe(text);
}

const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/** Most a child reading every entry may take before it is stopped and the cache called unreadable. */
const READ_CHILD_MS = 120_000;

/**
 * Reads every entry with LMDB in a child process (`cache read-entries`, hidden): how many answers, or the problem —
 * a signal (LMDB followed a damaged page) or the child's own corrupt-cache message. The child is stopped when this
 * process is told to stop, and after READ_CHILD_MS.
 */
async function readEntriesInChild(dir: string): Promise<{ entries: number } | { problem: string }> {
  const child = spawn(process.execPath, [join(PACKAGE_ROOT, 'bin', 'textstress.mjs'), 'cache', 'read-entries', '--cache-dir', dir], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
    timeout: READ_CHILD_MS,
  });
  const stop = (signal: NodeJS.Signals): void => {
    child.kill('SIGKILL');
    process.exit(signal === 'SIGTERM' ? 143 : 130);
  };
  process.once('SIGTERM', stop).once('SIGINT', stop);
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  try {
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve, reject) => {
      child.once('error', reject);
      child.once('close', (c, s) => resolve([c, s]));
    });
    if (code === 0) return { entries: (JSON.parse(out) as { entries: number }).entries };
    if (signal === 'SIGTERM' && child.killed) return { problem: `reading every entry took over ${READ_CHILD_MS / 1000} s` };
    if (signal) return { problem: `LMDB crashed (${signal}) reading its entries: a page the check above did not catch is damaged` };
    const said = /is corrupt: (.*?)\. Run "/.exec(err)?.[1];
    return { problem: said ?? `reading its entries failed: ${err.trim().split('\n')[0] ?? `exit ${code}`}` };
  } finally {
    process.off('SIGTERM', stop).off('SIGINT', stop);
  }
}

function statsCommand(): Command {
  return addFlags(folderOption(new Command('stats')), { json: { help: 'print JSON' } })
    .description('entries per model and the size on disk')
    .action((opts: { cacheDir?: string; json?: boolean }) => {
      const dir = opts.cacheDir ?? defaultCacheDir();
      const file = join(dir, CACHE_FILES[0]);
      if (!existsSync(file)) {
        process.stdout.write(
          opts.json
            ? jsonForTerminal({ dir, entries: 0, bytes: 0, models: [] })
            : `The query cache in ${terminalSafe(dir)} is empty (no file yet).\n`,
        );
        return;
      }
      const stats = openDiskCache(dir).stats();
      const bytes = statSync(file).size;
      if (opts.json) {
        process.stdout.write(jsonForTerminal({ ...stats, bytes }));
        return;
      }
      const lines = [`Query cache ${terminalSafe(dir)}: ${stats.entries} answers, ${mib(bytes)} on disk`];
      for (const m of stats.models) lines.push(`  ${String(m.entries).padStart(9)}  ${describe(m.identity)}`);
      process.stdout.write(lines.join('\n') + '\n');
    });
}

function clearCommand(): Command {
  return folderOption(new Command('clear'))
    .description(
      'remove the cache (its own two files, never opened: works on a damaged file), or with --model the answers of the ' +
        'models whose description contains the text',
    )
    .option('--model <text>', 'only models whose identity contains this (e.g. a model name or URL)')
    .action(async (opts: { cacheDir?: string; model?: string }) => {
      const dir = opts.cacheDir ?? defaultCacheDir();
      const shown = terminalSafe(dir);
      if (!existsSync(join(dir, CACHE_FILES[0]))) {
        process.stdout.write(`The query cache in ${shown} is empty (no file yet).\n`);
        return;
      }
      // Plain reads only: how many answers it held, or what is wrong with it.
      const found = cacheFileProblem(dir);
      if (found.problem !== undefined) {
        const files = removeCacheFiles(dir);
        process.stdout.write(
          `The query cache in ${shown} was corrupt (${terminalSafe(found.problem)}): removed ${files.join(' and ')}` +
            `${opts.model ? ` (every model's answers, not only "${terminalSafe(opts.model)}")` : ''}; the next run starts a new cache.\n`,
        );
        return;
      }
      if (opts.model === undefined) {
        const held = found.entries?.answers ?? 0;
        removeCacheFiles(dir);
        process.stdout.write(`Removed ${held} answer${held === 1 ? '' : 's'} from ${shown}.\n`);
        return;
      }
      let removed: number;
      try {
        const cache = openDiskCache(dir);
        removed = await cache.clear(opts.model);
        await cache.close();
      } catch (err) {
        if (!(err instanceof CacheCorruptError)) throw err;
        const files = removeCacheFiles(dir);
        process.stdout.write(
          `The query cache in ${shown} was corrupt (${terminalSafe(err.problem)}): removed ${files.join(' and ')} ` +
            `(every model's answers, not only "${terminalSafe(opts.model)}"); the next run starts a new cache.\n`,
        );
        return;
      }
      process.stdout.write(
        `Removed ${removed} answer${removed === 1 ? '' : 's'} from ${shown} (models matching "${terminalSafe(opts.model)}").\n`,
      );
    });
}

function verifyCommand(): Command {
  return addFlags(folderOption(new Command('verify')), { json: { help: 'print JSON' } })
    .description(
      'check every page LMDB reads without mapping the file, then read every entry with LMDB in a child process; exit 1 when corrupt',
    )
    .action(async (opts: { cacheDir?: string; json?: boolean }) => {
      const dir = opts.cacheDir ?? defaultCacheDir();
      const report = (r: { ok: boolean; entries: number; pages: number; bytes: number; problem?: string }): void => {
        if (opts.json) process.stdout.write(jsonForTerminal({ dir, ...r }));
      };
      if (!existsSync(join(dir, CACHE_FILES[0]))) {
        report({ ok: true, entries: 0, pages: 0, bytes: 0 });
        if (!opts.json) process.stdout.write(`The query cache in ${terminalSafe(dir)} is empty (no file yet): nothing to verify.\n`);
        return;
      }
      const found = cacheFileProblem(dir);
      let entries = 0;
      let problem = found.problem;
      if (problem === undefined) {
        const read = await readEntriesInChild(dir);
        if ('problem' in read) problem = read.problem;
        else entries = read.entries;
      }
      report({ ok: problem === undefined, entries, pages: found.pages, bytes: found.bytes, ...(problem ? { problem } : {}) });
      if (problem !== undefined) {
        const err = new CacheCorruptError(dir, problem);
        if (opts.json) {
          process.stderr.write(`textstress: error: ${terminalSafe(err.describe())}\n`);
          process.exitCode = 1;
          return;
        }
        throw err;
      }
      if (!opts.json)
        process.stdout.write(
          `The query cache in ${terminalSafe(dir)} is sound: ${entries} answer${entries === 1 ? '' : 's'}, ${found.pages} pages checked ` +
            `(${mib(found.bytes)}).\n`,
        );
    });
}

/** `verify`'s child: opens the cache (after the page check) and reads every entry; prints {entries}. */
function readEntriesCommand(): Command {
  return folderOption(new Command('read-entries'))
    .description('(internal) read every entry with LMDB; cache verify runs it in a child process')
    .action(async (opts: { cacheDir?: string }) => {
      const cache = openDiskCache(opts.cacheDir ?? defaultCacheDir());
      const entries = cache.readAll();
      await cache.close();
      process.stdout.write(JSON.stringify({ entries }) + '\n');
    });
}

export function cacheCommand(): Command {
  const cmd = new Command('cache').description(
    'the persistent query cache (answers of LLM and HTTP endpoints, reused by every later run): stats, verify, clear',
  );
  cmd.addCommand(statsCommand());
  cmd.addCommand(clearCommand());
  cmd.addCommand(verifyCommand());
  cmd.addCommand(readEntriesCommand(), { hidden: true });
  return cmd;
}
