/** `textstress --version` prints the version in package.json (it printed 0.1.0 for 0.2.0 when it was typed in). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/main.ts';
import { ROOT } from './helpers.ts';

describe('--version', () => {
  it("is package.json's version", () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(version).toMatch(/^\d+\.\d+\.\d+/);
    expect(buildProgram().version()).toBe(version);
  });
});
