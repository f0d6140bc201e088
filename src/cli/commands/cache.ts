/** `textstress cache stats|clear`: what the persistent query cache holds, per model, and emptying it. */
import { Command } from 'commander';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { defaultCacheDir, openDiskCache } from '../../query/disk-cache.ts';

function folderOption(cmd: Command): Command {
  return cmd.option('--cache-dir <dir>', 'the cache folder (default TEXTSTRESS_CACHE_DIR, else ~/.cache/textstress)');
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
    'the persistent query cache (answers of LLM and HTTP endpoints, reused by every later run): stats, clear',
  );
  cmd.addCommand(
    folderOption(new Command('stats'))
      .description('entries per model and the size on disk')
      .option('--json', 'print JSON')
      .action((opts: { cacheDir?: string; json?: boolean }) => {
        const dir = opts.cacheDir ?? defaultCacheDir();
        const file = join(dir, 'queries.lmdb');
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
        if (!existsSync(join(dir, 'queries.lmdb'))) {
          process.stdout.write(`The query cache in ${dir} is empty (no file yet).\n`);
          return;
        }
        const cache = openDiskCache(dir);
        const removed = await cache.clear(opts.model);
        await cache.close();
        process.stdout.write(
          `Removed ${removed} answer${removed === 1 ? '' : 's'} from ${dir}${opts.model ? ` (models matching "${opts.model}")` : ''}.\n`,
        );
      }),
  );
  return cmd;
}
