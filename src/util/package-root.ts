import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package root (for built-in models and data), wherever textstress is installed. */
export const PACKAGE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
