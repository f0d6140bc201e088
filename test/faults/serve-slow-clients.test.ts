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
    // Every slot (8, the default) now holds a stalled body.
    const first = await fetch(`${url}/predict`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: BODY });
    await first.text();
    expect(first.status).toBe(503);
    const { statuses, ms } = await normal(url);
    expect(statuses.at(-1)).toBe(200);
    // The stalled bodies are given up after 3 s without a byte (was: 503 for ~90 s).
    expect(ms).toBeLessThan(7000);
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
