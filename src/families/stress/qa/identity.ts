/**
 * What identifies a model whose adversaries a transfer set holds, so that the model under test can leave out the
 * sets generated against itself (Aspillaga et al.'s Table 4 caption: "adversaries generated for the model itself are excluded") whatever
 * path it was given by. The same digest as the queue's fingerprint (src/util/model-identity.ts).
 */
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';

export { modelIdentity } from '../../../util/model-identity.ts';

/** Whether a model is a folder on this machine (its identity needs no opening). */
export function isModelFolder(id: string): boolean {
  const folder = resolve(id);
  return existsSync(folder) && statSync(folder).isDirectory();
}

/** Whether two identities name the same model: the same digest (a model folder copied elsewhere or renamed is the same model). */
export function sameModel(a: string, b: string): boolean {
  return a.slice(a.lastIndexOf('#') + 1) === b.slice(b.lastIndexOf('#') + 1);
}
