/**
 * An LLM endpoint that fails (npm run test:faults): `serve --openai` with injected 429s (retry-after), 500s and
 * malformed bodies. Every fault is retried, with real backoff waits, and never scored: the outcomes equal those
 * against a clean server.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadModel } from '../../src/models/load.ts';
import { parseFaults } from '../../src/models/openai-compat.ts';
import { startModelServer, type ModelServer } from '../../src/models/serve.ts';
import type { ModelAdapter } from '../../src/models/types.ts';
import type { RunRequest } from '../../src/kinds/run.ts';
import type { RunSummary } from '../../src/kinds/attack/run.ts';
import { DEMO_SST2, tmp } from '../cli/helpers.ts';
import { llmTypos, outcomesById, resultLines } from '../support/llm.ts';

const KEY_VAR = 'TEXTSTRESS_TEST_RETRY_KEY';
describe('an OpenAI-compatible endpoint that answers 429, 500 and malformed bodies', () => {
  let local: ModelAdapter;
  let server: ModelServer;
  let faulty: ModelServer;
  const attack = (over: Partial<RunRequest> & { out: string }): Promise<unknown> => llmTypos({ authEnv: KEY_VAR, ...over });

  beforeAll(async () => {
    process.env[KEY_VAR] = 'sk-test-retries';
    local = await loadModel(DEMO_SST2);
    server = await startModelServer(local, { port: 0, maxConcurrent: 32, openai: { modelName: 'demo' } });
    faulty = await startModelServer(local, {
      port: 0,
      maxConcurrent: 32,
      openai: { modelName: 'demo', faults: parseFaults('429:7,retry-after:0,500:11,malformed:13') },
    });
  });
  afterAll(async () => {
    delete process.env[KEY_VAR];
    await Promise.all([server?.close(), faulty?.close()]);
    await local?.close?.();
  });

  it('retries 429 (retry-after), 500 and malformed bodies and never scores them: same outcomes as a clean server', async () => {
    const clean = tmp('llm-clean');
    await attack({ baseUrl: `${server.url}/v1`, cache: false, out: clean });
    const out = tmp('llm-faulty');
    await attack({ baseUrl: `${faulty.url}/v1`, cache: false, out });
    expect(outcomesById(resultLines(out))).toEqual(outcomesById(resultLines(clean)));
    const spent = (JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as RunSummary).process.spent!;
    expect(spent.retries).toBeGreaterThan(0);
    expect(spent.rate_limited).toBeGreaterThan(0);
  });
});
