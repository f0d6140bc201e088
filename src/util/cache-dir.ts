import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** Where textstress keeps its caches: TEXTSTRESS_CACHE_DIR, else $XDG_CACHE_HOME/textstress, else ~/.cache/textstress. */
export function defaultCacheDir(): string {
  if (process.env.TEXTSTRESS_CACHE_DIR) return resolve(process.env.TEXTSTRESS_CACHE_DIR);
  return join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'textstress');
}
