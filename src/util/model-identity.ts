/**
 * What identifies a model across machines and paths: a model folder is its name and the SHA-256 of every file in it
 * (the same model may sit elsewhere on each machine, or be copied and renamed); anything else is its id and what it
 * says decides its answers (endpoint, model name, parameters). The queue's fingerprint and the QA transfer sets use it.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';

/** `<folder name>#<16 hex>` for a model folder, else `<id>#<16 hex>` of the id and its answer-deciding identity. */
export function modelIdentity(id: string, cacheIdentity?: string): string {
  const folder = resolve(id);
  if (existsSync(folder) && statSync(folder).isDirectory()) {
    const hash = createHash('sha256');
    const walk = (dir: string): void => {
      for (const name of readdirSync(dir).sort()) {
        const p = join(dir, name);
        if (statSync(p).isDirectory()) walk(p);
        else hash.update(relative(folder, p)).update('\0').update(readFileSync(p)).update('\0');
      }
    };
    walk(folder);
    return `${basename(folder)}#${hash.digest('hex').slice(0, 16)}`;
  }
  const hash = createHash('sha256')
    .update(id)
    .update('\0')
    .update(cacheIdentity ?? '');
  return `${id}#${hash.digest('hex').slice(0, 16)}`;
}
