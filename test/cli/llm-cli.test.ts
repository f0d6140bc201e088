/**
 * The issue's own commands, as a user types them: `serve --openai` in one process, `attack typos --model openai:…`
 * in another, with a planted API key that must appear in no output, file or log line; --max-cost stops the run
 * cleanly and --resume finishes it; a second run is answered from the disk cache; cache stats and --dry-run.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDiskCache } from '../../src/query/disk-cache.ts';
import { DEMO_SST2, SST2_DEV, allFilesText as allText, runCli, servedUrl, startCliProcess, tmp } from './helpers.ts';

const PLANTED = 'sk-cli-planted-91c4e07d2b';

describe('textstress attack --model openai:…', () => {
  it('reports tokens and cost, stops at --max-cost, resumes, re-runs from the cache, and never shows the key', async () => {
    // A process: `serve` runs until a signal.
    const server = startCliProcess(['serve', '--model', DEMO_SST2, '--openai', '--openai-model', 'demo', '--port', '0']);
    try {
      const url = `${await servedUrl(server)}/v1`;
      const cacheDir = tmp('cli-llm-cache');
      const env = { OPENAI_API_KEY: PLANTED, TEXTSTRESS_CACHE_DIR: cacheDir };
      const out = tmp('cli-llm');
      const args = (more: string[]): string[] => [
        'attack',
        'typos',
        '--model',
        'openai:demo',
        '--base-url',
        url,
        '--labels',
        'negative,positive',
        '--data',
        SST2_DEV,
        '--k',
        '1',
        '--limit',
        '10',
        '--price-input',
        '0.15',
        '--price-output',
        '0.6',
        '--no-progress',
        ...more,
      ];
      const logs: string[] = [];
      const dry = await runCli(args(['--dry-run']), env);
      logs.push(dry.stdout, dry.stderr);
      expect(dry.code, dry.stderr).toBe(0);
      expect(dry.stdout).toMatch(/Dry run: nothing was sent/);

      const stopped = await runCli(args(['--out', out, '--max-cost', '0.0003']), env);
      logs.push(stopped.stdout, stopped.stderr);
      expect(stopped.code).toBe(1);
      expect(stopped.stderr).toMatch(/stopped before --max-cost \$0\.000300/);
      expect(stopped.stderr).toMatch(/--resume/);

      const resumed = await runCli(args(['--out', out, '--resume', '--max-cost', '1']), env);
      logs.push(resumed.stdout, resumed.stderr);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(resumed.stdout).toMatch(/tokens in \/ out/);
      expect(resumed.stdout).toMatch(/cost of the run\s+│\s+\$0\.\d+/);
      const first = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { usage: { cost_usd: number } };
      expect(first.usage.cost_usd).toBeGreaterThan(0.0003);

      // As a new process would, the next run opens the cache from disk: the answers must have been stored there.
      await openDiskCache(cacheDir).close();
      const again = tmp('cli-llm-again');
      const second = await runCli(args(['--out', again, '--json']), env);
      logs.push(second.stdout, second.stderr);
      const s2 = JSON.parse(second.stdout) as { process: { model_inferences: number; spent: { requests: number } } };
      expect(s2.process.model_inferences).toBe(0);
      expect(s2.process.spent.requests).toBe(0);

      const stats = await runCli(['cache', 'stats', '--cache-dir', cacheDir]);
      expect(stats.stdout).toMatch(/openai:demo at http:\/\/127\.0\.0\.1:\d+\/v1/);

      for (const text of [...logs, stats.stdout, allText(out), allText(again), allText(cacheDir)]) expect(text).not.toContain(PLANTED);
    } finally {
      server.kill();
    }
  });
});
