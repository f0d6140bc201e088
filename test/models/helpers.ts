import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const SEQ = path.join(ROOT, 'test/fixtures/models/tiny-bert-seq');
export const TOK = path.join(ROOT, 'test/fixtures/models/tiny-bert-tok');
/** Rule-based QA model written by test/models/fixtures/make_tiny_qa.py (no token_type_ids input). */
export const QA = path.join(ROOT, 'test/models/fixtures/tiny-qa');
/** Random-weight BertForQuestionAnswering written by scripts/fixtures/make_tiny_qa.py (mechanics tests only). */
export const QA_BERT = path.join(ROOT, 'test/fixtures/models/tiny-bert-qa');

export interface Reference {
  input_ids: number[][];
  attention_mask: number[][];
  output: string;
  logits: number[][] | number[][][];
}

export function reference(dir: string): Reference {
  return JSON.parse(readFileSync(path.join(dir, 'reference.json'), 'utf8')) as Reference;
}

export function vocab(dir: string): string[] {
  return readFileSync(path.join(dir, 'vocab.txt'), 'utf8').split('\n');
}

export function softmax(xs: number[]): number[] {
  const m = Math.max(...xs);
  const e = xs.map((x) => Math.exp(x - m));
  const s = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / s);
}

export function expectClose(actual: unknown, expected: unknown, tol = 1e-4, where = ''): void {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) {
      throw new Error(`${where}: expected a list of ${expected.length}, got ${JSON.stringify(actual)}`);
    }
    expected.forEach((e, i) => expectClose(actual[i], e, tol, `${where}[${i}]`));
    return;
  }
  if (typeof actual !== 'number' || typeof expected !== 'number' || Math.abs(actual - expected) > tol) {
    throw new Error(`${where}: ${String(actual)} is not within ${tol} of ${String(expected)}`);
  }
}

export interface TestServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** A plain node:http server on 127.0.0.1, port 0, for scripted endpoint behaviour. */
export async function startTestServer(
  handler: (req: IncomingMessage, res: ServerResponse, body: string) => void | Promise<void>,
): Promise<TestServer> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void Promise.resolve(handler(req, res, Buffer.concat(chunks).toString('utf8'))).catch((err: unknown) => {
        res.writeHead(599);
        res.end(String(err));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** Catches the rejection of a promise (fails if it resolves). */
export async function rejection(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected a rejection, but the promise resolved');
}
