/**
 * Wrong answers must never look like results: an endpoint whose answers cannot be trusted ends the run with a
 * model error and no summary.json; a reordered but self-consistent answer is read by label name.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, expectCleanError, runCli, tmp } from '../cli/helpers.ts';

type Fault = 'none' | 'swapped' | 'unknown' | 'one-label' | 'three-labels' | 'negative' | 'times-50' | 'huge' | 'sum';

/** An honest lexicon scorer behind /predict, and the ways a broken or lying endpoint answers instead. */
function answer(text: string, fault: Fault): unknown {
  const p = /good|great|fun|charming|best/.test(text) ? 0.8 : 0.3;
  const honest = { kind: 'classes', labels: ['negative', 'positive'], probs: [1 - p, p] };
  switch (fault) {
    case 'none':
      return honest;
    case 'swapped':
      return { kind: 'classes', labels: ['positive', 'negative'], probs: [p, 1 - p] };
    case 'unknown':
      return { kind: 'classes', labels: ['neg', 'pos'], probs: [1 - p, p] };
    case 'one-label':
      return { kind: 'classes', labels: ['positive'], probs: [1] };
    case 'three-labels':
      return { kind: 'classes', labels: ['negative', 'positive', 'neutral'], probs: [1 - p - 0.1, p, 0.1] };
    case 'negative':
      return { kind: 'classes', labels: ['negative', 'positive'], probs: [-0.2, 1.2] };
    case 'times-50':
      return { kind: 'classes', labels: ['negative', 'positive'], probs: [50 * (1 - p), 50 * p] };
    case 'huge':
      return { kind: 'classes', labels: ['negative', 'positive'], probs: [1e308, 1e308] };
    case 'sum':
      return { kind: 'classes', labels: ['negative', 'positive'], probs: [0.5, 0.7] };
  }
}

describe('a lying endpoint', () => {
  let server: Server;
  let base = '';
  beforeAll(async () => {
    server = createServer((req, res) => {
      const fault = (req.url ?? '').split('/')[1] as Fault;
      res.setHeader('content-type', 'application/json');
      if (req.url?.endsWith('/info'))
        return void res.end(JSON.stringify({ task: 'text-classification', labels: ['negative', 'positive'] }));
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const inputs = (JSON.parse(body) as { inputs: { text: string }[] }).inputs;
        res.end(JSON.stringify({ outputs: inputs.map((i) => answer(i.text, fault)) }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  const attack = (fault: Fault, out: string) =>
    runCli([
      'attack',
      'typos',
      '--model',
      `${base}/${fault}`,
      '--data',
      join(ROOT, 'demo', 'reviews.tsv'),
      '--limit',
      '12',
      '--out',
      out,
      '--json',
      '--no-progress',
    ]);

  it.each(['unknown', 'one-label', 'three-labels', 'negative', 'times-50', 'huge', 'sum'] as const)(
    '%s: a model error naming the endpoint and the example, no summary',
    async (fault) => {
      const out = tmp(`fault-${fault}`);
      const r = await attack(fault, out);
      const msg = expectCleanError(r);
      expect(msg).toContain(`${base}/${fault}/predict answered with a malformed response`);
      expect(msg).toMatch(/the run stopped at example \S*reviews\.tsv:\d+/);
      // Every example shared the bad answers: none finished, and the message says so instead of "0 results are kept".
      expect(msg).toMatch(
        /No example was finished yet\. Fix the cause, then rerun the same command with --resume \(or --overwrite: nothing is kept yet\)\.$/,
      );
      expect(msg).toMatch(
        fault === 'unknown' || fault.endsWith('label') || fault.endsWith('labels') ? /label set|labels/ : /not a probability|sum to/,
      );
      expect(existsSync(join(out, 'summary.json'))).toBe(false);
    },
  );

  it('swapped label order: read by label name, so every number equals the honest endpoint’s', async () => {
    const honest = tmp('fault-none');
    const swapped = tmp('fault-swapped');
    expect((await attack('none', honest)).code).toBe(0);
    expect((await attack('swapped', swapped)).code).toBe(0);
    const a = JSON.parse(readFileSync(join(honest, 'summary.json'), 'utf8')) as Record<string, unknown>;
    const b = JSON.parse(readFileSync(join(swapped, 'summary.json'), 'utf8')) as Record<string, unknown>;
    for (const k of ['clean_accuracy', 'attacked_accuracy', 'attack_success_rate', 'stability', 'succeeded', 'failed', 'skipped'])
      expect([k, b[k]]).toEqual([k, a[k]]);
    // No record contradicts itself: the predicted label and "correct" agree with gold.
    for (const line of readFileSync(join(swapped, 'results.jsonl'), 'utf8').trim().split('\n')) {
      const r = JSON.parse(line) as { gold: string; original_prediction: { label: string }; original_correct: boolean };
      const gold = r.gold === '1' ? 'positive' : r.gold === '0' ? 'negative' : r.gold;
      expect(r.original_correct).toBe(r.original_prediction.label === gold);
    }
  });
});
