/**
 * Paths as a report shows them: never a local absolute path (`/home/me/…`, `C:\…`), which says nothing to a
 * reader on another machine and leaks a user's folder layout. Relative paths stay as given; an absolute one
 * becomes its last two parts (`demo/reviews.tsv`, `models/demo-mlm`).
 */
export function displayPath(spec: string): string {
  if (!isAbsolutePath(spec)) return spec;
  const parts = spec.split(/[\\/]+/).filter(Boolean);
  return parts.slice(-2).join('/') || spec;
}

export function isAbsolutePath(s: string): boolean {
  return s.startsWith('/') || /^[A-Za-z]:[\\/]/.test(s) || s.startsWith('\\\\');
}

/** Every absolute path inside a free text (a note, a settings line) shortened as {@link displayPath} does. */
export function withoutAbsolutePaths(text: string): string {
  return text.replace(/(^|[\s=(,'"])((?:\/|[A-Za-z]:[\\/])[^\s,;'"()]+)/g, (_m, pre: string, path: string) => pre + displayPath(path));
}
