import { appendFileSync, closeSync, createReadStream, existsSync, ftruncateSync, openSync } from 'node:fs';
import type { ExampleResult } from '../core/result.ts';
import { TextstressError } from '../util/errors.ts';

/**
 * results.jsonl is the checkpoint: one complete line per finished example, appended as soon as it is
 * known. A run killed mid-write leaves at most one torn last line, which resume cuts off. Everything here
 * streams the file, so a run of any size is read in bounded memory.
 */

/**
 * Complete lines of a JSONL file with their 1-based line numbers; `tornAt` is the byte offset of a torn tail. A line
 * longer than `maxLineBytes` is not kept in memory: it comes as `oversize` (its length) with an empty `line`.
 */
async function* completeLines(
  path: string,
  maxLineBytes = Infinity,
): AsyncGenerator<{ line: string; lineNo: number; oversize?: number }, { tornAt?: number }> {
  let carry: Buffer[] = [];
  let carryBytes = 0;
  let dropping = false;
  let offset = 0;
  let lineNo = 0;
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
    let from = 0;
    for (let nl = chunk.indexOf(10, from); nl >= 0; nl = chunk.indexOf(10, from)) {
      const piece = chunk.subarray(from, nl);
      const length = carryBytes + piece.length;
      offset += length + 1;
      lineNo++;
      if (dropping || length > maxLineBytes) yield { line: '', lineNo, oversize: length };
      else yield { line: (carry.length ? Buffer.concat([...carry, piece]) : piece).toString('utf8'), lineNo };
      carry = [];
      carryBytes = 0;
      dropping = false;
      from = nl + 1;
    }
    if (from < chunk.length) {
      carryBytes += chunk.length - from;
      // Past the cap the bytes are only counted, so one huge line costs no more memory than the cap.
      if (carryBytes > maxLineBytes) {
        dropping = true;
        carry = [];
      } else carry.push(chunk.subarray(from));
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

/**
 * The longest result line read back (16 MiB: a 600,000-character example with its edits takes a few MiB). One line
 * is parsed whole, and JSON.parse of a 100 MB line held about 1 GB (issue 35).
 */
export const MAX_RESULT_LINE_BYTES = 16 * 2 ** 20;

/** Every result of a finished (or checkpointed) run, one at a time, in file order; a line over `maxLineBytes` is an error. */
export async function* readResults<R = ExampleResult>(path: string, maxLineBytes = MAX_RESULT_LINE_BYTES): AsyncGenerator<R> {
  if (!existsSync(path)) return;
  for await (const { line, lineNo, oversize } of completeLines(path, maxLineBytes)) {
    if (oversize !== undefined) {
      const mib = (n: number): string => `${(n / 2 ** 20).toFixed(n < 2 ** 20 ? 2 : 0)} MiB`;
      throw new TextstressError(
        `line ${lineNo} is ${mib(oversize)} long, over the ${mib(maxLineBytes)} read of one result; it is not read.`,
        {
          where: path,
          hint: 'A result that large holds a huge text: reports and compare skip nothing silently, so shorten it (--max-chars) and rerun.',
        },
      );
    }
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
