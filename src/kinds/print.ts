/** What the terminal says about any per-example run, whatever its kind. */
import { belowChanceMessage } from '../metrics/chance.ts';
import type { RunSummary } from '../metrics/summary.ts';

/**
 * The warnings of a finished per-example run: text that was probably not UTF-8 (U+FFFD in examples), and a run that
 * measured nothing. One rule for every kind (README.md, "A run that measured nothing"): a run whose headline figures are over zero cases (zero
 * examples tested; an attack: zero examples attacked; a probe: zero examples probed; a generator: zero records)
 * exits 1, so no script mistakes it for a result; its files are still written. So does a classifier whose clean
 * accuracy is far below chance (issue 34): its labels are most likely swapped, and its figures measure the swap.
 */
export function emptyRunWarnings(
  summary: Pick<RunSummary, 'n' | 'skipped_rows' | 'replacement_chars' | 'probe' | 'clean_below_chance'> &
    Partial<Pick<RunSummary, 'attacked' | 'skipped' | 'skip_reasons'>>,
  opts: { probe?: boolean } = {},
): {
  warnings: string[];
  failed: boolean;
} {
  const warnings: string[] = [];
  const bad = summary.replacement_chars;
  if (bad) {
    warnings.push(
      `textstress: warning: ${bad.rows} example${bad.rows === 1 ? '' : 's'} hold U+FFFD (the first at ${bad.first ?? '?'}): ` +
        'the data file is probably not UTF-8, and the model read "�" where the text had other characters. Re-encode it (e.g. iconv -f latin1 -t utf-8).',
    );
  }
  if (summary.clean_below_chance) {
    warnings.push(belowChanceMessage(summary.clean_below_chance));
    return { warnings, failed: true };
  }
  // A probe's summary carries its `probe` figures only when it probed something.
  const probed = summary.probe?.n ?? (opts.probe ? 0 : undefined);
  if (summary.n > 0 && probed === 0) {
    warnings.push(
      `textstress: error: nothing probed: none of the ${summary.n} examples had what the probe rewrites, so its figures ` +
        'measure nothing (see "not applicable" above).',
    );
    return { warnings, failed: true };
  }
  if (summary.n > 0 && !opts.probe && summary.attacked === 0) {
    warnings.push(
      `textstress: error: no example attacked: all ${summary.n} examples were skipped (${reasons(summary.skip_reasons ?? {})}), ` +
        'so the attack measured nothing (attack success rate and stability are n/a).',
    );
    return { warnings, failed: true };
  }
  if (summary.n > 0) return { warnings, failed: false };
  const skipped = summary.skipped_rows ? ` (${summary.skipped_rows} bad rows skipped)` : '';
  warnings.push(`textstress: error: no examples tested: the data gave 0 examples${skipped}, so every metric is n/a.`);
  return { warnings, failed: true };
}

/** Skip reasons as `reason: count; …`, the most frequent first. */
function reasons(byReason: Record<string, number>): string {
  const listed = Object.entries(byReason).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return listed.length ? listed.map(([why, k]) => `${why}: ${k}`).join('; ') : 'no reason recorded';
}
