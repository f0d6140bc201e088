/**
 * Attacks against an LLM endpoint end to end: `serve --openai` puts demo-sst2 behind /v1/chat/completions and
 * the openai: adapter (the official client) attacks it. With the logprobs mapping the outcomes equal the local
 * adapter's; the disk cache makes a second run free; --max-cost stops cleanly and --resume continues (faults retried, never
 * scored: test/faults/llm-retries.test.ts); unmappable answers are counted; a planted API key appears in no file and no message.
 */
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadModel } from '../../src/models/load.ts';
import { parseFaults } from '../../src/models/openai-compat.ts';
import { startModelServer, type ModelServer } from '../../src/models/serve.ts';
import type { ModelAdapter } from '../../src/models/types.ts';
import { BUILTIN_RECIPES } from '../../src/families/index.ts';
import { createRegistry } from '../../src/recipes/registry/registry.ts';
import { runRecipe, type RunRequest } from '../../src/kinds/run.ts';
import type { RunSummary } from '../../src/kinds/attack/run.ts';
import { parseSuite } from '../../src/suite/load.ts';
import { runSuite } from '../../src/suite/run.ts';
import { DEMO_SST2, SST2_DEV, allFilesText as allText, tmp } from '../cli/helpers.ts';
import { llmTypos, outcomesById, resultLines } from '../support/llm.ts';

const registry = createRegistry(BUILTIN_RECIPES);
const KEY_VAR = 'TEXTSTRESS_TEST_PLANTED_KEY';
const PLANTED = 'sk-planted-7f3a9c1e55d04b2a';

const lines = resultLines;
const summaryOf = (dir: string): RunSummary => JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as RunSummary;
const byId = outcomesById;

