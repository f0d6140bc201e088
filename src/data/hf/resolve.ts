/**
 * From a hub spec to parquet files on disk: ask the hub which files make up the split, reuse the cached
 * ones whose ETag has not changed, download the rest; when the hub cannot be reached, use the cached copy
 * and say so. Every hub failure becomes one readable TextstressError. A process resolves each spec once
 * (the runner opens a dataset several times per run; the files must not change in between).
 */
import { createHash } from 'node:crypto';
import { TextstressError } from '../../util/errors.ts';
import {
  blobPath,
  blobSize,
  datasetDir,
  downloadBlob,
  readConfigs,
  readManifest,
  writeConfigs,
  writeManifest,
  type CachedFile,
} from './cache.ts';
import { fileEtag, HubHttpError, HubUnreachable, listAll, listSplit, type ParquetListing } from './client.ts';
import { fullSpec, hubEnv, parseHubSpec, showUrl, type HubEnv, type HubSpec } from './spec.ts';
import { terminalSafe } from '../../util/terminal.ts';

export interface ResolvedFile {
  path: string;
  url: string;
  size: number;
  sha256: string;
}

export interface ResolvedSplit {
  spec: HubSpec;
  /** The config used (the one named, or the one picked when none was). */
  config: string;
  files: ResolvedFile[];
  /** The hub could not be reached (or HF_HUB_OFFLINE is set) and the cached copy was used. */
  fromCache: boolean;
}

const list = (names: readonly string[]): string => names.map((n) => JSON.stringify(n)).join(', ') || '(none)';

/** The config to use when the spec names none: the only one, else "default"; else the error lists them. */
function pickConfig(configs: readonly string[], spec: HubSpec): string {
  if (configs.length === 1) return configs[0]!;
  if (configs.includes('default')) return 'default';
  const example = configs[0] ?? '<config>';
  throw new TextstressError(`dataset ${spec.repo} has ${configs.length} configs, so the spec must name one: ${list(configs)}.`, {
    where: spec.text,
    hint: `Write hf:${spec.repo}:<config>:${spec.split}, e.g. ${fullSpec(spec, example)}.`,
  });
}

function splitFiles(listing: ParquetListing, spec: HubSpec, config: string): string[] {
  const splits = listing[config];
  if (splits === undefined) {
    throw new TextstressError(
      `dataset ${spec.repo} has no config ${JSON.stringify(config)}; its configs are ${list(Object.keys(listing))}.`,
      { where: spec.text },
    );
  }
  const files = splits[spec.split];
  if (files === undefined) {
    throw new TextstressError(
      `config ${JSON.stringify(config)} of dataset ${spec.repo} has no split ${JSON.stringify(spec.split)}; its splits are ${list(Object.keys(splits))}.`,
      {
        where: spec.text,
      },
    );
  }
  return files;
}

/** A hub error status as the user should read it. A 404 means "no such dataset" only from the listing API. */
function statusError(err: HubHttpError, env: HubEnv, spec: HubSpec, listing = true): TextstressError {
  const said = err.message ? `: ${err.message}` : '';
  if (err.status === 401 || err.status === 403) {
    return new TextstressError(`the hub refused access to dataset ${spec.repo} (HTTP ${err.status}${said}).`, {
      where: spec.text,
      hint: env.token
        ? 'HF_TOKEN is set but cannot read this dataset: check that the token has read access, and for a gated dataset ' +
          'accept its conditions on the dataset page while logged in.'
        : 'The dataset is private or gated, or does not exist (the hub answers 401 for unknown names when no token is ' +
          'sent). If it exists, set HF_TOKEN to a token that can read it (https://huggingface.co/settings/tokens); for a ' +
          'gated dataset accept its conditions on the dataset page first.',
    });
  }
  if (err.status === 404 && listing) {
    return new TextstressError(`the hub has no dataset ${spec.repo} (HTTP 404 from ${showUrl(err.url)}).`, {
      where: spec.text,
      hint: `Check the name: owner/name as in the dataset's URL (${env.endpoint}/datasets/owner/name).`,
    });
  }
  return new TextstressError(`the hub answered HTTP ${err.status} for ${showUrl(err.url)}${said}.`, { where: spec.text });
}

/** After a 404 for one split: find out whether the dataset, the config or the split is what does not exist. */
async function diagnose(env: HubEnv, spec: HubSpec, config: string, notFound: HubHttpError): Promise<never> {
  let listing: ParquetListing;
  try {
    ({ listing } = await listAll(env, spec.repo));
  } catch (err) {
    throw err instanceof HubHttpError ? statusError(err, env, spec) : err;
  }
  splitFiles(listing, spec, config);
  throw statusError(notFound, env, spec, false);
}

