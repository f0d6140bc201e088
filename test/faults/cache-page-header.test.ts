/**
 * Issue 35 item 2: one overwritten page header (bytes 8–15, the txnid) in a sound query cache passed `cache verify`
 * ("sound"), and every run and `cache clear` on it died of SIGSEGV (exit 139): LMDB takes a page whose txnid is past
 * the file's last transaction for one it may write in place, and writes into its read-only map. A real run against
 * `textstress serve` fills a cache; each of its pages is damaged in a copy, and the page check must find every one
 * LMDB reads; a page it does not find (a free page) must not crash LMDB writing as a run does. On one damaged copy,
 * verify, stats, a run and clear each run as a process of their own and must exit normally, naming the page, the
 * folder and the fix; clear removes the cache's two files (never opened) and nothing else.
 */
import type { ChildProcess } from 'node:child_process';
import { spawnSync } from 'node:child_process';
import { closeSync, cpSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processOf, resultsOf } from './run-output.ts';
import { checkCacheFile } from '../../src/query/cache-file.ts';
import { DEMO_SST2, ROOT, SST2_DEV, runCli, runCliProcess, servedUrl, startCliProcess, tmp } from '../cli/helpers.ts';

let server: ChildProcess;
let url: string;
let pristine: string;
let cleanResults: string;

const attack = (cacheDir: string, out: string): string[] => [
  'attack',
  'typos',
  '--model',
  url,
  '--data',
  SST2_DEV,
  '--limit',
  '12',
  '--k',
  '1',
  '--cache-dir',
  cacheDir,
  '--out',
  out,
  '--no-progress',
  '--json',
];

/** A copy of the pristine cache with page `page`'s txnid (header bytes 8–15) overwritten, as the fault pass did. */
function damagedCopy(page: number): string {
  const dir = tmp(`cache-txnid-${page}`);
  cpSync(pristine, dir, { recursive: true });
  const fd = openSync(join(dir, 'queries.lmdb'), 'r+');
  writeSync(fd, Buffer.from('ABCDEFGH'), 0, 8, page * 4096 + 8);
  closeSync(fd);
  return dir;
}

/** LMDB (the package, no check of ours) reading every entry and writing 300 new ones spread over the keys, as a run does. */
function lmdbWrites(dir: string): { status: number | null; signal: NodeJS.Signals | null } {
  const script = `
    import { open } from 'lmdb';
    const root = open({ path: ${JSON.stringify(join(dir, 'queries.lmdb'))}, maxDbs: 4, mapSize: 2 ** 30 });
    const answers = root.openDB({ name: 'answers', compression: true });
    const keys = [...answers.getKeys()];
    for (const k of keys) answers.get(k);
    for (let i = 0; i < 300; i++) answers.put(String(keys[(i * 7919) % keys.length]) + '-' + i, { kind: 'classes', labels: ['a'], probs: [1] });
    await answers.flushed;
    await root.close();`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 30_000 });
  return { status: r.status, signal: r.signal };
}

beforeAll(async () => {
  // A process: `serve` runs until a signal.
  server = startCliProcess(['serve', '--model', DEMO_SST2, '--port', '0']);
  url = await servedUrl(server);
  pristine = tmp('cache-header-pristine');
  const out = join(tmp('cache-header-clean'), 'run');
  const r = await runCli(attack(pristine, out));
  expect(r.code, r.stderr).toBe(0);
  cleanResults = resultsOf(out);
}, 90_000);

afterAll(() => {
  server?.kill();
});

