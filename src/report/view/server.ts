/**
 * `textstress view`: a local web app over run folders. It listens on loopback only, answers only requests whose
 * Host header names it (a DNS-rebinding guard), sends no CORS headers, and its page loads nothing from the network:
 * the script and stylesheet ship in the package and are inlined.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { hostPolicy, type HostPolicy } from '../../models/serve.ts';
import { figureDisplays, settingLabelsOf, type Registry } from '../../recipes/registry/registry.ts';
import { loadGroups } from '../html/load.ts';
import { renderReport } from '../html/render.ts';
import { escapeHtml, jsonForScript } from '../html/escape.ts';
import { withoutAbsolutePaths } from '../html/paths.ts';
import { scanRuns, type CatalogEntry } from './catalog.ts';
import { historyOf, historyChart } from './history.ts';
import { budgetComparisonSvg, forDisplay, type Comparison } from '../compare/index.ts';

/**
 * Most examples a run's report carries when `view` serves it: fewer than a written report's
 * (BROWSER_MAX_EXAMPLES), since the server loads and renders the report again on each request.
 */
export const VIEW_MAX_EXAMPLES = 1000;

export interface ViewOptions {
  /** Run folders (or folders holding runs). */
  roots: readonly string[];
  port?: number;
  /** Loopback address to bind: 127.0.0.1 (default) or ::1. */
  host?: '127.0.0.1' | '::1';
  registry?: Registry;
  /** Most examples a run's report carries in its example browser (default VIEW_MAX_EXAMPLES). */
  maxExamples?: number;
  /** Compares two run folders (the same computation as `textstress compare`); absent: the comparison is not offered. */
  compare?: (a: string, b: string) => Promise<Comparison>;
}

export interface ViewServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

const ASSETS = ['./compare-view.client.js', './app.client.js', './view.css'] as const;
const [COMPARE_SCRIPT, APP_SCRIPT, STYLE] = ASSETS.map((f) => readFileSync(new URL(f, import.meta.url), 'utf8')) as [
  string,
  string,
  string,
];
const SCRIPT = `${COMPARE_SCRIPT}\n${APP_SCRIPT}`;

/** Nothing but this origin: the page and the reports it frames run with no network beyond the view server. */
const CSP = [
  "default-src 'none'",
  "script-src 'unsafe-inline'",
  "style-src 'unsafe-inline'",
  'img-src data:',
  "connect-src 'self'",
  "frame-src 'self'",
  "frame-ancestors 'self'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Starts the view server; resolves once it listens. */
export async function startViewServer(opts: ViewOptions): Promise<ViewServer> {
  const host = opts.host ?? '127.0.0.1';
  let policy: HostPolicy | undefined;
  const server: Server = createServer((req, res) => {
    if (!policy?.accepts(req.headers.host))
      return send(res, 403, 'text/plain', 'textstress view: this Host is not allowed (open the URL it printed)\n');
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'text/plain', 'only GET\n');
    handle(req, res, opts).catch((err: unknown) => {
      const status = err instanceof HttpError ? err.status : 500;
      const message = err instanceof Error ? err.message : String(err);
      if (!res.headersSent) send(res, status, 'application/json', JSON.stringify({ error: message }));
      else res.end();
    });
  });
  // A client that stops reading cannot hold a socket for long.
  server.headersTimeout = 10_000;
  server.requestTimeout = 120_000;
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(opts.port ?? 0, host, () => ok());
  });
  const addr = server.address() as AddressInfo;
  policy = hostPolicy(addr.address, addr.port, host);
  const shown = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  return {
    url: `http://${shown}:${addr.port}`,
    port: addr.port,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, {
    'content-type': `${type}; charset=utf-8`,
    'content-security-policy': CSP,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
  });
  res.end(body);
}

