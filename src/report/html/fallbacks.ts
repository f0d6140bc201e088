import type { Verdict } from './types.ts';

/** What ran on a fallback file instead of the data the suite names (issue 34: said wherever the verdict is). */
export function fallbackLines(v: Pick<Verdict, 'fallbacks'>): string[] {
  return (v.fallbacks ?? []).map(
    (f) =>
      `Data: FALLBACK — dataset "${f.dataset}": ${f.wanted} not found, so ${f.tests.join(', ')} ran on its fallback ${f.used}; ` +
      'these figures are not over the data the suite names.',
  );
}
