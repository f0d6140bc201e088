/**
 * Content digests of a finished run's outputs (results.jsonl, summary.json), written into run.json when the run
 * completes: `merge` checks them, so a shard whose results were edited, truncated or swapped afterwards is refused
 * by name instead of being joined into a result that no model produced.
 */
import { closeSync, existsSync, openSync, readSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { TextstressError } from '../util/errors.ts';

/** File name → "sha256:<hex>" of its bytes. */
export type Digests = Record<string, string>;

/** The SHA-256 of a file's bytes, read in 1 MiB pieces (results files can be large). */
export function fileDigest(path: string): string {
  const hash = createHash('sha256');
  const buf = Buffer.alloc(1 << 20);
  const fd = openSync(path, 'r');
  try {
    for (let n = readSync(fd, buf, 0, buf.length, null); n > 0; n = readSync(fd, buf, 0, buf.length, null)) hash.update(buf.subarray(0, n));
  } finally {
    closeSync(fd);
  }
  return `sha256:${hash.digest('hex')}`;
}

/** The digests of those of `files` that exist in `dir`. */
export function outputDigests(dir: string, files: readonly string[]): Digests {
  const out: Digests = {};
  for (const f of files) if (existsSync(join(dir, f))) out[f] = fileDigest(join(dir, f));
  return out;
}

/** Throws a TextstressError naming the folder and file whose content is no longer what the run wrote. */
export function checkDigests(dir: string, digests: Digests, what: string, use = 'merged'): void {
  for (const [file, want] of Object.entries(digests)) {
    const path = join(dir, file);
    if (!existsSync(path))
      throw new TextstressError(`${what} in ${dir}: ${file} is gone since it finished.`, {
        hint: `Run it again (same command with --overwrite), then ${use === 'merged' ? 'merge' : 'compare'}.`,
      });
    if (fileDigest(path) !== want) {
      throw new TextstressError(
        `${what} in ${dir}: ${path} was changed after the run finished (its content digest differs from run.json's).`,
        {
          hint: `Results edited by hand cannot be ${use}: restore the file, or run it again (same command with --overwrite).`,
        },
      );
    }
  }
}
