/**
 * A stand-in for the Hugging Face hub on 127.0.0.1, in the hub's URL layout: the parquet listing API, the
 * file URLs it lists (which redirect, as on the hub, to a `resolve` URL on refs/convert/parquet, which
 * redirects to a CDN), and the CDN itself on another port (another origin, where no token may go).
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeDataset {
  /** config → split → parquet files */
  configs: Record<string, Record<string, Uint8Array[]>>;
  /** Private or gated: only requests with this token get in (401 otherwise, as on the hub). */
  token?: string;
}

export interface LoggedRequest {
  server: 'hub' | 'cdn';
  method: string;
  path: string;
  authorization?: string;
}

export interface FakeHub {
  /** What HF_ENDPOINT is set to. */
  url: string;
  cdnUrl: string;
  requests: LoggedRequest[];
  /** While true, the CDN sends half of each file (with the full Content-Length) and drops the connection. */
  interrupt: boolean;
  close(): Promise<void>;
}

const sha256 = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ server: Server; url: string }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

async function stop(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

export async function startFakeHub(datasets: Record<string, FakeDataset>): Promise<FakeHub> {
  const blobs = new Map<string, Uint8Array>();
  for (const ds of Object.values(datasets)) {
    for (const splits of Object.values(ds.configs))
      for (const files of Object.values(splits)) for (const f of files) blobs.set(sha256(f), f);
  }
  const requests: LoggedRequest[] = [];
  const log = (server: 'hub' | 'cdn', req: IncomingMessage): void => {
    requests.push({
      server,
      method: req.method ?? '',
      path: req.url ?? '',
      ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}),
    });
  };

  const cdn = await listen((req, res) => {
    log('cdn', req);
    const m = /^\/blobs\/([0-9a-f]{64})$/.exec(req.url ?? '');
    const body = m ? blobs.get(m[1]!) : undefined;
    if (!body) return json(res, 404, { error: 'no such blob' });
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': body.byteLength, etag: `"${m![1]}"` });
    if (req.method === 'HEAD') return res.end();
    if (hub.interrupt) {
      res.write(body.subarray(0, Math.floor(body.byteLength / 2)));
      setTimeout(() => res.destroy(), 20);
      return;
    }
    res.end(body);
  });

  const hubServer = await listen((req, res) => {
    log('hub', req);
    const path = (req.url ?? '').split('?')[0]!;
    const parts = path.split('/').slice(1).map(decodeURIComponent);
    // /api/datasets/{owner}/{name}/parquet[/{config}/{split}[/{n}.parquet]]
    // /datasets/{owner}/{name}/resolve/refs/convert/parquet/{config}/{split}/{nnnn}.parquet
    const api = parts[0] === 'api' && parts[1] === 'datasets' && parts[4] === 'parquet';
    const resolve = parts[0] === 'datasets' && parts[3] === 'resolve' && parts[4] === 'refs/convert/parquet';
    if (!api && !resolve) return json(res, 404, { error: 'Not Found' });
    const repo = api ? `${parts[2]}/${parts[3]}` : `${parts[1]}/${parts[2]}`;
    const ds = datasets[repo];
    if (!ds) return json(res, 404, { error: 'Repository not found' });
    if (ds.token !== undefined && req.headers.authorization !== `Bearer ${ds.token}`) {
      return json(res, 401, { error: 'Invalid credentials in Authorization header' });
    }
    const rest = parts.slice(5);
    const fileUrl = (config: string, split: string, i: number): string =>
      `${hub.url}/api/datasets/${repo}/parquet/${encodeURIComponent(config)}/${encodeURIComponent(split)}/${i}.parquet`;
    if (api && rest.length === 0) {
      const listing = Object.fromEntries(
        Object.entries(ds.configs).map(([c, splits]) => [
          c,
          Object.fromEntries(Object.entries(splits).map(([s, files]) => [s, files.map((_, i) => fileUrl(c, s, i))])),
        ]),
      );
      return json(res, 200, listing);
    }
    const [config, split, file] = rest as [string, string, string | undefined];
    const files = ds.configs[config]?.[split];
    if (!files) return json(res, 404, { error: `Config or split not found: ${config}/${split}` });
    if (api && file === undefined)
      return json(
        res,
        200,
        files.map((_, i) => fileUrl(config, split, i)),
      );
    const n = Number(/^(\d+)\.parquet$/.exec(file ?? '')?.[1] ?? NaN);
    const body = files[n];
    if (!body) return json(res, 404, { error: 'Entry not found' });
    if (api) {
      // As on the hub: a relative redirect to the file on the parquet conversion branch.
      res.writeHead(302, {
        location: `/datasets/${repo}/resolve/refs%2Fconvert%2Fparquet/${config}/${split}/${String(n).padStart(4, '0')}.parquet`,
      });
      return res.end();
    }
    const sha = sha256(body);
    res.writeHead(302, {
      location: `${hub.cdnUrl}/blobs/${sha}`,
      'x-linked-etag': `"${sha}"`,
      'x-linked-size': String(body.byteLength),
      'x-repo-commit': 'a'.repeat(40),
    });
    res.end();
  });

  const hub: FakeHub = {
    url: hubServer.url,
    cdnUrl: cdn.url,
    requests,
    interrupt: false,
    async close() {
      await Promise.all([stop(hubServer.server), stop(cdn.server)]);
    },
  };
  return hub;
}
