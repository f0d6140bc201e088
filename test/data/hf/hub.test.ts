/**
 * The hub protocol against a local stand-in: HF_ENDPOINT and HF_TOKEN (sent to the hub, never to the CDN,
 * never written or shown), the cache (reused by ETag, read with the hub gone, written whole or not at all),
 * and each failure's message.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { collect, openDataset } from '../../../src/data/index.ts';
import { hfHome, hubEnv, hubFingerprint } from '../../../src/data/hf/index.ts';
import { fileFingerprint } from '../../../src/runner/open.ts';
import { TextstressError } from '../../../src/util/errors.ts';
import { anyFileContains, filesUnder, removeTempHomes, setHubEnv, tempHome } from './env.ts';
import { SST2_ROWS, sst2Parquet } from './fixtures.ts';
import { startFakeHub, type FakeHub } from './hub-server.ts';

const TOKEN = 'hf_TestTokenThatMustNotLeak0123';
const SPEC = 'hf:stanfordnlp/sst2:validation';
const sst2 = (): Record<string, { configs: Record<string, Record<string, Uint8Array[]>> }> => ({
  'stanfordnlp/sst2': { configs: { default: { validation: [sst2Parquet(SST2_ROWS)], train: [sst2Parquet(SST2_ROWS.slice(0, 1))] } } },
});

let restore: (() => void) | undefined;
const hubs: FakeHub[] = [];
async function hubWith(datasets: Parameters<typeof startFakeHub>[0]): Promise<FakeHub> {
  const h = await startFakeHub(datasets);
  hubs.push(h);
  return h;
}
afterEach(() => {
  restore?.();
  restore = undefined;
  vi.restoreAllMocks();
});
afterAll(async () => {
  await Promise.all(hubs.map((h) => h.close()));
  removeTempHomes();
});

async function failure(fn: () => Promise<unknown>): Promise<string> {
  const err = await fn().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(TextstressError);
  return (err as TextstressError).describe();
}

const texts = async (spec: string): Promise<string[]> =>
  (await collect(await openDataset(spec))).map((e) => (e.kind === 'text' ? e.text : ''));
const captureStderr = (): string[] => {
  const lines: string[] = [];
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
  return lines;
};

describe('HF_ENDPOINT and HF_TOKEN', () => {
  it('asks HF_ENDPOINT in the hub layout and sends HF_TOKEN to the hub only; the token is in no file and no error', async () => {
    const hub = await hubWith({ 'stanfordnlp/sst2': { ...sst2()['stanfordnlp/sst2']!, token: TOKEN } });
    const home = tempHome();
    restore = setHubEnv({ HF_ENDPOINT: hub.url, HF_HOME: home, HF_TOKEN: TOKEN });
    captureStderr();
    expect(await texts(SPEC)).toEqual(SST2_ROWS.map((r) => r.sentence.trim()));
    expect(hub.requests.map((r) => `${r.server} ${r.method} ${r.path}`)).toEqual([
      'hub GET /api/datasets/stanfordnlp/sst2/parquet',
      'hub HEAD /api/datasets/stanfordnlp/sst2/parquet/default/validation/0.parquet',
      'hub HEAD /datasets/stanfordnlp/sst2/resolve/refs%2Fconvert%2Fparquet/default/validation/0000.parquet',
      'hub GET /api/datasets/stanfordnlp/sst2/parquet/default/validation/0.parquet',
      'hub GET /datasets/stanfordnlp/sst2/resolve/refs%2Fconvert%2Fparquet/default/validation/0000.parquet',
      expect.stringMatching(/^cdn GET \/blobs\/[0-9a-f]{64}$/),
    ]);
    for (const r of hub.requests) expect(r.authorization).toBe(r.server === 'hub' ? `Bearer ${TOKEN}` : undefined);
    expect(anyFileContains(home, TOKEN)).toBe(false);

    // the same token, refused: the message says HF_TOKEN is set, and does not show it
    const other = await hubWith({ 'stanfordnlp/sst2': { ...sst2()['stanfordnlp/sst2']!, token: 'another' } });
    restore();
    restore = setHubEnv({ HF_ENDPOINT: other.url, HF_HOME: tempHome(), HF_TOKEN: TOKEN });
    const msg = await failure(() => openDataset(SPEC));
    expect(msg).toBe(
      'hf:stanfordnlp/sst2:validation: the hub refused access to dataset stanfordnlp/sst2 (HTTP 401: Invalid ' +
        'credentials in Authorization header). HF_TOKEN is set but cannot read this dataset: check that the token has ' +
        'read access, and for a gated dataset accept its conditions on the dataset page while logged in.',
    );
    expect(msg).not.toContain(TOKEN);
  });

  it('a private or gated dataset without HF_TOKEN: 401, and the message says to set HF_TOKEN', async () => {
    const hub = await hubWith({ 'stanfordnlp/sst2': { ...sst2()['stanfordnlp/sst2']!, token: TOKEN } });
    restore = setHubEnv({ HF_ENDPOINT: hub.url, HF_HOME: tempHome() });
    const msg = await failure(() => openDataset(SPEC));
    expect(msg).toMatch(
      /^hf:stanfordnlp\/sst2:validation: the hub refused access to dataset stanfordnlp\/sst2 \(HTTP 401: Invalid credentials in Authorization header\)\. The dataset is private or gated/,
    );
    expect(msg).toContain('set HF_TOKEN to a token that can read it');
    expect(hub.requests.every((r) => r.authorization === undefined)).toBe(true);
  });

  it('the cache lives in $HF_HOME/textstress, else $XDG_CACHE_HOME/huggingface/textstress', () => {
    expect(hubEnv({ HF_HOME: '/h' }).cacheRoot).toBe('/h/textstress');
    expect(hfHome({ XDG_CACHE_HOME: '/x' })).toBe('/x/huggingface');
    expect(hubEnv({}).endpoint).toBe('https://huggingface.co');
    expect(hubEnv({ HF_ENDPOINT: 'http://127.0.0.1:9/' }).endpoint).toBe('http://127.0.0.1:9');
  });
});

describe('the cache', () => {
  it('is used the second time: no download while the hub is up, and no network at all once it is gone', async () => {
    const hub = await hubWith(sst2());
    const home = tempHome();
    restore = setHubEnv({ HF_ENDPOINT: hub.url, HF_HOME: home });
    const err = captureStderr();
    const first = await texts(SPEC);
    const print = await hubFingerprint(SPEC);
    expect(filesUnder(join(home, 'textstress'))).toEqual([
      expect.stringMatching(/^datasets\/stanfordnlp--sst2\/blobs\/[0-9a-f]{64}\.parquet$/),
      'datasets/stanfordnlp--sst2/configs.json',
      'datasets/stanfordnlp--sst2/splits/default/validation.json',
    ]);

    restore();
    restore = setHubEnv({ HF_ENDPOINT: hub.url, HF_HOME: home });
    expect(await texts(SPEC)).toEqual(first);
    expect(hub.requests.filter((r) => r.server === 'cdn')).toHaveLength(1); // the first download only

    await hub.close();
    restore();
    restore = setHubEnv({ HF_ENDPOINT: hub.url, HF_HOME: home });
    err.length = 0;
    expect(await texts(SPEC)).toEqual(first);
    expect(await fileFingerprint(SPEC)).toBe(print);
    expect(err.join('')).toMatch(
      new RegExp(
        `^textstress: cannot reach ${hub.url}/api/datasets/stanfordnlp/sst2/parquet \\(ECONNREFUSED\\); using the ` +
          `cached copy of hf:stanfordnlp/sst2:validation from \\S+ ` +
          `\\(${home}/textstress/datasets/stanfordnlp--sst2\\)\\n$`,
      ),
    );

    // HF_HUB_OFFLINE: the cache without asking
    restore();
    restore = setHubEnv({ HF_ENDPOINT: hub.url, HF_HOME: home, HF_HUB_OFFLINE: '1' });
    expect(await texts(SPEC)).toEqual(first);
    expect(await failure(() => openDataset('hf:stanfordnlp/sst2:train'))).toMatch(
      /^hf:stanfordnlp\/sst2:train: HF_HUB_OFFLINE is set and there is no cached copy of this split\./,
    );
  });

  it('downloads again when the hub has a new revision of the file (its ETag changed); the fingerprint follows', async () => {
    const home = tempHome();
    const before = await hubWith(sst2());
    restore = setHubEnv({ HF_ENDPOINT: before.url, HF_HOME: home });
    captureStderr();
    await texts(SPEC);
    const print = await hubFingerprint(SPEC);
    const changed = [...SST2_ROWS.slice(0, 2), { idx: 2, sentence: 'a new third row', label: 0 }];
    const after = await hubWith({ 'stanfordnlp/sst2': { configs: { default: { validation: [sst2Parquet(changed)] } } } });
    restore();
    restore = setHubEnv({ HF_ENDPOINT: after.url, HF_HOME: home });
    expect((await texts(SPEC))[2]).toBe('a new third row');
    const bytes = sst2Parquet(changed);
    const sha = createHash('sha256').update(bytes).digest('hex');
    const expected = `hf:${bytes.byteLength}:${createHash('sha256').update(`${bytes.byteLength} ${sha}\n`).digest('hex')}`;
    expect(await hubFingerprint(SPEC)).toBe(expected);
    expect(expected).not.toBe(print);
  });

  it('an interrupted download leaves no file in the cache, and the next run downloads it whole', async () => {
    const hub = await hubWith(sst2());
    const home = tempHome();
    restore = setHubEnv({ HF_ENDPOINT: hub.url, HF_HOME: home });
    captureStderr();
    hub.interrupt = true;
    const msg = await failure(() => openDataset(SPEC));
    expect(msg).toMatch(
      new RegExp(
        `^hf:stanfordnlp/sst2:validation: cannot reach ${hub.cdnUrl}/blobs/[0-9a-f]{64} \\(download interrupted after ` +
          `\\d+ bytes: .+\\), and there is no cached copy of this split\\.`,
      ),
    );
    expect(filesUnder(join(home, 'textstress')).filter((f) => !f.endsWith('configs.json'))).toEqual([]);
    hub.interrupt = false;
    expect(await texts(SPEC)).toEqual(SST2_ROWS.map((r) => r.sentence.trim()));
  });
});

describe('errors', () => {
  it('unknown dataset, config and split; several configs and none named', async () => {
    const hub = await hubWith({
      ...sst2(),
      'nyu-mll/glue': {
        configs: {
          cola: { validation: [sst2Parquet(SST2_ROWS)] },
          mrpc: { validation: [sst2Parquet(SST2_ROWS)], test: [sst2Parquet(SST2_ROWS)] },
        },
      },
    });
    restore = setHubEnv({ HF_ENDPOINT: hub.url, HF_HOME: tempHome() });
    expect(await failure(() => openDataset('hf:nobody/nothing:validation'))).toBe(
      `hf:nobody/nothing:validation: the hub has no dataset nobody/nothing (HTTP 404 from ` +
        `${hub.url}/api/datasets/nobody/nothing/parquet). Check the name: owner/name as in the dataset's URL ` +
        `(${hub.url}/datasets/owner/name).`,
    );
    expect(await failure(() => openDataset('hf:nyu-mll/glue:sst3:validation'))).toBe(
      'hf:nyu-mll/glue:sst3:validation: dataset nyu-mll/glue has no config "sst3"; its configs are "cola", "mrpc".',
    );
    expect(await failure(() => openDataset('hf:nyu-mll/glue:mrpc:dev'))).toBe(
      'hf:nyu-mll/glue:mrpc:dev: config "mrpc" of dataset nyu-mll/glue has no split "dev"; its splits are "validation", "test".',
    );
    expect(await failure(() => openDataset('hf:stanfordnlp/sst2:dev'))).toBe(
      'hf:stanfordnlp/sst2:dev: config "default" of dataset stanfordnlp/sst2 has no split "dev"; its splits are "validation", "train".',
    );
    expect(await failure(() => openDataset('hf:nyu-mll/glue:validation'))).toBe(
      'hf:nyu-mll/glue:validation: dataset nyu-mll/glue has 2 configs, so the spec must name one: "cola", "mrpc". ' +
        'Write hf:nyu-mll/glue:<config>:validation, e.g. hf:nyu-mll/glue:cola:validation.',
    );
    expect(await failure(() => openDataset('hf:not-a-repo:validation'))).toMatch(
      /^"hf:not-a-repo:validation" is not a hub dataset spec: "not-a-repo" is not a dataset id of the form owner\/name\./,
    );
  });

  it('offline with no cache names HF_ENDPOINT and the URL tried', async () => {
    const gone = await hubWith(sst2());
    const url = gone.url;
    await gone.close();
    restore = setHubEnv({ HF_ENDPOINT: url, HF_HOME: tempHome() });
    expect(await failure(() => openDataset(SPEC))).toMatch(
      new RegExp(
        `^hf:stanfordnlp/sst2:validation: cannot reach ${url}/api/datasets/stanfordnlp/sst2/parquet ` +
          `\\(ECONNREFUSED\\), ` +
          `and there is no cached copy of this split\\. HF_ENDPOINT is ${url}\\. Check the network connection and ` +
          `HF_ENDPOINT, or run once with network access to fill the cache ` +
          `\\(.*/textstress/datasets/stanfordnlp--sst2\\)\\.$`,
      ),
    );
  });

  it("the hub's answers are checked: a listing of the wrong shape is a readable error", async () => {
    const { createServer } = await import('node:http');
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ default: { validation: 'not a list' } }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      restore = setHubEnv({ HF_ENDPOINT: url, HF_HOME: tempHome() });
      expect(await failure(() => openDataset(SPEC))).toMatch(
        new RegExp(
          `^${url}/api/datasets/stanfordnlp/sst2/parquet: the hub's answer is not a listing of configs, splits and ` +
            `parquet file URLs at default\\.validation: .+ Check HF_ENDPOINT`,
        ),
      );
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
