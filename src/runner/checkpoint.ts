import { existsSync, openSync, readFileSync, ftruncateSync, closeSync, appendFileSync } from 'node:fs';
import type { ExampleResult } from '../attack/result.ts';
import { TextstressError } from '../util/errors.ts';

/**
 * results.jsonl is the checkpoint: one complete line per finished example, appended as soon as it is
 * known. A run killed mid-write leaves at most one torn last line, which resume cuts off.
 */
export function readCheckpoint(path: string): ExampleResult[] {
  if (!existsSync(path)) return [];
  const buf = readFileSync(path);
  const text = buf.toString('utf8');
  const results: ExampleResult[] = [];
  let goodBytes = 0;
  let offset = 0;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const isLast = i === lines.length - 1;
    const lineBytes = Buffer.byteLength(line, 'utf8') + (isLast ? 0 : 1);
    if (line.trim() === '') {
      offset += lineBytes;
      if (!isLast) goodBytes = offset;
      continue;
    }
    let parsed: ExampleResult;
    try {
      parsed = JSON.parse(line) as ExampleResult;
    } catch {
      if (isLast) break; // torn final write from an interrupted run
      throw new TextstressError(`line ${i + 1} is not valid JSON, so the run cannot be resumed safely.`, {
        where: path,
        hint: 'Remove that line (its example will be attacked again) or start a fresh run with --overwrite.',
      });
    }
    if (isLast) break; // no newline yet: the write may be incomplete, redo that example
    results.push(parsed);
    offset += lineBytes;
    goodBytes = offset;
  }
  if (goodBytes < buf.length) {
    const fd = openSync(path, 'r+');
    try {
      ftruncateSync(fd, goodBytes);
    } finally {
      closeSync(fd);
    }
  }
  return results;
}

export function appendResult(path: string, result: ExampleResult): void {
  appendFileSync(path, JSON.stringify(result) + '\n');
}
