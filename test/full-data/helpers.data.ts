/**
 * Checks that need the full data files in ../shared/data (beside the checkout, read in place, never copied).
 * They run under `npm run test:data` only (vitest.data.config.ts, scripts/test-data.mjs); `npm test` checks the
 * same behaviour on the committed slices in test/fixtures/data.
 */
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '..', '..');
export const SHARED = resolve(ROOT, '..', 'shared', 'data');
export const shared = (rel: string): string => join(SHARED, rel);
