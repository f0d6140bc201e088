/**
 * `textstress cache stats|verify|clear`: what the persistent query cache holds, per model; whether its file is sound;
 * emptying it. Each checks the file before LMDB maps it (a damaged one would kill the process with a signal), and
 * `clear` recovers a corrupt cache by removing its own files, nothing else in the folder.
 */
import { Command } from 'commander';
import { addFlags } from '../options.ts';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  CacheCorruptError,
  cacheFileProblem,
  CACHE_FILES,
  defaultCacheDir,
  openDiskCache,
  removeCacheFiles,
} from '../../query/disk-cache.ts';

function folderOption(cmd: Command): Command {
  return addFlags(cmd, { cacheDir: { help: 'the cache folder (default TEXTSTRESS_CACHE_DIR, else ~/.cache/textstress)' } });
}

/** A cache identity in a few words: adapter, endpoint and model, the rest summarised. */
function describe(identity: string): string {
  try {
    const j = JSON.parse(identity) as Record<string, unknown>;
    if (j.adapter === 'openai-chat')
      return (
        `openai:${String(j.model)} at ${String(j.base)} (${String(j.task)}, mapping ${String(j.mapping)}, template ` +
        `${typeof j.template === 'string' ? j.template : 'from a file'})`
      );
    if (j.adapter === 'http') return `${String(j.url)} (${String(j.task)})`;
  } catch {
    // not JSON: shown as stored
  }
  return identity.length > 120 ? `${identity.slice(0, 120)}…` : identity;
}

export function cacheCommand(): Command {
  const cmd = new Command('cache').description(
    'the persistent query cache (answers of LLM and HTTP endpoints, reused by every later run): stats, verify, clear',
  );
  cmd.addCommand(
    addFlags(folderOption(new Command('stats')), { json: { help: 'print JSON' } })
      .description('entries per model and the size on disk')
      .action((opts: { cacheDir?: string; json?: boolean }) => {
        const dir = opts.cacheDir ?? defaultCacheDir();
        const file = join(dir, CACHE_FILES[0]);
        if (!existsSync(file)) {
          process.stdout.write(
            opts.json
              ? JSON.stringify({ dir, entries: 0, bytes: 0, models: [] }, null, 2) + '\n'
              : `The query cache in ${dir} is empty (no file yet).\n`,
          );
          return;
        }
        const stats = openDiskCache(dir).stats();
        const bytes = statSync(file).size;
        if (opts.json) {
          process.stdout.write(JSON.stringify({ ...stats, bytes }, null, 2) + '\n');
          return;
        }
        const lines = [`Query cache ${dir}: ${stats.entries} answers, ${(bytes / 1024 / 1024).toFixed(1)} MiB on disk`];
        for (const m of stats.models) lines.push(`  ${String(m.entries).padStart(9)}  ${describe(m.identity)}`);
        process.stdout.write(lines.join('\n') + '\n');
      }),
  );
  cmd.addCommand(
    folderOption(new Command('clear'))
      .description('remove every answer, or with --model those of the models whose description contains the text')
      .option('--model <text>', 'only models whose identity contains this (e.g. a model name or URL)')
      .action(async (opts: { cacheDir?: string; model?: string }) => {
        const dir = opts.cacheDir ?? defaultCacheDir();
        if (!existsSync(join(dir, CACHE_FILES[0]))) {
          process.stdout.write(`The query cache in ${dir} is empty (no file yet).\n`);
          return;
        }
        let removed: number;
        try {
          const cache = openDiskCache(dir);
          removed = await cache.clear(opts.model);
          await cache.close();
        } catch (err) {
          if (!(err instanceof CacheCorruptError)) throw err;
          // A damaged file cannot be emptied entry by entry: its own files go, whatever --model said.
          const files = removeCacheFiles(dir);
          process.stdout.write(
            `The query cache in ${dir} was corrupt (${err.problem}): removed ${files.join(' and ')}` +
              `${opts.model ? ` (every model's answers, not only "${opts.model}")` : ''}; the next run starts a new cache.\n`,
          );
          return;
        }
        process.stdout.write(
          `Removed ${removed} answer${removed === 1 ? '' : 's'} from ${dir}${opts.model ? ` (models matching "${opts.model}")` : ''}.\n`,
        );
      }),
  );
  cmd.addCommand(
    addFlags(folderOption(new Command('verify')), { json: { help: 'print JSON' } })
      .description('check the cache file page by page without mapping it, then read every entry; exit 1 when corrupt')
      .action(async (opts: { cacheDir?: string; json?: boolean }) => {
        const dir = opts.cacheDir ?? defaultCacheDir();
        const report = (r: { ok: boolean; entries: number; pages: number; bytes: number; problem?: string }): void => {
          if (opts.json) process.stdout.write(JSON.stringify({ dir, ...r }, null, 2) + '\n');
        };
        if (!existsSync(join(dir, CACHE_FILES[0]))) {
          report({ ok: true, entries: 0, pages: 0, bytes: 0 });
          if (!opts.json) process.stdout.write(`The query cache in ${dir} is empty (no file yet): nothing to verify.\n`);
          return;
        }
        const found = cacheFileProblem(dir, true);
        let entries = 0;
        let problem = found.problem;
        if (problem === undefined) {
          try {
            const cache = openDiskCache(dir);
            entries = cache.readAll();
            await cache.close();
          } catch (err) {
            if (!(err instanceof CacheCorruptError)) throw err;
            problem = err.problem;
          }
        }
        report({ ok: problem === undefined, entries, pages: found.pages, bytes: found.bytes, ...(problem ? { problem } : {}) });
        if (problem !== undefined) {
          const err = new CacheCorruptError(dir, problem);
          if (opts.json) {
            process.stderr.write(`textstress: error: ${err.describe()}\n`);
            process.exitCode = 1;
            return;
          }
          throw err;
        }
        if (!opts.json)
          process.stdout.write(
            `The query cache in ${dir} is sound: ${entries} answer${entries === 1 ? '' : 's'}, ${found.pages} pages checked ` +
              `(${(found.bytes / 1024 / 1024).toFixed(1)} MiB).\n`,
          );
      }),
  );
  return cmd;
}
