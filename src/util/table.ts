/** Plain-text tables for the terminal; their cells' control characters are shown, not obeyed (terminalSafe). */
import { terminalSafe } from './terminal.ts';

/** A two-column table with aligned values, for summaries in the terminal. */
export function formatTable(given: [string, string][], title?: string): string {
  const rows = given.map(([k, v]) => [terminalSafe(k), terminalSafe(v)] as const);
  const width = Math.max(...rows.map(([k]) => k.length));
  const valueWidth = Math.max(...rows.map(([, v]) => v.length));
  const line = '─'.repeat(width + valueWidth + 5);
  const out: string[] = [];
  if (title) out.push(terminalSafe(title));
  out.push(`┌${line}┐`);
  for (const [k, v] of rows) out.push(`│ ${k.padEnd(width)} │ ${v.padStart(valueWidth)} │`);
  out.push(`└${line}┘`);
  return out.join('\n');
}

/** A grid with a header row, right-aligned numbers. */
export function formatGrid(givenHeader: string[], givenRows: string[][]): string {
  const header = givenHeader.map((h) => terminalSafe(h));
  const rows = givenRows.map((r) => r.map((cell) => terminalSafe(cell)));
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => (r[c] ?? '').length)));
  const fmt = (cells: string[]): string =>
    cells.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  ');
  return [fmt(header), widths.map((w) => '─'.repeat(w)).join('  '), ...rows.map(fmt)].join('\n');
}
