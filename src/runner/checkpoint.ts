import { appendFileSync, closeSync, createReadStream, existsSync, ftruncateSync, openSync } from 'node:fs';
import type { ExampleResult } from '../attack/result.ts';
import { TextstressError } from '../util/errors.ts';

/**
 * results.jsonl is the checkpoint: one complete line per finished example, appended as soon as it is
 * known. A run killed mid-write leaves at most one torn last line, which resume cuts off. Everything here
 * streams the file, so a run of any size is read in bounded memory.
 */

/** Complete lines of a JSONL file with their 1-based line numbers; `tornAt` is the byte offset of a torn tail. */
async function* completeLines(path: string): AsyncGenerator<{ line: string; lineNo: number }, { tornAt?: number }> {
  let carry: Buffer[] = [];
  let carryBytes = 0;
  let offset = 0;
  let lineNo = 0;
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
    let from = 0;
    for (let nl = chunk.indexOf(10, from); nl >= 0; nl = chunk.indexOf(10, from)) {
      const piece = chunk.subarray(from, nl);
      const bytes = carry.length ? Buffer.concat([...carry, piece]) : piece;
      offset += carryBytes + piece.length + 1;
      carry = [];
      carryBytes = 0;
      lineNo++;
      yield { line: bytes.toString('utf8'), lineNo };
      from = nl + 1;
    }
    if (from < chunk.length) {
      carry.push(chunk.subarray(from));
      carryBytes += chunk.length - from;
    }
  }
  // Bytes after the last newline: a write that never finished.
  return carryBytes > 0 ? { tornAt: offset } : {};
}

/**
 * Reads the finished example ids of a checkpoint, cutting a torn final line. A malformed line in the middle
 * or an id that appears twice (two processes wrote to one folder) stops with the line named.
 */
export async function readCheckpointIds(path: string): Promise<Set<string>> {
  const ids = new Set<string>();
  if (!existsSync(path)) return ids;
  const lines = completeLines(path);
  for (;;) {
    const next = await lines.next();
    if (next.done) {
      if (next.value.tornAt !== undefined) truncate(path, next.value.tornAt);
      return ids;
    }
    const { line, lineNo } = next.value;
    if (line.trim() === '') continue;
    let id: unknown;
    try {
      id = (JSON.parse(line) as { id?: unknown }).id;
    } catch {
      // A torn write has no newline (cut above); a complete line that does not parse is damage.
      throw badLine(path, lineNo);
    }
    if (typeof id !== 'string') throw badLine(path, lineNo, 'has no example id');
    if (ids.has(id)) {
      throw new TextstressError(`line ${lineNo} holds the example "${id}" a second time, so the run cannot be resumed safely.`, {
        where: path,
        hint: 'Two processes may have written to this folder at once. Start a fresh run with --overwrite.',
      });
    }
    ids.add(id);
  }
}

function badLine(path: string, lineNo: number, why = 'is not valid JSON'): TextstressError {
  return new TextstressError(`line ${lineNo} ${why}, so the run cannot be resumed safely.`, {
    where: path,
    hint: 'Remove that line (its example will be attacked again) or start a fresh run with --overwrite.',
  });
}

function truncate(path: string, bytes: number): void {
  const fd = openSync(path, 'r+');
  try {
    ftruncateSync(fd, bytes);
  } finally {
    closeSync(fd);
  }
}

/** Every result of a finished (or checkpointed) run, one at a time, in file order. */
export async function* readResults<R = ExampleResult>(path: string): AsyncGenerator<R> {
  if (!existsSync(path)) return;
  for await (const { line, lineNo } of completeLines(path)) {
    if (line.trim() === '') continue;
    try {
      yield JSON.parse(line) as R;
    } catch (err) {
      throw new TextstressError(`line ${lineNo} is not valid JSON: ${(err as Error).message}`, { where: path });
    }
  }
}

/** Appends one result as a JSON line (the whole line in one write, so a kill leaves at most a torn last line). */
export function appendResult(path: string, result: unknown): void {
  appendResultLine(path, JSON.stringify(result));
}

/** Appends a result already serialised as one JSON line (see appendResult). */
export function appendResultLine(path: string, line: string): void {
  appendFileSync(path, line + '\n');
}

/** n positions out of `total`, evenly spaced (all of them when n ≥ total): which results a bounded sample keeps. */
export function spacedPositions(total: number, n: number): Set<number> {
  if (n >= total) return new Set(Array.from({ length: total }, (_, i) => i));
  const out = new Set<number>();
  for (let i = 0; i < n; i++) out.add(Math.floor((i * total) / n));
  return out;
}
