/**
 * Issue 25 item 3: a corrupted query cache crashed the process (truncated file: SIGBUS, exit 135; zeroed first 8 KB:
 * SIGSEGV, 139; overwritten pages: MDB_CORRUPTED naming neither the path nor a fix), `cache stats` and `cache clear`
 * too. A real run against `textstress serve` fills a cache; copies of it are damaged the three ways, and `cache
 * stats`, `cache verify`, a run and `cache clear` each run as a process of its own (a crash signal would kill this
 * one), must exit normally, and name the folder and the fix; after `cache clear` a run fills the cache again.
 */
import type { ChildProcess } from 'node:child_process';
import { cpSync, closeSync, existsSync, openSync, readdirSync, statSync, truncateSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { open } from 'lmdb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processOf, resultsOf } from './run-output.ts';
import { checkCacheFile } from '../../src/query/cache-file.ts';
import { DEMO_SST2, SST2_DEV, runCli, runCliProcess, servedUrl, startCliProcess, tmp } from '../cli/helpers.ts';

let server: ChildProcess;
let url: string;
/** The cache a real run filled, copied before each damage. */
let pristine: string;
/** What the clean run concluded, for comparing runs without (or with a new) cache. */
let cleanResults: string;

const attack = (cacheDir: string, out: string): string[] => [
  'attack',
  'typos',
  '--model',
  url,
  '--data',
  SST2_DEV,
  '--limit',
  '2',
  '--k',
  '1',
  '--cache-dir',
  cacheDir,
  '--out',
  out,
  '--no-progress',
  '--json',
];

const DAMAGE: Record<string, { damage: (file: string) => void; problem: RegExp }> = {
  truncated: {
    damage: (file) => truncateSync(file, Math.floor(statSync(file).size / 2)),
    problem: /the file is truncated: \d+ bytes where its meta page records \d+/,
  },
  'first 8 KB zeroed': {
    damage: (file) => {
      const fd = openSync(file, 'r+');
      writeSync(fd, Buffer.alloc(8192), 0, 8192, 0);
      closeSync(fd);
    },
    problem: /meta page 0 has no LMDB magic number \(0xBEEFC0DE\)/,
  },
  'pages overwritten in the middle': {
    damage: (file) => {
      // Every page between the metas and the last one overwritten with a fixed pseudo-random pattern (fixed: the test
      // is exact); the databases' roots are distinct pages, so at least three of them are hit.
      const pages = statSync(file).size / 4096;
      const from = 2;
      const junk = Buffer.alloc((pages - 1 - from) * 4096);
      for (let i = 0, x = 2463534242; i < junk.length; i++) {
        x ^= x << 13;
        x ^= x >>> 17;
        x ^= x << 5;
        junk[i] = x & 0xff;
      }
      const fd = openSync(file, 'r+');
      writeSync(fd, junk, 0, junk.length, from * 4096);
      closeSync(fd);
    },
    problem: /page \d+ is overwritten \(its header says page \d+\)/,
  },
};

beforeAll(async () => {
  // A process: `serve` runs until a signal.
  server = startCliProcess(['serve', '--model', DEMO_SST2, '--port', '0']);
  url = await servedUrl(server);
  pristine = tmp('cache-pristine');
  const out = join(tmp('cache-clean-run'), 'run');
  const r = await runCli(attack(pristine, out));
  expect(r.code, r.stderr).toBe(0);
  expect(processOf(r).model_inferences).toBeGreaterThan(0);
  cleanResults = resultsOf(out);
  expect(readdirSync(pristine).sort()).toEqual(['queries.lmdb', 'queries.lmdb-lock']);
}, 90_000);

afterAll(() => {
  server?.kill();
});

describe('a corrupted query cache (issue 25 item 3)', () => {
  it('the real cache is sound page by page, and cache verify says so', async () => {
    const check = checkCacheFile(join(pristine, 'queries.lmdb'));
    expect(check.problem).toBeUndefined();
    expect(check.pages).toBeGreaterThan(4);
    const r = await runCli(['cache', 'verify', '--cache-dir', pristine, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const v = JSON.parse(r.stdout) as { ok: boolean; entries: number; pages: number };
    expect(v.ok).toBe(true);
    expect(v.pages).toBe(check.pages);
    expect(v.entries).toBeGreaterThan(0);
  });

  for (const [how, { damage, problem }] of Object.entries(DAMAGE)) {
    it(`${how}: stats, verify and a run exit normally naming the folder and the fix; clear recovers it`, async () => {
      const dir = tmp('cache-damaged');
      cpSync(pristine, dir, { recursive: true });
      // A file the cache does not own: clear must leave it.
      writeFileSync(join(dir, 'notes.txt'), 'mine\n');
      damage(join(dir, 'queries.lmdb'));
      const fix = `Run "textstress cache clear --cache-dir ${dir}"`;
      const corrupt = `the query cache in ${dir} is corrupt: `;

      // Processes of their own: before the fix these died of SIGBUS (exit 135) or SIGSEGV (139).
      // (At once: none of them writes to a corrupt cache.)
      const out = join(tmp('cache-run'), 'run');
      const [stats, verify, run] = await Promise.all([
        runCliProcess(['cache', 'stats', '--cache-dir', dir]),
        runCliProcess(['cache', 'verify', '--cache-dir', dir]),
        runCliProcess(attack(dir, out)),
      ]);
      for (const r of [stats, verify]) {
        expect(r.code, r.stderr).toBe(1);
        const lines = r.stderr.trim().split('\n');
        expect(lines).toHaveLength(1);
        expect(lines[0]).toMatch(problem);
        expect(lines[0]!.startsWith(`textstress: error: ${corrupt}`)).toBe(true);
        expect(lines[0]).toContain(fix);
      }

      expect(run.code, run.stderr).toBe(0);
      const warnings = run.stderr.trim().split('\n');
      expect(warnings).toHaveLength(1);
      expect(warnings[0]!.startsWith(`textstress: warning: ${corrupt}`)).toBe(true);
      expect(warnings[0]).toContain(fix);
      expect(warnings[0]!.endsWith('Going on without the cache.')).toBe(true);
      expect(processOf(run).disk_cache_hits).toBe(0);
      expect(resultsOf(out)).toBe(cleanResults);

      const clear = await runCliProcess(['cache', 'clear', '--cache-dir', dir]);
      expect(clear.code, clear.stderr).toBe(0);
      expect(clear.stderr).toBe('');
      expect(clear.stdout).toMatch(
        new RegExp(
          `^The query cache in ${dir} was corrupt \\(.+\\): removed queries\\.lmdb and queries\\.lmdb-lock; the next run starts a new cache\\.\\n$`,
        ),
      );
      expect(readdirSync(dir)).toEqual(['notes.txt']);

      // Recovered: a run fills a new cache, the next is answered from it, and verify finds it sound.
      const again = await runCli(attack(dir, join(tmp('cache-again'), 'run')));
      expect(again.code, again.stderr).toBe(0);
      expect(again.stderr).not.toMatch(/corrupt|warning/);
      expect(processOf(again).model_inferences).toBeGreaterThan(0);
      const third = await runCli(attack(dir, join(tmp('cache-third'), 'run')));
      expect(processOf(third)).toMatchObject({ model_inferences: 0, disk_cache_hits: processOf(again).model_inferences });
      const ok = await runCli(['cache', 'verify', '--cache-dir', dir]);
      expect(ok.code, ok.stderr).toBe(0);
      expect(ok.stdout).toMatch(new RegExp(`^The query cache in ${dir} is sound: [1-9]\\d* answers, \\d+ pages checked`));
      expect(existsSync(join(dir, 'notes.txt'))).toBe(true);
    }, 120_000);
  }

  it('answers LMDB cannot decode: a run warns once and goes on asking the model, verify fails, clear removes it', async () => {
    const dir = tmp('cache-bad-values');
    cpSync(pristine, dir, { recursive: true });
    // Every stored answer replaced by a byte MessagePack never starts a value with (0xC1): the pages stay sound,
    // so only LMDB's reads can tell; this is the path of an MDB_CORRUPTED met while a run reads or writes.
    const root = open({ path: join(dir, 'queries.lmdb'), maxDbs: 4, mapSize: 2 ** 30 });
    const answers = root.openDB<Buffer, string>({ name: 'answers', encoding: 'binary' });
    let smashed = 0;
    await answers.transaction(() => {
      for (const key of answers.getKeys()) {
        void answers.put(key, Buffer.from([0xc1]));
        smashed++;
      }
    });
    await root.close();
    expect(smashed).toBeGreaterThan(0);
    expect(checkCacheFile(join(dir, 'queries.lmdb')).problem).toBeUndefined();

    const out = join(tmp('cache-bad-values-run'), 'run');
    const run = await runCli(attack(dir, out));
    expect(run.code, run.stderr).toBe(0);
    const warnings = run.stderr.trim().split('\n');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      new RegExp(`^textstress: warning: the query cache in ${dir} is corrupt: .+\\. Run "textstress cache clear`),
    );
    expect(warnings[0]!.endsWith('Going on without the cache.')).toBe(true);
    expect(resultsOf(out)).toBe(cleanResults);

    const verify = await runCli(['cache', 'verify', '--cache-dir', dir]);
    expect(verify.code).toBe(1);
    expect(verify.stderr).toMatch(
      new RegExp(`^textstress: error: the query cache in ${dir} is corrupt: .+\\. Run "textstress cache clear`),
    );
    const clear = await runCli(['cache', 'clear', '--cache-dir', dir]);
    expect(clear.code, clear.stderr).toBe(0);
    expect(clear.stdout).toBe(`Removed ${smashed} answers from ${dir}.\n`);
    const ok = await runCli(['cache', 'verify', '--cache-dir', dir]);
    // clear removes the cache's files (issue 35: it never opens them with LMDB).
    expect(ok.stdout).toBe(`The query cache in ${dir} is empty (no file yet): nothing to verify.\n`);
  }, 60_000);
});