async function handle(req: IncomingMessage, res: ServerResponse, opts: ViewOptions): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://view.invalid');
  const q = (name: string): string => {
    const v = url.searchParams.get(name);
    if (!v) throw new HttpError(400, `missing ?${name}=`);
    return v;
  };
  switch (url.pathname) {
    case '/':
      return send(res, 200, 'text/html', page(opts));
    case '/api/runs': {
      const { runs, problems } = scan(opts);
      return send(res, 200, 'application/json', JSON.stringify({ roots: opts.roots, runs, problems, compare: !!opts.compare }));
    }
    case '/run': {
      const run = findRun(opts, q('id'));
      const sample = { sampleSize: opts.maxExamples ?? VIEW_MAX_EXAMPLES, ...(opts.registry ? { registry: opts.registry } : {}) };
      const groups = await loadGroups([runDir(run)], sample);
      const html = await renderReport(groups, {
        title: `${run.recipe} · ${run.model}${run.data ? ` · ${run.data}` : ''}`,
        maxExamples: sample.sampleSize,
        ...(opts.registry ? { registry: opts.registry } : {}),
      });
      return send(res, 200, 'text/html', html);
    }
    case '/api/history': {
      const { runs } = scan(opts);
      const points = historyOf(runs, q('model'), q('metric'));
      return send(res, 200, 'application/json', JSON.stringify({ points, svg: points.length ? await historyChart(points) : null }));
    }
    case '/api/compare': {
      if (!opts.compare) throw new HttpError(404, 'comparison is not available in this build');
      const a = findRun(opts, q('a'));
      const b = findRun(opts, q('b'));
      let comparison: Comparison;
      try {
        // Named as the page names the runs (folder under its root), never by the absolute path they were read from.
        comparison = forDisplay(await opts.compare(runDir(a), runDir(b)), [shownDir(a), shownDir(b)]);
      } catch (err) {
        // Runs that cannot be compared (different examples, another kind of run): the reason, as compare gives it.
        throw new HttpError(409, err instanceof Error ? err.message : String(err));
      }
      // The query-budget chart is drawn here (vega, in Node) for the page to show beside the comparison's table.
      const svg = await budgetComparisonSvg(comparison as Comparison);
      return send(res, 200, 'application/json', JSON.stringify(svg ? { ...(comparison as object), query_budget_svg: svg } : comparison));
    }
    default:
      throw new HttpError(404, `no page ${url.pathname}`);
  }
}

/** The runs under the roots, with the registry's labels and units for recipes' own figures. */
const scan = (opts: ViewOptions): ReturnType<typeof scanRuns> => {
  const reg = opts.registry;
  return scanRuns(opts.roots, reg ? { metrics: figureDisplays(reg), settingLabels: (recipe) => settingLabelsOf(reg, recipe) } : {});
};

/** A run's folder as the page shows it: its root as given and its path below it, no absolute path. */
const shownDir = (run: CatalogEntry): string =>
  withoutAbsolutePaths(run.path === '.' ? run.root : `${run.root.replace(/\/+$/, '')}/${run.path}`);

/** The run an id names, looked up in a fresh scan (an id from the page is never used as a path itself). */
function findRun(opts: ViewOptions, id: string): CatalogEntry {
  const run = scan(opts).runs.find((r) => r.id === id);
  if (!run) throw new HttpError(404, `no run ${id} under ${opts.roots.join(', ')}`);
  return run;
}

const runDir = (run: CatalogEntry): string => (run.path === '.' ? resolve(run.root) : join(resolve(run.root), run.path));

function page(opts: ViewOptions): string {
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<title>textstress view — ${escapeHtml(opts.roots.join(', '))}</title><style>${STYLE}</style></head><body>` +
    `<script type="application/json" id="view-config">${jsonForScript({ roots: opts.roots })}</script>` +
    '<header><h1>textstress view</h1><p id="roots"></p></header><main id="app"><p>Loading runs…</p></main>' +
    `<script>${SCRIPT}</script></body></html>`
  );
}