describe('attacking an OpenAI-compatible endpoint (serve --openai)', () => {
  let local: ModelAdapter;
  let server: ModelServer;
  let faulty: ModelServer;
  let garbage: ModelServer;
  const base = (s: ModelServer): string => `${s.url}/v1`;
  const attack = (over: Partial<RunRequest> & { out: string }): Promise<unknown> =>
    llmTypos({ priceInput: 0.15, priceOutput: 0.6, authEnv: KEY_VAR, ...over });

  beforeAll(async () => {
    process.env[KEY_VAR] = PLANTED;
    local = await loadModel(DEMO_SST2);
    server = await startModelServer(local, { port: 0, maxConcurrent: 32, openai: { modelName: 'demo' } });
    faulty = await startModelServer(local, {
      port: 0,
      maxConcurrent: 32,
      openai: { modelName: 'demo', faults: parseFaults('429:7,retry-after:0,500:11,malformed:13') },
    });
    garbage = await startModelServer(local, {
      port: 0,
      maxConcurrent: 32,
      openai: { modelName: 'demo', faults: parseFaults('garbage:9') },
    });
  });
  afterAll(async () => {
    delete process.env[KEY_VAR];
    await Promise.all([server?.close(), faulty?.close(), garbage?.close()]);
    await local?.close?.();
  });

  it("gives the local adapter's outcomes with the logprobs mapping, reports tokens and cost, and a re-run is free and identical", async () => {
    const cacheDir = tmp('llm-cache');
    const localOut = tmp('llm-local');
    await runRecipe({ registry, recipe: 'typos', settings: { k: 1 }, model: DEMO_SST2, data: SST2_DEV, limit: 12, seed: 3, out: localOut });
    const first = tmp('llm-first');
    await attack({ baseUrl: base(server), cacheDir, out: first });
    expect(byId(lines(first))).toEqual(byId(lines(localOut)));
    const s1 = summaryOf(first);
    expect(s1.usage!.input_tokens).toBeGreaterThan(100);
    expect(s1.usage!.cost_usd).toBeCloseTo((s1.usage!.input_tokens * 0.15 + s1.usage!.output_tokens * 0.6) / 1e6, 9);
    expect(s1.process.spent!.requests).toBe(s1.process.model_inferences);
    expect(s1.process.spent!.cost_usd).toBeCloseTo(s1.usage!.cost_usd!, 9);
    expect(s1.unmappable).toEqual({ answers: 0, examples: 0, clean: 0 });
    expect(lines(first).every((r) => r.usage!.input_tokens > 0)).toBe(true);

    const second = tmp('llm-second');
    await attack({ baseUrl: base(server), cacheDir, out: second });
    const s2 = summaryOf(second);
    expect(s2.process.model_inferences).toBe(0);
    expect(s2.process.spent!.requests).toBe(0);
    expect(s2.process.disk_cache_hits).toBe(s2.process.requests);
    expect(readFileSync(join(second, 'results.jsonl'), 'utf8')).toBe(readFileSync(join(first, 'results.jsonl'), 'utf8'));
    // a dry run sends nothing (nothing listens on port 9), counts the answers in the cache, and bounds the rest
    const dryCached = (await attack({ baseUrl: base(server), cacheDir, out: tmp('llm-dry-1'), dryRun: true })) as { summary: RunSummary };
    expect(dryCached.summary.process.model_inferences).toBe(0);
    expect(dryCached.summary.process.disk_cache_hits).toBe(s1.process.requests);
    const dry = (await attack({ baseUrl: 'http://127.0.0.1:9/v1', cacheDir, out: tmp('llm-dry-2'), dryRun: true })) as {
      summary: RunSummary;
    };
    // an estimate: searches follow stand-in answers, every attack runs to its end (real: 20% of examples skipped)
    expect(dry.summary.process.model_inferences / s1.process.spent!.requests).toBeGreaterThan(0.7);
    expect(dry.summary.process.model_inferences / s1.process.spent!.requests).toBeLessThan(2);
    expect(dry.summary.process.spent!.input_tokens).toBeGreaterThan(0);
    expect(dry.summary.process.spent!.cost_usd).toBeGreaterThan(0);
    // nothing of the key anywhere: results, summary, run state, the cache
    for (const dir of [first, second, cacheDir]) expect(allText(dir)).not.toContain(PLANTED);
  });

  it('--max-cost stops before the limit, keeps what is done, and --resume continues to the same results', async () => {
    const cacheDir = tmp('llm-budget-cache');
    const full = tmp('llm-budget-full');
    await attack({ baseUrl: base(server), cacheDir: tmp('llm-budget-other'), out: full });
    const cost = summaryOf(full).usage!.cost_usd!;
    const out = tmp('llm-budget');
    const limit = cost / 3;
    await expect(attack({ baseUrl: base(server), cacheDir, out, maxCost: limit, concurrency: 4 })).rejects.toThrow(
      /stopped before --max-cost/,
    );
    const state = JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')) as { status: string };
    expect(state.status).toBe('failed');
    const kept = lines(out).length;
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(12);
    await attack({ baseUrl: base(server), cacheDir, out, resume: true });
    expect(byId(lines(out))).toEqual(byId(lines(full)));
    const { process: _p, wall_seconds: _w, ...a } = summaryOf(out);
    const { process: _q, wall_seconds: _x, ...b } = summaryOf(full);
    expect(a).toEqual(b);
  });

  it('counts answers that name no label as unmappable, a skip reason when the clean answer is one', async () => {
    const out = tmp('llm-garbage');
    await attack({ baseUrl: base(garbage), cache: false, out, concurrency: 1 });
    const rs = lines(out);
    const s = summaryOf(out);
    expect(s.unmappable!.answers).toBeGreaterThan(0);
    expect(s.unmappable!.answers).toBe(rs.reduce((n, r) => n + (r.unmappable ?? 0), 0));
    expect(s.unmappable!.clean).toBe(rs.filter((r) => r.original_prediction.unmappable !== undefined).length);
    for (const r of rs.filter((x) => x.original_prediction.unmappable !== undefined)) {
      expect(r.status).toBe('skipped');
      expect(r.original_prediction.label).toBe('(unmappable)');
    }
    // an unmappable answer never counts as a success
    for (const r of rs.filter((x) => x.status === 'succeeded')) expect(['negative', 'positive']).toContain(r.perturbed_prediction.label);
  });

  it('an endpoint that echoes the key in its error gets it redacted from the message', async () => {
    const echo = createServer((req, res) => {
      res
        .writeHead(401, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { message: `bad key ${String(req.headers.authorization)}` } }));
    });
    await new Promise<void>((r) => echo.listen(0, '127.0.0.1', r));
    const port = (echo.address() as { port: number }).port;
    try {
      const model = await loadModel('openai:demo', {
        baseUrl: `http://127.0.0.1:${port}/v1`,
        labels: ['negative', 'positive'],
        authEnv: KEY_VAR,
      });
      const err = await model.predict([{ kind: 'text', text: 'fine' }]).catch((e: unknown) => e as Error);
      expect(String((err as Error).message)).toMatch(/HTTP 401/);
      expect(String((err as Error).message)).not.toContain(PLANTED);
      expect(String((err as Error).message)).toContain('[redacted]');
    } finally {
      echo.close();
    }
  });

  it(
    'runs from a suite: an openai: model entry with labels, prices and its own cache folder; the report shows ' +
      'tokens and cost; the key is policed',
    async () => {
      const dir = tmp('llm-suite');
      const yaml = [
        'models:',
        `  llm: { path: "openai:demo", base_url: "${base(server)}", labels: [negative, positive], price_input: 0.15, ` +
          `price_output: 0.6, cache_dir: cache, auth_env: ${KEY_VAR} }`,
        'datasets:',
        `  sst2: { path: ${JSON.stringify(SST2_DEV)}, limit: 6 }`,
        // Six examples test the endpoint's plumbing, not the statistics: no minimum n for the gate.
        'min_n: 1',
        'tests:',
        '  - name: typos-llm',
        '    recipe: typos',
        '    settings: { k: 1 }',
        '    thresholds: ["attack_success_rate <= 1"]',
      ].join('\n');
      const loaded = parseSuite(yaml + '\n', join(dir, 'suite.yaml'), registry);
      await expect(runSuite(loaded, { registry, out: join(dir, 'refused'), progress: false, allowAuthEnv: ['OTHER'] })).rejects.toThrow(
        new RegExp(`${KEY_VAR} is not allowed`),
      );
      const outcome = await runSuite(loaded, { registry, out: join(dir, 'out'), progress: false, allowAuthEnv: [KEY_VAR] });
      expect(outcome.verdict.passed).toBe(true);
      const s = summaryOf(join(dir, 'out', 'typos-llm'));
      expect(s.usage!.cost_usd).toBeGreaterThan(0);
      const html = readFileSync(outcome.report, 'utf8');
      expect(html).toContain('<dt>tokens</dt>');
      expect(html).toContain('<th class="n">cost</th>');
      expect(allText(join(dir, 'cache'))).not.toContain(PLANTED);
      expect(allText(join(dir, 'out'))).not.toContain(PLANTED);
    },
  );
});
