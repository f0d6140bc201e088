/**
 * The encoder probes on the full shared data (issue 13's checks): the cloze test on demo-mlm with its default
 * sentences (CoLA dev + SST-2 dev, held out from its training) shows a bigger drop next to the error than six
 * tokens away; a layer probe for word-order errors, which no single token shows, is better on contextual layers
 * than on the embeddings, at detection and at localisation.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tmp } from '../cli/helpers.ts';
import { shared } from './helpers.data.ts';

interface Metrics {
  pairs_used: number;
  near_error_drop: number;
  far_drop: number;
  layer0_accuracy: number;
  best_layer_accuracy: number;
  layer0_localisation: number;
  best_layer_localisation: number;
}
const metricsOf = (out: string): Metrics => (JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { metrics: Metrics }).metrics;

describe('encoder probes on the full data', () => {
  it('probe cloze on demo-mlm: the tokens next to the error lose more probability than those six away', async () => {
    const out = tmp('cloze-data');
    const r = await runCli(['probe', 'cloze', '--model', 'demo-mlm', '--out', out, '--no-progress']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(shared('cola/dev.tsv'));
    const m = metricsOf(out);
    expect(m.pairs_used).toBeGreaterThan(500);
    expect(m.near_error_drop).toBeGreaterThan(0.01);
    expect(m.near_error_drop - m.far_drop).toBeGreaterThan(0.01);
  }, 600_000);

  it('probe layers on demo-mlm, word-order errors: contextual layers beat layer 0 at detection and localisation', async () => {
    const out = tmp('layers-data');
    const r = await runCli([
      'probe',
      'layers',
      '--model',
      'demo-mlm',
      '--error-types',
      'Worder',
      '--design',
      'pairs',
      '--pairs',
      '500',
      '--no-heads',
      '--out',
      out,
      '--no-progress',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Table 7 layout/);
    const m = metricsOf(out);
    expect(m.best_layer_accuracy - m.layer0_accuracy).toBeGreaterThan(0.08);
    expect(m.best_layer_localisation - m.layer0_localisation).toBeGreaterThan(0.2);
  }, 600_000);
});
