/**
 * camelCase is the only spelling written by hand (zod keys, code, summary.json). Flags are kebab-case; suite
 * YAML and its JSON Schema are snake_case, because suites already exist. These convert, and `roundTrips`
 * rejects keys that would not come back the same (`useHTTP`).
 */
export const kebab = (camel: string): string => camel.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
/** camelCase → snake_case. */
export const snake = (camel: string): string => camel.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
/** snake_case → camelCase. */
export const camelFromSnake = (s: string): string => s.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
export const camelFromKebab = (s: string): string => s.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());

export function roundTrips(camel: string): boolean {
  return /^[a-z][a-zA-Z0-9]*$/.test(camel) && camelFromSnake(snake(camel)) === camel && !/[A-Z]{2}/.test(camel);
}

/** An object's keys in camelCase (one level). */
export function camelKeys(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [camelFromSnake(k), v]));
}