async function online(env: HubEnv, spec: HubSpec, log: (s: string) => void): Promise<ResolvedSplit> {
  let config = spec.config;
  let urls: string[];
  try {
    if (config === undefined) {
      const { listing } = await listAll(env, spec.repo);
      const configs = Object.keys(listing);
      if (configs.length === 0) {
        throw new TextstressError(`the hub lists no parquet files for dataset ${spec.repo}.`, {
          where: spec.text,
          hint: 'textstress reads the parquet files the hub makes of each dataset; this one has none (yet). Download it another way and pass the file.',
        });
      }
      writeConfigs(env, spec.repo, configs);
      config = pickConfig(configs, spec);
      urls = splitFiles(listing, spec, config);
    } else {
      urls = (await listSplit(env, spec.repo, config, spec.split)).files;
    }
  } catch (err) {
    if (err instanceof HubHttpError) {
      if (err.status === 404 && config !== undefined) return diagnose(env, spec, config, err);
      throw statusError(err, env, spec);
    }
    throw err;
  }
  if (urls.length === 0)
    throw new TextstressError(`the hub lists no parquet files for split ${JSON.stringify(spec.split)} of dataset ${spec.repo}.`, {
      where: spec.text,
    });

  const old = readManifest(env, spec.repo, config, spec.split);
  const files: CachedFile[] = [];
  let announced = false;
  for (const url of urls) {
    let etag: string | undefined;
    try {
      etag = await fileEtag(env, url);
    } catch (err) {
      throw err instanceof HubHttpError ? statusError(err, env, spec, false) : err;
    }
    const same = etag === undefined ? undefined : old?.files.find((f) => f.url === url && f.etag === etag);
    if (same) {
      files.push(same);
      continue;
    }
    // The hub's ETag of an LFS file is its sha256, which is also how blobs are named.
    if (etag !== undefined && /^[0-9a-f]{64}$/.test(etag)) {
      const size = blobSize(env, spec.repo, etag);
      if (size !== undefined) {
        files.push({ url, etag, sha256: etag, size });
        continue;
      }
    }
    if (!announced) {
      log(`downloading ${spec.text} (${urls.length} parquet file${urls.length === 1 ? '' : 's'}) into ${datasetDir(env, spec.repo)}`);
      announced = true;
    }
    try {
      files.push(await downloadBlob(env, spec.repo, url, etag));
    } catch (err) {
      throw err instanceof HubHttpError ? statusError(err, env, spec, false) : err;
    }
  }
  writeManifest(env, { version: 1, dataset: spec.repo, config, split: spec.split, fetched_at: new Date().toISOString(), files });
  return { spec, config, files: files.map((f) => resolvedFile(env, spec.repo, f)), fromCache: false };
}

function resolvedFile(env: HubEnv, repo: string, f: CachedFile): ResolvedFile {
  return { path: blobPath(env, repo, f.sha256), url: f.url, size: f.size, sha256: f.sha256 };
}

/** The cached copy, used when the hub cannot be reached (`cause`) or HF_HUB_OFFLINE is set (no cause). */
function cached(env: HubEnv, spec: HubSpec, cause: HubUnreachable | undefined, log: (s: string) => void): ResolvedSplit {
  let config = spec.config;
  if (config === undefined) {
    const configs = readConfigs(env, spec.repo);
    if (configs !== undefined) config = pickConfig(configs, spec);
  }
  const manifest = config === undefined ? undefined : readManifest(env, spec.repo, config, spec.split);
  const where = datasetDir(env, spec.repo);
  if (manifest === undefined || config === undefined) {
    if (cause === undefined) {
      throw new TextstressError('HF_HUB_OFFLINE is set and there is no cached copy of this split.', {
        where: spec.text,
        hint: `Unset HF_HUB_OFFLINE to download it (the cache is ${where}).`,
      });
    }
    throw new TextstressError(`${cause.message}, and there is no cached copy of this split.`, {
      where: spec.text,
      hint:
        `HF_ENDPOINT is ${env.endpoint}${env.endpointSet ? '' : ' (the default)'}. Check the network connection and ` +
        `HF_ENDPOINT, or run once with network access to fill the cache (${where}).`,
    });
  }
  if (cause !== undefined) log(`${cause.message}; using the cached copy of ${spec.text} from ${manifest.fetched_at} (${where})`);
  return { spec, config, files: manifest.files.map((f) => resolvedFile(env, spec.repo, f)), fromCache: true };
}

const memo = new Map<string, Promise<ResolvedSplit>>();

/** Forgets what this process resolved (tests that change the hub or the cache between opens). */
export function forgetResolvedSplits(): void {
  memo.clear();
}

const stderrLog = (s: string): void => void process.stderr.write(`textstress: ${terminalSafe(s)}\n`);

/** The split's parquet files on disk, downloaded or from the cache. */
export function resolveSplit(spec: HubSpec, env: HubEnv = hubEnv(), log: (s: string) => void = stderrLog): Promise<ResolvedSplit> {
  const key = JSON.stringify([
    env.endpoint,
    env.cacheRoot,
    env.offline,
    env.token !== undefined,
    spec.repo,
    spec.config ?? null,
    spec.split,
  ]);
  let p = memo.get(key);
  if (p === undefined) {
    p = (async () => {
      if (env.offline) return cached(env, spec, undefined, log);
      try {
        return await online(env, spec, log);
      } catch (err) {
        if (err instanceof HubUnreachable) return cached(env, spec, err, log);
        throw err;
      }
    })();
    memo.set(key, p);
    // A failure is not remembered: the next open tries again.
    p.catch(() => memo.delete(key));
  }
  return p;
}

/**
 * What identifies a hub split's content for --resume: the number, sizes and sha256 of its parquet files
 * (as downloaded), hashed together. A new revision on the hub changes it.
 */
export async function hubFingerprint(text: string): Promise<string> {
  const resolved = await resolveSplit(parseHubSpec(text));
  const hash = createHash('sha256');
  let total = 0;
  for (const f of resolved.files) {
    hash.update(`${f.size} ${f.sha256}\n`);
    total += f.size;
  }
  return `hf:${total}:${hash.digest('hex')}`;
}
