/**
 * Long CPU work that gives the event loop a turn now and then, so signals (SIGTERM, SIGINT) and timers are handled
 * while it runs instead of after it.
 */
import { setImmediate as turn } from 'node:timers/promises';

/** A function to await inside a long loop: it yields once `everyMs` have passed since the last yield, else returns at once. */
export function cooperative(everyMs = 50): () => Promise<void> {
  let last = performance.now();
  return async () => {
    const now = performance.now();
    if (now - last < everyMs) return;
    await turn();
    last = performance.now();
  };
}
