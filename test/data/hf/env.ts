/** Points the hub client at a fake hub and a fresh cache for one test, and puts the environment back after. */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { forgetResolvedSplits } from '../../../src/data/hf/index.ts';

const KEYS = ['HF_ENDPOINT', 'HF_HOME', 'HF_TOKEN', 'HF_HUB_OFFLINE', 'XDG_CACHE_HOME'] as const;

/** Sets the hub variables (the others unset) and returns a function that restores them. */
export function setHubEnv(vars: Partial<Record<(typeof KEYS)[number], string>>): () => void {
  const saved = Object.fromEntries(KEYS.map((k) => [k, process.env[k]]));
  for (const k of KEYS) {
    if (vars[k] === undefined) delete process.env[k];
    else process.env[k] = vars[k];
  }
  forgetResolvedSplits();
  return () => {
    for (const k of KEYS) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
    forgetResolvedSplits();
  };
}

const homes: string[] = [];

/** A fresh HF_HOME; {@link removeTempHomes} deletes them all. */
export function tempHome(): string {
  const dir = mkdtempSync(join(tmpdir(), 'textstress-hfhome-'));
  homes.push(dir);
  return dir;
}

export function removeTempHomes(): void {
  for (const d of homes.splice(0)) rmSync(d, { recursive: true, force: true });
}

/** Every file under a folder (relative paths), for checking what the cache holds. */
export function filesUnder(dir: string, prefix = ''): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.flatMap((n) => (statSync(join(dir, n)).isDirectory() ? filesUnder(join(dir, n), `${prefix}${n}/`) : [`${prefix}${n}`]));
}

/** Does any file under `dir` contain `needle`? */
export function anyFileContains(dir: string, needle: string): boolean {
  return filesUnder(dir).some((f) => readFileSync(join(dir, f)).includes(needle));
}
