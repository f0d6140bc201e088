import { appendFileSync, existsSync, readFileSync, rmSync } from 'node:fs';

/**
 * Results held back after a failure. When an example fails, the examples after it that had already finished
 * (their answers paid for) cannot go into results.jsonl without breaking its data order, and dropping them would
 * pay for them again on the resume. They wait here, one JSON line each (exactly the line results.jsonl gets), until
 * a resume reaches their place in the data and writes them there without doing the work again.
 */
export const HELD_FILE = 'results.held.jsonl';

/**
 * The held lines by example id, leaving out the ids results.jsonl already holds (a resume that wrote them and was
 * killed before it could drop the file). A torn or unreadable line is skipped: its example is simply done again.
 */
export function readHeld(path: string, finished: ReadonlySet<string>): Map<string, string> {
  const held = new Map<string, string>();
  if (!existsSync(path)) return held;
  const lines = readFileSync(path, 'utf8').split('\n');
  // The last piece is '' after a complete file, or a torn write a kill left: never a whole result.
  lines.pop();
  for (const line of lines) {
    let id: unknown;
    try {
      id = (JSON.parse(line) as { id?: unknown }).id;
    } catch {
      continue;
    }
    if (typeof id === 'string' && !finished.has(id)) held.set(id, line);
  }
  return held;
}

/** Holds one result line (appended at once, so a kill -9 after it loses nothing paid for). */
export function holdLine(path: string, line: string): void {
  appendFileSync(path, line + '\n');
}

/** Drops the held file once every held result has been written in its place. */
export function dropHeld(path: string): void {
  rmSync(path, { force: true });
}
