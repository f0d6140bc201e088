/**
 * The persistent query cache: model answers on disk in LMDB (the `lmdb` package: prebuilt binaries, safe for
 * several processes at once), keyed on the whole request — the adapter's cache identity (endpoint, model, prompt
 * template, parameters, answer mapping) and the input — so a re-run, a resumed run or a second recipe on the same
 * data pays nothing twice. Only answers are stored: an error never reaches the cache. Keys are hashes; the
 * identities are kept beside them (without secrets: adapters never put keys in them) for `textstress cache stats`.
 * A damaged file is found before LMDB maps it (cache-file.ts) or by the errors LMDB raises, and reported as a
 * CacheCorruptError naming the folder and `textstress cache clear`; it never kills the process with a signal.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { defaultCacheDir } from '../util/cache-dir.ts';
import { open, type Database, type RootDatabase } from 'lmdb';
import { ModelOutputSchema } from '../models/schema.ts';
import type { ModelOutput } from '../models/types.ts';
import { errorMessage, TextstressError } from '../util/errors.ts';
import { checkCacheFile, type CacheFileCheck } from './cache-file.ts';
import { terminalSafe } from '../util/terminal.ts';

/** The files LMDB keeps in a cache folder: all that `cache clear` removes when the cache cannot be read. */
export const CACHE_FILES = ['queries.lmdb', 'queries.lmdb-lock'] as const;

/** The cache's file is damaged (or LMDB reports it so): names the folder and the way out. */
export class CacheCorruptError extends TextstressError {
  constructor(
    readonly dir: string,
    readonly problem: string,
  ) {
    super(`the query cache in ${dir} is corrupt: ${problem}.`, {
      hint: `Run "textstress cache clear --cache-dir ${dir}" to remove it (its answers are lost and will be asked again), or run with --no-cache.`,
    });
    this.name = 'CacheCorruptError';
  }
}

/** An error from LMDB while reading or writing, as the corruption it (nearly always) means. */
function lmdbFailure(dir: string, err: unknown): CacheCorruptError {
  if (err instanceof CacheCorruptError) return err;
  const msg = err instanceof Error ? err.message : String(err);
  return new CacheCorruptError(dir, `LMDB says "${msg.replace(/\s+/g, ' ').trim()}"`);
}

function notAnAnswer(dir: string): CacheCorruptError {
  return new CacheCorruptError(dir, 'an entry of its answers database decodes to something that is not a model answer');
}

/**
 * Checks the cache's file in `dir` with plain reads (nothing mapped): every page LMDB would read, at every open
 * (about 3 ms per MiB). `problem` is undefined when the file is sound or absent; a file that cannot be read at all
 * (a folder, no permission) is a problem too, never a crash.
 */
export function cacheFileProblem(dir: string): CacheFileCheck {
  const file = join(dir, CACHE_FILES[0]);
  if (!existsSync(file)) return { pages: 0, bytes: 0 };
  try {
    return checkCacheFile(file);
  } catch (err) {
    return { problem: `its file cannot be read (${(err as NodeJS.ErrnoException).code ?? errorMessage(err)})`, pages: 0, bytes: 0 };
  }
}

/** Removes the cache's own files in `dir` (never anything else there); returns the names removed. */
export function removeCacheFiles(dir: string): string[] {
  const abs = resolve(dir);
  const cache = opened.get(abs);
  if (cache) cache.abandon();
  const removed: string[] = [];
  for (const name of CACHE_FILES) {
    const path = join(abs, name);
    if (!existsSync(path)) continue;
    rmSync(path);
    removed.push(name);
  }
  return removed;
}

/** Where the cache lives unless --cache-dir says (util/cache-dir.ts: TEXTSTRESS_CACHE_DIR, else $XDG_CACHE_HOME/textstress, else ~/.cache/textstress). */
export { defaultCacheDir };

/** One model's entries in the cache, for `cache stats`. */
export interface CacheModelStats {
  /** The identity's hash prefix, as keys start with it. */
  id: string;
  /** What the adapter said about itself (endpoint, model, template …), as JSON. */
  identity: string;
  entries: number;
}

function hash(s: string): string {
  return createHash('sha256').update(s).digest('base64url');
}

const opened = new Map<string, DiskCache>();

/** How a run hears that the cache broke under it (once): one line on stderr unless a caller says otherwise. */
export type CacheBrokenListener = (err: CacheCorruptError) => void;

const warnOnStderr: CacheBrokenListener = (err) =>
  process.stderr.write(`textstress: warning: ${terminalSafe(err.describe())} Going on without the cache.\n`);

/**
 * One cache folder; open it with {@link openDiskCache} (one instance per folder per process). Reads and writes that
 * LMDB fails (MDB_CORRUPTED …) never reach the run: the cache says so once and answers nothing from then on, so the
 * run goes on asking the model. `stats` and `clear`, which exist to look at the file, throw instead.
 */
export class DiskCache {
  private readonly answers: Database<ModelOutput, string>;
  private readonly identities: Database<string, string>;
  private readonly known = new Set<string>();
  /** Set once LMDB failed: the cache is then off for this process. */
  private broken: CacheCorruptError | undefined;
  onBroken: CacheBrokenListener = warnOnStderr;

  private constructor(
    readonly dir: string,
    private readonly root: RootDatabase,
  ) {
    this.answers = root.openDB<ModelOutput, string>({ name: 'answers', compression: true });
    this.identities = root.openDB<string, string>({ name: 'identities' });
  }

