/** Reading what went wrong with a fetch: error codes, the innermost message, Retry-After. */

export function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}

export function errorCode(err: unknown): string | undefined {
  let e: unknown = err;
  for (let depth = 0; depth < 4 && e; depth++) {
    const obj = e as { code?: unknown; cause?: unknown; errors?: unknown[] };
    if (typeof obj.code === 'string') return obj.code;
    if (Array.isArray(obj.errors)) {
      const codes = obj.errors.map(errorCode).filter((c): c is string => !!c);
      if (codes.length) return codes.includes('ECONNREFUSED') ? 'ECONNREFUSED' : codes[0];
    }
    e = obj.cause;
  }
  return undefined;
}

/** The message of the deepest `cause` (fetch wraps everything in "fetch failed"). */
export function innermostMessage(err: unknown): string {
  let e: unknown = err;
  let msg = '';
  for (let depth = 0; depth < 5 && e; depth++) {
    if (e instanceof Error && e.message) msg = e.message;
    else if (typeof e === 'string') msg = e;
    e = (e as { cause?: unknown }).cause;
  }
  return msg;
}

/** Retry-After as milliseconds: delay-seconds or an HTTP date. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  const t = Date.parse(v);
  return Number.isNaN(t) ? undefined : Math.max(0, t - now);
}