describe('an overwritten page header in a sound cache (issue 35 item 2)', () => {
  /** Pages whose damage the check finds, in file order. */
  const found: number[] = [];

  it('the check finds the damaged txnid of every page LMDB reads; damage it misses (free pages) does not crash LMDB', () => {
    const pages = statSync(join(pristine, 'queries.lmdb')).size / 4096;
    expect(pages).toBeGreaterThan(40);
    const missed: number[] = [];
    for (let page = 2; page < pages; page++) {
      const dir = damagedCopy(page);
      const check = checkCacheFile(join(dir, 'queries.lmdb'));
      if (check.problem === undefined) missed.push(page);
      else {
        expect(check.problem).toBe(`page ${page} records transaction 5208208757389214273, later than the file's last (${txnid()})`);
        found.push(page);
      }
      rmSync(dir, { recursive: true });
    }
    // Every reachable page is checked (the metas' trees); what is left are pages on LMDB's free list.
    expect(found.length).toBe(checkCacheFile(join(pristine, 'queries.lmdb')).pages - 2);
    for (const page of missed) {
      const dir = damagedCopy(page);
      expect(lmdbWrites(dir), `page ${page}`).toEqual({ status: 0, signal: null });
      rmSync(dir, { recursive: true });
    }
  }, 120_000);

  it('verify and stats say corrupt, a run warns once and goes on without the cache, clear removes only its two files', async () => {
    // The issue's page 50 when LMDB reads it (the file's layout depends on how LMDB batched the run's writes), else
    // the last page it reads.
    const page = found.includes(50) || !found.length ? 50 : found.at(-1)!;
    const dir = damagedCopy(page);
    writeFileSync(join(dir, 'notes.txt'), 'mine\n');
    const corrupt = `the query cache in ${dir} is corrupt: page ${page} records transaction 5208208757389214273`;
    const fix = `Run "textstress cache clear --cache-dir ${dir}"`;
    const out = join(tmp('cache-header-run'), 'run');
    // Processes of their own: on main verify said "sound" (exit 0), the run and clear died of SIGSEGV (139).
    const [verify, stats, run] = await Promise.all([
      runCliProcess(['cache', 'verify', '--cache-dir', dir]),
      runCliProcess(['cache', 'stats', '--cache-dir', dir]),
      runCliProcess(attack(dir, out)),
    ]);
    for (const r of [verify, stats]) {
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toContain(`textstress: error: ${corrupt}`);
      expect(r.stderr).toContain(fix);
    }
    expect(run.code, run.stderr).toBe(0);
    const warnings = run.stderr.trim().split('\n');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.startsWith(`textstress: warning: ${corrupt}`)).toBe(true);
    expect(warnings[0]).toContain(fix);
    expect(processOf(run).disk_cache_hits).toBe(0);
    expect(resultsOf(out)).toBe(cleanResults);

    const clear = await runCliProcess(['cache', 'clear', '--cache-dir', dir]);
    expect(clear.code, clear.stderr).toBe(0);
    expect(clear.stdout).toMatch(
      /^The query cache in .+ was corrupt \(page \d+ records transaction \d+, later than the file's last \(\d+\)\): removed queries\.lmdb and queries\.lmdb-lock; the next run starts a new cache\.\n$/,
    );
    expect(readdirSync(dir)).toEqual(['notes.txt']);
  }, 120_000);

  it('clear removes any file by that name without opening it (here one that is not LMDB at all), and nothing beside it', async () => {
    const dir = tmp('cache-not-lmdb');
    writeFileSync(join(dir, 'queries.lmdb'), 'a text file, not a database\n'.repeat(400));
    writeFileSync(join(dir, 'other.lmdb'), 'not named');
    const clear = await runCliProcess(['cache', 'clear', '--cache-dir', dir]);
    expect(clear.code, clear.stderr).toBe(0);
    expect(clear.stdout).toMatch(/was corrupt \(meta page 0 has no LMDB magic number \(0xBEEFC0DE\)\): removed queries\.lmdb;/);
    expect(readdirSync(dir)).toEqual(['other.lmdb']);
  });
});

/** The txnid the pristine cache's newer meta records. */
function txnid(): bigint {
  const b = readFileSync(join(pristine, 'queries.lmdb'));
  const t0 = b.readBigUInt64LE(152);
  const t1 = b.readBigUInt64LE(4096 + 152);
  return t0 > t1 ? t0 : t1;
}
