/** The name of a model as `serve`'s GET /info shows it (serve.ts). */
import { isAbsolute, win32 } from 'node:path';

/**
 * The model's name as /info shows it: a folder by its base name (an absolute path tells a caller the user's
 * name and layout), a URL without credentials or query, anything else (hub id, built-in, function:…) as given.
 */
export function publicModelId(id: string): string {
  if (/^https?:\/\//i.test(id)) {
    try {
      const u = new URL(id);
      return `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, '')}`;
    } catch {
      return 'http-model';
    }
  }
  const isPath = isAbsolute(id) || win32.isAbsolute(id) || /^[.~]/.test(id) || id.includes('\\') || id.split('/').length > 2;
  if (!isPath) return id;
  return (
    id
      .split(/[\\/]+/)
      .filter(Boolean)
      .at(-1) ?? 'model'
  );
}
