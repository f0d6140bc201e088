/**
 * The on-disk cache of hub parquet files, under $HF_HOME/textstress/datasets/<owner>--<name>/:
 *   blobs/<sha256>.parquet           the files, named by their content, so two configs or revisions that
 *                                    share a file share the blob and a rename never replaces other bytes;
 *   splits/<config>/<split>.json     which blobs make up a split (the manifest), and each file's URL and ETag;
 *   configs.json                     the dataset's configs, to pick the default config when offline.
 * Every file is written to a temporary name and renamed into place, so a reader (or a run after a crash)
 * sees a whole file or none.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { download } from './client.ts';
import type { HubEnv } from './spec.ts';
import { processAlive } from '../../util/process.ts';

const CachedFile = z.object({
  url: z.string(),
  etag: z.string().optional(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  size: z.number().int().nonnegative(),
});
export type CachedFile = z.infer<typeof CachedFile>;

const Manifest = z.object({
  version: z.literal(1),
  dataset: z.string(),
  config: z.string(),
  split: z.string(),
  fetched_at: z.string(),
  files: z.array(CachedFile),
});
export type Manifest = z.infer<typeof Manifest>;

const Configs = z.object({ configs: z.array(z.string()) });

const seg = (s: string): string => encodeURIComponent(s);

export function datasetDir(env: HubEnv, repo: string): string {
  return join(env.cacheRoot, 'datasets', repo.replace('/', '--'));
}

export function blobPath(env: HubEnv, repo: string, sha256: string): string {
  return join(datasetDir(env, repo), 'blobs', `${sha256}.parquet`);
}

function manifestPath(env: HubEnv, repo: string, config: string, split: string): string {
  return join(datasetDir(env, repo), 'splits', seg(config), `${seg(split)}.json`);
}

const TMP = /^\.tmp-(\d+)-/;

/** A name beside `path` for writing it first; the pid lets a later run remove what a killed one left. */
function tempBeside(path: string): string {
  return join(dirname(path), `.tmp-${process.pid}-${randomBytes(6).toString('hex')}`);
}

/** Writes a file atomically: temp file, then rename. */
export function writeAtomic(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = tempBeside(path);
  try {
    writeFileSync(tmp, text);
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}

/** Removes the temp files of processes that died mid-download (kill -9 leaves them behind). */
function sweepTemps(dir: string): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const m = TMP.exec(name);
    if (m && Number(m[1]) !== process.pid && !processAlive(Number(m[1]))) rmSync(join(dir, name), { force: true });
  }
}

/** The size of a blob in the cache, or undefined when it is not there. */
export function blobSize(env: HubEnv, repo: string, sha256: string): number | undefined {
  try {
    return statSync(blobPath(env, repo, sha256)).size;
  } catch {
    return undefined;
  }
}

/** The cached manifest of a split when it is readable and all its blobs are present; else undefined. */
export function readManifest(env: HubEnv, repo: string, config: string, split: string): Manifest | undefined {
  const path = manifestPath(env, repo, config, split);
  if (!existsSync(path)) return undefined;
  let parsed;
  try {
    parsed = Manifest.safeParse(JSON.parse(readFileSync(path, 'utf8')));
  } catch {
    return undefined;
  }
  if (!parsed.success) return undefined;
  // A blob of another size is damaged (or gone): the manifest is then no cached copy.
  return parsed.data.files.every((f) => blobSize(env, repo, f.sha256) === f.size) ? parsed.data : undefined;
}

export function writeManifest(env: HubEnv, m: Manifest): void {
  writeAtomic(manifestPath(env, m.dataset, m.config, m.split), JSON.stringify(m, null, 2) + '\n');
}

export function readConfigs(env: HubEnv, repo: string): string[] | undefined {
  try {
    const parsed = Configs.safeParse(JSON.parse(readFileSync(join(datasetDir(env, repo), 'configs.json'), 'utf8')));
    return parsed.success ? parsed.data.configs : undefined;
  } catch {
    return undefined;
  }
}

export function writeConfigs(env: HubEnv, repo: string, configs: string[]): void {
  writeAtomic(join(datasetDir(env, repo), 'configs.json'), JSON.stringify({ configs }, null, 2) + '\n');
}

/**
 * Downloads a file into the blob store: to a temp file, hashed on the way, then renamed to its sha256.
 * Whatever goes wrong, the temp file is removed, so the cache never holds part of a file.
 */
export async function downloadBlob(env: HubEnv, repo: string, url: string, etag: string | undefined): Promise<CachedFile> {
  const dir = join(datasetDir(env, repo), 'blobs');
  mkdirSync(dir, { recursive: true });
  sweepTemps(dir);
  const tmp = tempBeside(join(dir, 'x'));
  try {
    const { size, sha256 } = await download(env, url, tmp);
    renameSync(tmp, blobPath(env, repo, sha256));
    return { url, ...(etag !== undefined ? { etag } : {}), sha256, size };
  } finally {
    rmSync(tmp, { force: true });
  }
}
