import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadModel } from '../../src/models/load.ts';
import { inputFromPrompt, parseFaults } from '../../src/models/openai-compat.ts';
import { startModelServer, type ModelServer } from '../../src/models/serve.ts';
import type { ClassOutput, ModelAdapter } from '../../src/models/types.ts';

const SST2 = path.resolve('models/demo-sst2');
const chat = (url: string, body: unknown): Promise<Response> =>
  fetch(`${url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const ask = (text: string, extra: Record<string, unknown> = {}) => ({
  model: 'demo',
  messages: [
    { role: 'system', content: 'Classify the sentiment. Answer with one word: negative or positive.' },
    { role: 'user', content: `Text: <text>${text}</text>` },
  ],
  ...extra,
});

describe('serve --openai: an OpenAI-compatible face for a local classifier', () => {
  let model: ModelAdapter;
  let server: ModelServer;
  let faulty: ModelServer;
  beforeAll(async () => {
    model = await loadModel(SST2);
    server = await startModelServer(model, { port: 0, openai: { modelName: 'demo-sst2' } });
    faulty = await startModelServer(model, {
      port: 0,
      openai: { modelName: 'demo-sst2', faults: parseFaults('429:2,retry-after:3,500:3,malformed:5') },
    });
  });
  afterAll(async () => {
    await server?.close();
    await faulty?.close();
    await model?.close?.();
  });

  it('lists the model and answers with the label the local model gives, its logprobs over the labels and usage', async () => {
    const models = (await (await fetch(`${server.url}/v1/models`)).json()) as { data: { id: string }[] };
    expect(models.data.map((m) => m.id)).toEqual(['demo-sst2']);
    const text = 'a warm , funny and beautifully acted film .';
    const [local] = (await model.predict([{ kind: 'text', text }])) as ClassOutput[];
    const res = await chat(server.url, ask(text, { logprobs: true, top_logprobs: 2, temperature: 0, seed: 1 }));
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      choices: {
        message: { content: string };
        logprobs: { content: { token: string; logprob: number; top_logprobs: { token: string; logprob: number }[] }[] };
      }[];
      usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
    };
    const best = local!.probs.indexOf(Math.max(...local!.probs));
    expect(body.choices[0]!.message.content).toBe(local!.labels[best]);
    const top = body.choices[0]!.logprobs.content[0]!.top_logprobs;
    expect(top.map((t) => t.token).sort()).toEqual([...local!.labels].sort());
    for (const t of top) expect(Math.exp(t.logprob)).toBeCloseTo(local!.probs[local!.labels.indexOf(t.token)]!, 6);
    expect(body.usage.completion_tokens).toBe(1);
    expect(body.usage.prompt_tokens).toBeGreaterThan(10);
    expect(body.usage.total_tokens).toBe(body.usage.prompt_tokens + 1);
    // without logprobs: none
    const plain = (await (await chat(server.url, ask(text))).json()) as { choices: { logprobs: unknown }[] };
    expect(plain.choices[0]!.logprobs).toBeNull();
  });

  it('reads single texts and pairs from the prompt, and refuses a body without messages', async () => {
    expect(inputFromPrompt('Premise: <text_a>a man sleeps</text_a> Hypothesis: <text_b>a person rests</text_b>')).toEqual({
      kind: 'pair',
      textA: 'a man sleeps',
      textB: 'a person rests',
    });
    expect(inputFromPrompt('just this')).toEqual({ kind: 'text', text: 'just this' });
    const bad = await chat(server.url, { model: 'demo', messages: [] });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toMatch(/messages/);
  });

  it('misbehaves on the fault plan: 429 with retry-after, 500, a malformed body', async () => {
    const statuses: (number | string)[] = [];
    for (let i = 1; i <= 5; i++) {
      const r = await chat(faulty.url, ask('fine'));
      const text = await r.text();
      let ok = true;
      try {
        JSON.parse(text);
      } catch {
        ok = false;
      }
      statuses.push(r.status === 200 && !ok ? 'malformed' : r.status);
      if (r.status === 429) expect(r.headers.get('retry-after')).toBe('3');
    }
    // requests 2 and 4 hit 429 (every 2nd), 3 hits 500, 5 is malformed
    expect(statuses).toEqual([200, 429, 500, 429, 'malformed']);
  });

  it('names a bad fault plan', () => {
    expect(() => parseFaults('404:2')).toThrow(/unknown fault "404"/);
    expect(() => parseFaults('429:x')).toThrow(/bad fault "429:x"/);
  });
});

describe('serve --openai with the official openai client', () => {
  it('answers chat.completions.create and models.list as the client expects', async () => {
    const { default: OpenAI } = await import('openai');
    const model = await loadModel(SST2);
    const server = await startModelServer(model, { port: 0, openai: { modelName: 'demo-sst2' } });
    try {
      const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test-not-a-real-key', maxRetries: 0 });
      const list = await client.models.list();
      expect(list.data.map((m) => m.id)).toEqual(['demo-sst2']);
      const r = await client.chat.completions.create({
        model: 'demo',
        messages: ask('a dull , lifeless film .').messages as never,
        logprobs: true,
        top_logprobs: 2,
        temperature: 0,
        seed: 0,
      });
      expect(['negative', 'positive']).toContain(r.choices[0]!.message.content);
      expect(r.choices[0]!.logprobs!.content![0]!.top_logprobs).toHaveLength(2);
      expect(r.usage!.completion_tokens).toBe(1);
    } finally {
      await server.close();
      await model.close?.();
    }
  });
});

describe('textstress serve --openai (CLI)', () => {
  it('serves the OpenAI routes beside the textstress ones, and --fault needs --openai', async () => {
    const { runCliProcess, servedUrl, startCliProcess } = await import('../cli/helpers.ts');
    // A process: `serve` runs until a signal.
    const server = startCliProcess(['serve', '--model', SST2, '--port', '0', '--openai', '--openai-model', 'demo']);
    try {
      const url = await servedUrl(server);
      const models = (await (await fetch(`${url}/v1/models`)).json()) as { data: { id: string }[] };
      expect(models.data[0]!.id).toBe('demo');
      expect((await fetch(`${url}/info`)).status).toBe(200);
    } finally {
      server.kill('SIGTERM');
    }
    // A process too: the in-process runner refuses `serve`, which would keep running had the flags been right.
    const r = await runCliProcess(['serve', '--model', SST2, '--port', '0', '--fault', '429:2']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/--fault applies to the OpenAI-compatible routes: add --openai/);
  }, 60_000);
});
