/**
 * What made a queued run: the package version, a digest of the code this process runs (every source file under
 * src/, or dist/ when installed) and the model's identity. The coordinator puts it in each job; a worker whose own
 * differs refuses the job (a worker with one rule edited, or another model behind the same name, would otherwise
 * add results no local run would give, unnoticed), and each stored result carries its maker's digest.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { modelIdentity as identityOf } from '../util/model-identity.ts';
import type { ModelAdapter } from '../models/types.ts';
import { packageVersion } from '../util/package-root.ts';

export interface Fingerprint {
  version: string;
  /** sha256 (16 hex) of the code's files, paths included. */
  code: string;
  /** A model folder's name and the digest of its files; else the model's id and answer-deciding identity. */
  model: string;
}

/** The folder this code runs from: src/ in a checkout, dist/ when installed. */
const CODE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

let code: string | undefined;

/** The digest of this process's code (computed once: about 350 files). */
export function codeDigest(): string {
  if (code !== undefined) return code;
  const hash = createHash('sha256');
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.(ts|js|mjs|json)$/.test(name)) hash.update(relative(CODE_ROOT, p)).update('\0').update(readFileSync(p)).update('\0');
    }
  };
  walk(CODE_ROOT);
  code = hash.digest('hex').slice(0, 16);
  return code;
}

/**
 * The model's identity: for a model folder, its name and the digest of the files that decide its answers
 * (weights, configs, tokenizer; not its path: the same model may sit elsewhere on each machine); else what it says it
 * is (id, endpoint and answer-deciding settings).
 */
export function modelIdentity(model: ModelAdapter): string {
  return identityOf(model.info.id, model.cacheIdentity);
}

export function fingerprintOf(model: ModelAdapter): Fingerprint {
  return { version: packageVersion(), code: codeDigest(), model: modelIdentity(model) };
}

/** One short digest of a whole fingerprint, stored beside each result. */
export function fingerprintDigest(f: Fingerprint): string {
  return createHash('sha256')
    .update(JSON.stringify([f.version, f.code, f.model]))
    .digest('hex')
    .slice(0, 16);
}

/** How `theirs` (a worker's) differs from `ours` (the run's), one phrase per field; empty when they agree. */
export function differences(ours: Fingerprint, theirs: Fingerprint): string[] {
  const out: string[] = [];
  if (ours.version !== theirs.version) out.push(`version ${theirs.version} (run: ${ours.version})`);
  if (ours.code !== theirs.code) out.push(`code ${theirs.code} (run: ${ours.code})`);
  if (ours.model !== theirs.model) out.push(`model ${theirs.model} (run: ${ours.model})`);
  return out;
}
