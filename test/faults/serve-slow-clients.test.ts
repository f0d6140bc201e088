/**
 * Issue 25, item 9: clients that send half a body and stall, or abandon their request, must not keep `serve`'s
 * request slots (it answered 503 for ~90 s). Against a real `textstress serve` process on demo-sst2.
 */
import type { ChildProcess } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_SST2, freePort, servedUrl, startCliProcess } from '../cli/helpers.ts';

const children: ChildProcess[] = [];
const sockets: Socket[] = [];
afterEach(() => {
  for (const s of sockets.splice(0)) s.destroy();
  for (const c of children.splice(0)) c.kill('SIGTERM');
});

async function serve(extra: string[] = []): Promise<string> {
  const child = startCliProcess(['serve', '--model', DEMO_SST2, '--port', String(await freePort()), ...extra]);
  children.push(child);
  return servedUrl(child);
}

const BODY = JSON.stringify({ inputs: [{ kind: 'text', text: 'a fine film' }] });

/** A raw POST /predict: the headers and the first `sent` bytes of the body; resolves with the socket once written. */
async function partial(url: string, sent: number, body = BODY): Promise<{ socket: Socket; answer: Promise<string> }> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  sockets.push(socket);
  await new Promise<void>((r) => socket.once('connect', () => r()));
  let text = '';
  const answer = new Promise<string>((resolve) => {
    socket.on('data', (d: Buffer) => (text += d.toString()));
    socket.on('close', () => resolve(text));
    socket.on('error', () => resolve(text));
  });
  socket.write(
    `POST /predict HTTP/1.1\r\nHost: ${hostname}:${port}\r\ncontent-type: application/json\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, sent)}`,
  );
  return { socket, answer };
}

/** A normal client: POST /predict, honouring 503 + retry-after; the statuses it saw and the time to its answer. */
async function normal(url: string): Promise<{ statuses: number[]; ms: number }> {
  const t0 = performance.now();
  const statuses: number[] = [];
  for (;;) {
    const res = await fetch(`${url}/predict`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: BODY });
    await res.text();
    statuses.push(res.status);
    if (res.status !== 503 || statuses.length > 20) return { statuses, ms: performance.now() - t0 };
    await new Promise((r) => setTimeout(r, Number(res.headers.get('retry-after') ?? '1') * 1000));
  }
}

describe('serve under slow and abandoning clients', () => {
  it('8 clients that send half a body and stall get 408 within seconds, and a normal client gets its answer', async () => {
    const url = await serve();
    const stalled = await Promise.all(Array.from({ length: 8 }, () => partial(url, Math.floor(BODY.length / 2))));
    // Stalled bodies hold no request slot (issue 35): a normal client is answered at once.
    const { statuses, ms } = await normal(url);
    expect(statuses).toEqual([200]);
    expect(ms).toBeLessThan(2000);
    const answers = await Promise.all(stalled.map((s) => s.answer));
    for (const a of answers) {
      expect(a).toMatch(/^HTTP\/1\.1 408 /);
      expect(a).toContain('no part of the request body arrived for 3000 ms');
    }
  }, 45_000);

  it('a request its client abandoned frees its slot at once: no 503 for the next client', async () => {
    // Each answer waits 3 s: the 8 abandoned requests would hold every slot for that long.
    const url = await serve(['--latency-ms', '3000']);
    const abandoned = await Promise.all(Array.from({ length: 8 }, () => partial(url, BODY.length)));
    await new Promise((r) => setTimeout(r, 300));
    for (const a of abandoned) a.socket.destroy();
    await new Promise((r) => setTimeout(r, 300));
    const { statuses, ms } = await normal(url);
    expect(statuses).toEqual([200]);
    expect(ms).toBeGreaterThanOrEqual(2900);
    expect(ms).toBeLessThan(6000);
  }, 45_000);
});

/** A client that posts its body 1 byte per second for as long as the server takes it; reconnects when cut off. */
function trickler(url: string, stop: AbortSignal): Promise<number> {
  const { hostname, port } = new URL(url);
  let cutOff = 0;
  const once = (): Promise<void> =>
    new Promise((resolve) => {
      const socket = connect(Number(port), hostname);
      sockets.push(socket);
      let timer: NodeJS.Timeout | undefined;
      let sent = 0;
      const end = (): void => {
        clearInterval(timer);
        socket.destroy();
        resolve();
      };
      socket.once('connect', () => {
        socket.write(
          `POST /predict HTTP/1.1\r\nHost: ${hostname}:${port}\r\ncontent-type: application/json\r\n` +
            `content-length: ${Buffer.byteLength(BODY)}\r\n\r\n`,
        );
        timer = setInterval(() => {
          if (stop.aborted) return end();
          socket.write(BODY[sent++ % BODY.length]!);
        }, 1000);
      });
      socket.on('data', () => cutOff++);
      socket.on('close', end);
      socket.on('error', end);
      stop.addEventListener('abort', end);
    });
  return (async () => {
    while (!stop.aborted) await once();
    return cutOff;
  })();
}

describe('serve under 20 clients posting 1 byte/s (issue 35 item 6)', () => {
  it('normal /predict requests are answered within seconds, the slow clients reconnecting all the while', async () => {
    const url = await serve();
    const stop = new AbortController();
    const slow = Array.from({ length: 20 }, () => trickler(url, stop.signal));
    try {
      await new Promise((r) => setTimeout(r, 1500));
      // Ten normal requests, one a second, over the slow clients' first cut-off (after 3 s) and their reconnects.
      const times: number[] = [];
      for (let i = 0; i < 10; i++) {
        const { statuses, ms } = await normal(url);
        expect(statuses).toEqual([200]);
        times.push(ms);
        await new Promise((r) => setTimeout(r, 1000));
      }
      // Was: 503 for ~30 s, indefinitely with reconnects (the slow bodies held all 8 slots).
      if (process.env.TEXTSTRESS_FIGURES) console.log(`normal /predict under 20 slow clients, ms: ${times.map(Math.round).join(' ')}`);
      expect(Math.max(...times)).toBeLessThan(2000);
    } finally {
      stop.abort();
    }
    // The slow clients were cut off (408) and came back, at least once each.
    expect((await Promise.all(slow)).filter((n) => n > 0).length).toBe(20);
  }, 60_000);
});
