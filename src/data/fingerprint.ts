/** Content fingerprints of data files (resume checks). */
import { createHash } from 'node:crypto';
import { createReadStream, statSync } from 'node:fs';
import { hubFingerprint } from './hf/resolve.ts';
import { isHubSpec } from './hf/spec.ts';

/**
 * What identifies a data file's content: its size and SHA-256 (a resume refuses a file that changed). For a hub
 * dataset (`hf:…`), the sizes and SHA-256 of the split's cached parquet files.
 */
export async function fileFingerprint(path: string): Promise<string> {
  if (isHubSpec(path)) return hubFingerprint(path);
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) hash.update(chunk);
  return `${statSync(path).size}:${hash.digest('hex')}`;
}
