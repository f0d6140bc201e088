/**
 * Issue 35 (also fix): a server that is not Redis on the queue URL printed ioredis's parser text ("Protocol error,
 * got "H" as reply type byte. Please report this."), and one that accepts the connection and never answers held the
 * command for ever. Real processes against a real HTTP server and a real silent TCP server.
 */
import { createServer as createHttpServer } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { runCliProcess, tmp, typosOnSst2 } from '../cli/helpers.ts';

const servers: Server[] = [];
async function listen(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return `redis://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
afterAll(() => {
  for (const s of servers) s.close();
});

describe('a queue URL that is not a Redis server (issue 35)', () => {
  it('an HTTP server, and one that never answers: attack --queue and worker exit 1 in seconds, saying so, no ioredis text', async () => {
    const http = await listen(createHttpServer((_req, res) => res.end('hello')));
    const sockets: import('node:net').Socket[] = [];
    const silent = await listen(createTcpServer((s) => void sockets.push(s)));
    for (const [url, why] of [
      [http, /it answered in another protocol \(an HTTP server, say\)/],
      [silent, /it accepted the connection but did not answer within 5 s/],
    ] as const) {
      for (const args of [
        [...typosOnSst2('--limit', '4', '--out', tmp('q-not-redis'), '--no-progress'), '--queue', url],
        ['worker', '--queue', url],
      ]) {
        const t0 = Date.now();
        const r = await runCliProcess(args);
        expect(Date.now() - t0).toBeLessThan(20_000);
        expect(r.code, r.stderr).toBe(1);
        expect(r.stderr).toContain(`the queue URL ${url} is not a Redis server`);
        expect(r.stderr).toMatch(why);
        expect(r.stderr).not.toMatch(/Please report this|Protocol error|\n\s+at /);
      }
    }
    for (const s of sockets) s.destroy();
  }, 120_000);
});
