/** Escapes text for HTML element content and double- or single-quoted attribute values. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * JSON for a <script type="application/json"> data island: every `<`, `>`, `&` and the JS line separators are
 * written as \u escapes, so no dataset string can close the element (`</script>`), open a comment (`<!--`)
 * or otherwise be read as markup. JSON.parse gives back the exact strings.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
