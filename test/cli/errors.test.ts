import { cpSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SST2, ROOT, expectCleanError, runCli, tmp } from './helpers.ts';

const FIX = join(ROOT, 'test', 'fixtures', 'data');
const attack = (data: string, out: string, extra: string[] = []): string[] => [
  'attack',
  'typos',
  '--model',
  DEMO_SST2,
  '--data',
  data,
  '--out',
  out,
  '--no-progress',
  ...extra,
];

describe('bad input gives one clear paragraph, no stack trace, no summary', () => {
  it('a TSV row missing a column names the file and line', async () => {
    const out = tmp('err-tsv');
    const r = await runCli(attack(join(FIX, 'sst2-missing-column.tsv'), out));
    const msg = expectCleanError(r);
    expect(msg).toMatch(/sst2-missing-column\.tsv:\d+/);
    expect(existsSync(join(out, 'summary.json'))).toBe(false);
  });

  it('a JSON syntax error names the file and line', async () => {
    const r = await runCli(attack(join(FIX, 'squad-syntax-error.json'), tmp('err-json')));
    expect(expectCleanError(r)).toMatch(/squad-syntax-error\.json:\d+/);
  });

  it('an empty sentence and a 100,000-character text are refused with their line', async () => {
    const dir = tmp('err-text');
    const empty = join(dir, 'empty.tsv');
    writeFileSync(empty, 'sentence\tlabel\na fine film .\t1\n   \t0\n');
    expect(expectCleanError(await runCli(attack(empty, join(dir, 'o1'))))).toMatch(/empty\.tsv:3.*empty/);
    const huge = join(dir, 'huge.tsv');
    writeFileSync(huge, `sentence\tlabel\n${'word '.repeat(19_999)}word.\t1\n`);
    expect(expectCleanError(await runCli(attack(huge, join(dir, 'o2'))))).toMatch(/huge\.tsv:2.*100000 characters/);
  });

  it('a model folder without tokenizer.json says so', async () => {
    const dir = tmp('err-model');
    const model = join(dir, 'no-tokenizer');
    cpSync(DEMO_SST2, model, { recursive: true });
    rmSync(join(model, 'tokenizer.json'));
    const r = await runCli(attack(join(ROOT, 'demo', 'reviews.tsv'), join(dir, 'out')).map((a) => (a === DEMO_SST2 ? model : a)));
    expect(expectCleanError(r)).toMatch(/tokenizer\.json/);
  });

  it('an unknown recipe or option is a usage error', async () => {
    const r = await runCli(['attack', 'nonsense', '--model', DEMO_SST2, '--data', 'x']);
    expect(expectCleanError(r)).toMatch(/unknown recipe "nonsense"/);
    const u = await runCli(['attack', 'typos', '--model', DEMO_SST2, '--data', 'x', '--target', 'middle']);
    expect(u.code).not.toBe(0);
    expect(u.stderr).toMatch(/--target/);
  });

  describe('an endpoint that answers 500 and then times out', () => {
    let server: Server;
    let url = '';
    let calls = 0;
    beforeAll(async () => {
      server = createServer((req, res) => {
        if (req.url === '/info') {
          res.setHeader('content-type', 'application/json');
          res.end(JSON.stringify({ task: 'text-classification', labels: ['negative', 'positive'] }));
          return;
        }
        calls++;
        if (calls === 1) {
          res.statusCode = 500;
          res.end('{"error":"model crashed"}');
        }
        // later calls: never answer (the client must time out)
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(() => {
      server.closeAllConnections();
      server.close();
    });

    it('stops with the cause, keeps no partial summary, and tells how to resume', async () => {
      const out = tmp('err-http');
      mkdirSync(out, { recursive: true });
      const r = await runCli(
        [
          'attack',
          'typos',
          '--model',
          url,
          '--data',
          join(ROOT, 'demo', 'reviews.tsv'),
          '--out',
          out,
          '--timeout',
          '1500', // ms: long enough that a busy CI machine still answers /info and the 500 in time
          '--retries',
          '2',
          '--no-progress',
          '--auth-env',
          'TS_TEST_TOKEN',
        ],
        { TS_TEST_TOKEN: 'Bearer s3cret-token' },
      );
      const msg = expectCleanError(r);
      expect(msg).toMatch(/500/);
      expect(msg).toMatch(/timed out/);
      expect(msg).toMatch(/--resume/);
      expect(r.stderr).not.toContain('s3cret-token');
      expect(existsSync(join(out, 'summary.json'))).toBe(false);
    });
  });
});