  /** @internal */
  static create(dir: string): DiskCache {
    mkdirSync(dir, { recursive: true });
    // Before LMDB maps the file: a truncated or overwritten one would kill the process with SIGBUS or SIGSEGV.
    const found = cacheFileProblem(dir);
    if (found.problem !== undefined) throw new CacheCorruptError(dir, found.problem);
    let root: RootDatabase;
    try {
      root = open({ path: join(dir, CACHE_FILES[0]), maxDbs: 4, mapSize: 2 ** 30 });
    } catch (err) {
      if (/MDB_CORRUPTED|MDB_INVALID|MDB_PAGE_NOTFOUND|MDB_VERSION_MISMATCH|not an LMDB/i.test(String(err))) throw lmdbFailure(dir, err);
      throw new TextstressError(`cannot open the query cache in ${dir}: ${(err as Error).message}`, {
        hint: 'Point --cache-dir (or TEXTSTRESS_CACHE_DIR) at a writable folder, or run with --no-cache.',
      });
    }
    try {
      return new DiskCache(dir, root);
    } catch (err) {
      void root.close().catch(() => undefined);
      throw lmdbFailure(dir, err);
    }
  }

  /** Whether LMDB failed in this process (the cache then answers nothing and stores nothing). */
  get failed(): CacheCorruptError | undefined {
    return this.broken;
  }

  private fail(err: unknown): void {
    if (this.broken) return;
    this.broken = lmdbFailure(this.dir, err);
    this.onBroken(this.broken);
  }

  /** The prefix of an identity's keys (registered on first use, for stats). */
  scope(identity: string): string {
    const id = hash(identity).slice(0, 16);
    if (!this.known.has(id) && !this.broken) {
      this.known.add(id);
      try {
        if (this.identities.get(id) === undefined) this.identities.put(id, identity).catch((err: unknown) => this.fail(err));
      } catch (err) {
        this.fail(err);
      }
    }
    return id;
  }

  /** The key of an input's answer under a scope. */
  key(scope: string, inputKey: string): string {
    return `${scope}:${hash(inputKey)}`;
  }

  get(key: string): ModelOutput | undefined {
    if (this.broken) return undefined;
    try {
      const stored = this.answers.get(key);
      // The file is outside input: bytes that decode to something else than an answer are damage, not an answer.
      if (stored !== undefined && !ModelOutputSchema.safeParse(stored).success) throw notAnAnswer(this.dir);
      return stored;
    } catch (err) {
      this.fail(err);
      return undefined;
    }
  }

  /** Stores an answer (written in the background, in batches; `flushed()` waits for it). */
  put(key: string, out: ModelOutput): void {
    if (this.broken) return;
    try {
      this.answers.put(key, out).catch((err: unknown) => this.fail(err));
    } catch (err) {
      this.fail(err);
    }
  }

  /** Resolves once every answer put so far is on disk (or the cache has failed). */
  async flushed(): Promise<void> {
    try {
      await this.answers.flushed;
    } catch (err) {
      this.fail(err);
    }
  }

  /** Entries per model identity, and the file's size; a CacheCorruptError when LMDB cannot read it. */
  stats(): { dir: string; entries: number; models: CacheModelStats[] } {
    try {
      const counts = new Map<string, number>();
      for (const key of this.answers.getKeys()) {
        const id = String(key).split(':')[0]!;
        counts.set(id, (counts.get(id) ?? 0) + 1);
      }
      const models = [...counts].map(([id, entries]) => ({ id, identity: this.identities.get(id) ?? '(unknown)', entries }));
      models.sort((a, b) => b.entries - a.entries);
      return { dir: this.dir, entries: models.reduce((n, m) => n + m.entries, 0), models };
    } catch (err) {
      throw lmdbFailure(this.dir, err);
    }
  }

  /** Reads every entry (for `cache verify`): how many answers; a CacheCorruptError when one cannot be read. */
  readAll(): number {
    try {
      let n = 0;
      for (const { value } of this.answers.getRange()) {
        if (!ModelOutputSchema.safeParse(value).success) throw notAnAnswer(this.dir);
        n++;
      }
      for (const { value } of this.identities.getRange()) void value;
      return n;
    } catch (err) {
      throw lmdbFailure(this.dir, err);
    }
  }

  /** Removes every answer (or those of the identities whose JSON contains `match`); returns how many. */
  async clear(match?: string): Promise<number> {
    try {
      const ids =
        match === undefined
          ? undefined
          : new Set([...this.identities.getRange()].filter((e) => e.value.includes(match)).map((e) => String(e.key)));
      let removed = 0;
      await this.answers.transaction(() => {
        for (const key of this.answers.getKeys()) {
          if (ids && !ids.has(String(key).split(':')[0]!)) continue;
          void this.answers.remove(key);
          removed++;
        }
      });
      if (ids) for (const id of ids) await this.identities.remove(id);
      else await this.identities.clearAsync();
      this.known.clear();
      return removed;
    } catch (err) {
      throw lmdbFailure(this.dir, err);
    }
  }

  async close(): Promise<void> {
    await this.flushed();
    opened.delete(this.dir);
    try {
      await this.root.close();
    } catch (err) {
      this.fail(err);
    }
  }

  /** Forgets this instance without writing (its files are about to be removed). */
  abandon(): void {
    this.broken ??= new CacheCorruptError(this.dir, 'its files were removed');
    opened.delete(this.dir);
    this.root.close().catch(() => undefined);
  }
}

/** The cache in `dir` (default {@link defaultCacheDir}), opened once per process. */
export function openDiskCache(dir: string = defaultCacheDir()): DiskCache {
  const abs = resolve(dir);
  let cache = opened.get(abs);
  if (!cache) {
    cache = DiskCache.create(abs);
    opened.set(abs, cache);
  }
  return cache;
}
