/**
 * The persistent query cache: model answers on disk in LMDB (the `lmdb` package: prebuilt binaries, safe for
 * several processes at once), keyed on the whole request — the adapter's cache identity (endpoint, model, prompt
 * template, parameters, answer mapping) and the input — so a re-run, a resumed run or a second recipe on the same
 * data pays nothing twice. Only answers are stored: an error never reaches the cache. Keys are hashes; the
 * identities are kept beside them (without secrets: adapters never put keys in them) for `textstress cache stats`.
 */
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { open, type Database, type RootDatabase } from 'lmdb';
import type { ModelOutput } from '../models/types.ts';
import { TextstressError } from '../util/errors.ts';

/** Where the cache lives unless --cache-dir says: TEXTSTRESS_CACHE_DIR, else $XDG_CACHE_HOME/textstress, else ~/.cache/textstress. */
export function defaultCacheDir(): string {
  if (process.env.TEXTSTRESS_CACHE_DIR) return resolve(process.env.TEXTSTRESS_CACHE_DIR);
  return join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'textstress');
}

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

/** One cache folder; open it with {@link openDiskCache} (one instance per folder per process). */
export class DiskCache {
  private readonly answers: Database<ModelOutput, string>;
  private readonly identities: Database<string, string>;
  private readonly known = new Set<string>();

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
    let root: RootDatabase;
    try {
      root = open({ path: join(dir, 'queries.lmdb'), maxDbs: 4, mapSize: 2 ** 30 });
    } catch (err) {
      throw new TextstressError(`cannot open the query cache in ${dir}: ${(err as Error).message}`, {
        hint: 'Point --cache-dir (or TEXTSTRESS_CACHE_DIR) at a writable folder, or run with --no-cache.',
      });
    }
    return new DiskCache(dir, root);
  }

  /** The prefix of an identity's keys (registered on first use, for stats). */
  scope(identity: string): string {
    const id = hash(identity).slice(0, 16);
    if (!this.known.has(id)) {
      this.known.add(id);
      if (this.identities.get(id) === undefined) void this.identities.put(id, identity);
    }
    return id;
  }

  /** The key of an input's answer under a scope. */
  key(scope: string, inputKey: string): string {
    return `${scope}:${hash(inputKey)}`;
  }

  get(key: string): ModelOutput | undefined {
    return this.answers.get(key);
  }

  /** Stores an answer (written in the background, in batches; `flushed()` waits for it). */
  put(key: string, out: ModelOutput): void {
    void this.answers.put(key, out);
  }

  /** Resolves once every answer put so far is on disk. */
  async flushed(): Promise<void> {
    await this.answers.flushed;
  }

  /** Entries per model identity, and the file's size. */
  stats(): { dir: string; entries: number; models: CacheModelStats[] } {
    const counts = new Map<string, number>();
    for (const key of this.answers.getKeys()) {
      const id = String(key).split(':')[0]!;
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    const models = [...counts].map(([id, entries]) => ({ id, identity: this.identities.get(id) ?? '(unknown)', entries }));
    models.sort((a, b) => b.entries - a.entries);
    return { dir: this.dir, entries: models.reduce((n, m) => n + m.entries, 0), models };
  }

  /** Removes every answer (or those of the identities whose JSON contains `match`); returns how many. */
  async clear(match?: string): Promise<number> {
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
  }

  async close(): Promise<void> {
    await this.flushed();
    opened.delete(this.dir);
    await this.root.close();
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
