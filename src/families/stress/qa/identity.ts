/**
 * What identifies a model whose adversaries a transfer set holds, so that the model under test can leave out the
 * sets generated against itself (Jia & Liang: "adversaries generated for the model itself are excluded") whatever
 * path it was given by. The same digest as the queue's (src/queue/fingerprint.ts, a layer this family cannot
 * import): a model folder is its name and the SHA-256 of every file in it; anything else is its id and what it
 * says decides its answers (endpoint, model name, parameters).
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

/** Whether a model is a folder on this machine (its identity needs no opening). */
export function isModelFolder(id: string): boolean {
  const folder = resolve(id);
  return existsSync(folder) && statSync(folder).isDirectory();
}

/** Whether two identities name the same model: the same digest (a model folder copied elsewhere or renamed is the same model). */
export function sameModel(a: string, b: string): boolean {
  return a.slice(a.lastIndexOf('#') + 1) === b.slice(b.lastIndexOf('#') + 1);
}
