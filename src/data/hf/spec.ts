/**
 * `hf:<owner>/<name>[:<config>]:<split>` dataset specs, and the environment the hub clients read
 * (HF_ENDPOINT, HF_TOKEN, HF_HOME, XDG_CACHE_HOME, HF_HUB_OFFLINE).
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { TextstressError } from '../../util/errors.ts';

export const HUB_PREFIX = 'hf:';

/** A parsed hub dataset spec. `text` is the spec as the user gave it (used as the "file" in messages). */
export interface HubSpec {
  text: string;
  /** "owner/name" */
  repo: string;
  /** Left out: the dataset's only config, or "default". */
  config?: string;
  split: string;
}

const FORM = 'hf:<owner>/<name>[:<config>]:<split>, e.g. hf:stanfordnlp/sst2:validation or hf:nyu-mll/glue:mrpc:validation';
// The hub's repo name rules (letters, digits, "-", "_", "."; no leading/trailing "-" or ".").
const REPO_PART = /^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9_])?$/;
// Config and split names are free-form on the hub; only what could break a URL path or a cache path is refused.
const NAME = /^[^\s/\\:?#%]+$/;

/** Whether a data path names a Hugging Face hub dataset (starts with "hf:"). */
export function isHubSpec(path: string): boolean {
  return path.startsWith(HUB_PREFIX);
}

/** Parses a spec, throwing a TextstressError that shows the accepted form. `split` is required. */
export function parseHubSpec(text: string): HubSpec {
  const bad = (why: string): TextstressError =>
    new TextstressError(`"${text}" is not a hub dataset spec: ${why}.`, { hint: `Write ${FORM}.` });
  if (!isHubSpec(text)) throw bad(`it does not start with "${HUB_PREFIX}"`);
  const parts = text.slice(HUB_PREFIX.length).split(':');
  const repo = parts[0]!;
  const [owner, name, ...more] = repo.split('/');
  if (
    owner === undefined ||
    name === undefined ||
    more.length > 0 ||
    !REPO_PART.test(owner) ||
    !REPO_PART.test(name) ||
    name.includes('..')
  ) {
    throw bad(`"${repo}" is not a dataset id of the form owner/name`);
  }
  if (parts.length === 1) {
    throw new TextstressError(`"${text}" names no split.`, { hint: `Write ${FORM} (splits are usually train, validation, test).` });
  }
  if (parts.length > 3) throw bad('it has more than three ":"-separated parts');
  const [config, split] = parts.length === 3 ? [parts[1]!, parts[2]!] : [undefined, parts[1]!];
  for (const [what, v] of [
    ['config', config],
    ['split', split],
  ] as const) {
    if (v !== undefined && !NAME.test(v))
      throw bad(`the ${what} name ${JSON.stringify(v)} is empty or holds a character that cannot be in one`);
  }
  return { text, repo, ...(config !== undefined ? { config } : {}), split };
}

/** The spec with its config filled in, e.g. "hf:stanfordnlp/sst2:default:validation". */
export function fullSpec(spec: HubSpec, config: string): string {
  return `${HUB_PREFIX}${spec.repo}:${config}:${spec.split}`;
}

/** What the hub clients read from the environment. The token is kept here and sent only in request headers. */
export interface HubEnv {
  /** HF_ENDPOINT without a trailing slash. */
  endpoint: string;
  /** HF_ENDPOINT was set (else the endpoint is the default). */
  endpointSet: boolean;
  token?: string;
  /** HF_HUB_OFFLINE=1: never touch the network, read the cache only. */
  offline: boolean;
  /** Where textstress keeps downloaded parquet files: $HF_HOME/textstress. */
  cacheRoot: string;
}

const expandHome = (p: string): string => (p === '~' || p.startsWith('~/') ? join(homedir(), p.slice(1)) : p);

/** HF_HOME as huggingface_hub computes it: $HF_HOME, else $XDG_CACHE_HOME/huggingface, else ~/.cache/huggingface. */
export function hfHome(env: NodeJS.ProcessEnv = process.env): string {
  if (env.HF_HOME) return expandHome(env.HF_HOME);
  return join(env.XDG_CACHE_HOME ? expandHome(env.XDG_CACHE_HOME) : join(homedir(), '.cache'), 'huggingface');
}

export function hubEnv(env: NodeJS.ProcessEnv = process.env): HubEnv {
  const raw = (env.HF_ENDPOINT ?? '').trim() || 'https://huggingface.co';
  let endpoint: URL;
  try {
    endpoint = new URL(raw);
  } catch {
    throw new TextstressError(`HF_ENDPOINT is not a URL: ${JSON.stringify(raw)}.`, {
      hint: 'Set it to the hub (https://huggingface.co) or a mirror, or unset it.',
    });
  }
  if (endpoint.protocol !== 'http:' && endpoint.protocol !== 'https:') {
    throw new TextstressError(`HF_ENDPOINT must be an http(s) URL, got ${JSON.stringify(raw)}.`);
  }
  const token = env.HF_TOKEN?.trim();
  const offline = ['1', 'on', 'yes', 'true'].includes((env.HF_HUB_OFFLINE ?? '').trim().toLowerCase());
  return {
    endpoint: endpoint.href.replace(/\/+$/, ''),
    endpointSet: Boolean(env.HF_ENDPOINT?.trim()),
    ...(token ? { token } : {}),
    offline,
    cacheRoot: join(hfHome(env), 'textstress'),
  };
}

/** A URL fit for messages: no user:password part (a mirror URL could hold one), never a token. */
export function showUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    return u.href;
  } catch {
    return url;
  }
}
