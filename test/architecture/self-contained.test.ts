/**
 * `npm test` needs only the checkout and skips nothing quietly: no test outside test/full-data reaches for
 * the shared data folder beside the checkout, a test is skipped only through `ctx.skip(reason)` (listed by
 * test/support/skipped-reporter.ts), and the committed data slices stay small and documented with their licences.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..', '..');
const TEST = join(ROOT, 'test');
const FIXTURE_DATA = join(TEST, 'fixtures', 'data');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : [p];
  });
}

const rel = (p: string): string => relative(ROOT, p);
const testSources = files(TEST).filter((f) => f.endsWith('.ts'));

describe('npm test is self-contained', () => {
  it('no test outside test/full-data reads the shared data folder beside the checkout', () => {
    // String literals that lead to the shared folder, however the path is built.
    const patterns = [
      /['"`][^'"`\n]*\.\.\/shared\b/,
      /['"`][^'"`\n]*\bshared\/data\b/,
      /['"]shared['"]\s*,\s*['"]data['"]/,
      /full-data\/helpers/,
    ];
    const offenders = testSources
      .filter((f) => !rel(f).startsWith('test/full-data/'))
      .flatMap((f) =>
        readFileSync(f, 'utf8')
          .split('\n')
          .map((line, i) => ({ line, at: `${rel(f)}:${i + 1}` }))
          .filter(({ line }) => !/^\s*(\/\/|\*|\/\*)/.test(line) && patterns.some((p) => p.test(line)))
          .map(({ at, line }) => `${at}: ${line.trim()}`),
      );
    expect(offenders).toEqual([]);
  });

  it('tests are skipped only with a stated reason (ctx.skip(reason)), never by .skip/.skipIf/.runIf/.todo/.only', () => {
    const offenders = testSources.flatMap((f) =>
      readFileSync(f, 'utf8')
        .split('\n')
        .map((line, i) => ({ line, at: `${rel(f)}:${i + 1}` }))
        .filter(({ line }) => /\b(describe|it|test|suite)\.(skip|skipIf|runIf|todo|only)\b/.test(line) || /\bskip\(\s*\)/.test(line))
        .map(({ at, line }) => `${at}: ${line.trim()}`),
    );
    expect(offenders).toEqual([]);
  });

  it('committed data slices are small and each is named in test/fixtures/data/README.md', () => {
    const readme = readFileSync(join(FIXTURE_DATA, 'README.md'), 'utf8');
    const slices = files(FIXTURE_DATA).filter((f) => relative(FIXTURE_DATA, f).includes('/'));
    expect(slices.length).toBeGreaterThanOrEqual(13);
    for (const f of slices) {
      expect(statSync(f).size, rel(f)).toBeLessThan(100_000);
      expect(readme, `${rel(f)} is not described in the README`).toContain(relative(FIXTURE_DATA, f));
    }
  });

  it('every file under test/fixtures stays small', () => {
    // The zoo slice is copied byte for byte from the architecture zoo (test/fixtures/zoo/README.md): up to 1 MiB a file, 5 MiB in all.
    const zoo = join(TEST, 'fixtures', 'zoo');
    let zooBytes = 0;
    for (const f of files(join(TEST, 'fixtures'))) {
      const size = statSync(f).size;
      if (f.startsWith(zoo + sep)) zooBytes += size;
      expect(size, `${rel(f)} (${basename(f)})`).toBeLessThan(f.startsWith(zoo + sep) ? 1024 * 1024 : 512 * 1024);
    }
    expect(zooBytes, 'test/fixtures/zoo in all').toBeLessThan(5 * 1024 * 1024);
  });
});
