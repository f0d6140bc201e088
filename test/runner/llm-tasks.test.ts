/**
 * The openai: adapter as a tagger and as a QA model, end to end through a recipe, against a small rule-based chat
 * server (started here on a free port): capitalised tokens are B-PER, the answer is the context's first capitalised
 * word after its first one. Its JSON answers are validated; a wrong number of tags is unmappable, never a tagging.
 */
import { createServer, type Server } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExampleResult } from '../../src/core/result.ts';
import { BUILTIN_RECIPES } from '../../src/families/index.ts';
import { createRegistry } from '../../src/recipes/registry/registry.ts';
import { runRecipe } from '../../src/kinds/run.ts';
import type { RunSummary } from '../../src/kinds/attack/run.ts';
import { loadModel } from '../../src/models/load.ts';
import { startModelServer } from '../../src/models/serve.ts';
import { CONLL, ROOT, fixtureData, tmp } from '../cli/helpers.ts';

const registry = createRegistry(BUILTIN_RECIPES);
const TAGS = ['O', 'B-PER', 'I-PER', 'B-LOC', 'I-LOC', 'B-ORG', 'I-ORG', 'B-MISC', 'I-MISC'];

/** What the rule-based "LLM" answers to one prompt; every 5th tagging request drops a tag (unmappable). */
function answer(prompt: string, n: number, bodies: unknown[]): string {
  const tokens = /Tokens: (\[.*\])\s*$/s.exec(prompt);
  if (tokens) {
    const words = JSON.parse(tokens[1]!) as string[];
    const tags = words.map((w, i) => (i > 0 && /^[A-Z][a-z]+$/.test(w) ? 'B-PER' : 'O'));
    return JSON.stringify({ tags: n % 5 === 0 ? tags.slice(1) : tags });
  }
  const context = /<context>(.*)<\/context>/s.exec(prompt);
  if (context) {
    const caps = context[1]!.match(/\b[A-Z][a-z]+\b/g) ?? [];
    return JSON.stringify({ answer: caps[1] ?? caps[0] ?? '' });
  }
  bodies.push(prompt);
  return 'no idea';
}

describe('openai: taggers and QA models (JSON answers)', () => {
  let server: Server;
  let url = '';
  const bodies: unknown[] = [];
  const formats: unknown[] = [];
  beforeAll(async () => {
    let n = 0;
    server = createServer((req, res) => {
      let raw = '';
      req.on('data', (d: Buffer) => (raw += d.toString()));
      req.on('end', () => {
        const body = JSON.parse(raw) as { messages: { role: string; content: string }[]; response_format?: unknown };
        formats.push(body.response_format);
        const prompt = body.messages[body.messages.length - 1]!.content;
        const content = answer(prompt, ++n, bodies);
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            id: `c${n}`,
            object: 'chat.completion',
            created: 0,
            model: 'rules',
            choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content } }],
            usage: { prompt_tokens: 40, completion_tokens: 12, total_tokens: 52 },
          }),
        );
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`;
  });
  afterAll(() => server?.close());

  it('tags CoNLL sentences from JSON, asks for it by schema, and counts answers with the wrong number of tags as unmappable', async () => {
    const out = tmp('llm-ner');
    await runRecipe({
      registry,
      recipe: 'typos',
      settings: { k: 1 },
      model: 'openai:rules',
      task: 'token-classification',
      labels: TAGS,
      baseUrl: url,
      cache: false,
      data: CONLL,
      limit: 8,
      seed: 0,
      out,
      concurrency: 1,
    });
    const s = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as RunSummary;
    const rs = readFileSync(join(out, 'results.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as ExampleResult);
    expect(s.n).toBe(rs.length);
    expect(s.clean_f1).not.toBeNull();
    expect(s.unmappable!.answers).toBeGreaterThan(0);
    expect(s.unmappable!.answers).toBe(rs.reduce((n, r) => n + (r.unmappable ?? 0), 0));
    expect(s.usage).toEqual({
      input_tokens: 40 * rs.reduce((n, r) => n + r.queries, 0),
      output_tokens: 12 * rs.reduce((n, r) => n + r.queries, 0),
      cost_usd: null,
    });
    const mapped = rs.find((r) => r.original_prediction.unmappable === undefined)!;
    expect(mapped.original_prediction.tags!.length).toBe((mapped.original.tokens as string[]).length);
    expect(formats[0]).toMatchObject({
      type: 'json_schema',
      json_schema: { strict: true, schema: { properties: { tags: { items: { enum: TAGS } } } } },
    });
    expect(bodies).toEqual([]);
  });

  it('answers SQuAD questions with a span located in the context, scored by EM/F1', async () => {
    const out = tmp('llm-qa');
    await runRecipe({
      registry,
      recipe: 'typos',
      settings: { k: 1 },
      model: 'openai:rules',
      task: 'question-answering',
      baseUrl: url,
      cache: false,
      data: fixtureData('squad-v1.1/dev-v1.1.json'),
      limit: 6,
      seed: 0,
      out,
    });
    const s = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as RunSummary;
    const rs = readFileSync(join(out, 'results.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as ExampleResult);
    expect(s.clean_f1).not.toBeNull();
    for (const r of rs) {
      const a = r.original_prediction.answer!;
      expect((r.original.context as string).slice(a.start, a.end)).toBe(a.text);
    }
    expect(bodies).toEqual([]);
  });

  it("classifies sentence pairs (NLI) through the default pair template with the local model's outcomes", async () => {
    const sick = await loadModel(join(ROOT, 'models', 'demo-sick'));
    const served = await startModelServer(sick, { port: 0, maxConcurrent: 16, openai: { modelName: 'sick' } });
    try {
      const common = {
        registry,
        recipe: 'typos',
        settings: { k: 1 },
        data: fixtureData('sick/SICK.txt'),
        split: 'TEST',
        limit: 8,
        seed: 0,
      };
      const local = tmp('llm-pairs-local');
      const remote = tmp('llm-pairs-remote');
      await runRecipe({ ...common, model: join(ROOT, 'models', 'demo-sick'), out: local });
      await runRecipe({
        ...common,
        model: 'openai:sick',
        labels: ['entailment', 'neutral', 'contradiction'],
        baseUrl: `${served.url}/v1`,
        cache: false,
        out: remote,
      });
      const key = (dir: string) =>
        readFileSync(join(dir, 'results.jsonl'), 'utf8')
          .trim()
          .split('\n')
          .map((l) => {
            const r = JSON.parse(l) as ExampleResult;
            return [r.id, r.status, r.perturbed, r.original_prediction.label, r.perturbed_prediction.label];
          });
      expect(key(remote)).toEqual(key(local));
    } finally {
      await served.close();
      await sick.close?.();
    }
  });
});
