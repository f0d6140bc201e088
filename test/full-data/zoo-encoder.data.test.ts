/**
 * Hidden states and attentions on every model of ../shared/zoo (nine families, made with Hugging Face transformers),
 * checked against Hugging Face's own definitions. The zoo's graphs keep torch's module paths in their node names
 * (`/m/deberta/encoder/layer.0/...`); textstress never reads names (src/models/encoder/graph.ts works from the
 * structure), but this test does, to say which tensor Hugging Face returns:
 *  - hidden_states[0]: what the encoder's first layer receives — the embeddings module's output, or ALBERT's
 *    `embedding_hidden_mapping_in` / ELECTRA's `embeddings_project` after it;
 *  - hidden_states[i + 1]: the output of encoder layer i (ModernBERT: before `final_norm`, which HF applies after
 *    collecting them);
 *  - attentions[i]: the softmax in layer i's attention.
 * Then every layer probe, head probe and (on the masked LMs) cloze test runs on every model.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEncoder, type Encoder } from '../../src/models/encoder/encoder.ts';
import { decodeModel, findEncoderTaps } from '../../src/models/encoder/graph.ts';
import { runCli, tmp } from '../cli/helpers.ts';
import { ROOT } from './helpers.data.ts';

const ZOO = resolve(ROOT, '..', 'shared', 'zoo');
const MODELS = existsSync(ZOO) ? readdirSync(ZOO).filter((m) => existsSync(join(ZOO, m, 'onnx', 'model.onnx'))) : [];

interface Config {
  model_type: string;
  num_hidden_layers?: number;
  n_layers?: number;
  architectures?: string[];
}

/** Module-path prefixes of Hugging Face's modules, per family, for hidden state 0, layer i and layer i's attention. */
function hfScopes(
  cfg: Config,
  names: readonly string[],
): { embeddings: string; layer: (i: number) => string; attention: (i: number) => string } {
  const base = names.find((n) => n.includes('/embeddings/'))!.split('/embeddings/')[0]!;
  const suffix = (i: number): string => (i === 0 ? '' : `_${i}`);
  switch (cfg.model_type) {
    case 'albert': {
      const layer = `${base}/encoder/albert_layer_groups.0/albert_layers.0`;
      // one shared layer run L times: torch names the i-th call's modules with the suffix _i
      return {
        embeddings: `${base}/encoder/embedding_hidden_mapping_in/`,
        layer: (i) => `${layer}/full_layer_layer_norm${suffix(i)}/`,
        attention: (i) => `${layer}/attention${suffix(i)}/`,
      };
    }
    case 'distilbert':
      return {
        embeddings: `${base}/embeddings/`,
        layer: (i) => `${base}/transformer/layer.${i}/`,
        attention: (i) => `${base}/transformer/layer.${i}/attention/`,
      };
    case 'modernbert':
      return { embeddings: `${base}/embeddings/`, layer: (i) => `${base}/layers.${i}/`, attention: (i) => `${base}/layers.${i}/attn/` };
    default: {
      const project = names.some((n) => n.startsWith(`${base}/embeddings_project/`));
      return {
        embeddings: project ? `${base}/embeddings_project/` : `${base}/embeddings/`,
        layer: (i) => `${base}/encoder/layer.${i}/`,
        attention: (i) => `${base}/encoder/layer.${i}/attention/`,
      };
    }
  }
}

describe('every zoo model: hidden states and attentions as Hugging Face defines them', () => {
  it('finds 15 zoo models', () => expect(MODELS).toHaveLength(15));

  it.each(MODELS)('%s: the tensors found by structure are the ones HF returns', (m) => {
    const dir = join(ZOO, m);
    const cfg = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as Config;
    const layers = cfg.num_hidden_layers ?? cfg.n_layers!;
    const proto = decodeModel(readFileSync(join(dir, 'onnx', 'model.onnx')), m);
    const nodes = proto.graph!.node!;
    const names = nodes.map((n) => n.name ?? '');
    const s = hfScopes(cfg, names);
    /** The output of the last node inside a module: the module's output. */
    const outputOf = (prefix: string): string => {
      const last = nodes.filter((n) => (n.name ?? '').startsWith(prefix)).at(-1);
      expect(last, `no node under ${prefix}`).toBeDefined();
      return last!.output![0]!;
    };
    const softmaxIn = (prefix: string): string => {
      const sm = nodes.filter((n) => n.opType === 'Softmax' && (n.name ?? '').startsWith(prefix));
      expect(sm, `one softmax under ${prefix}`).toHaveLength(1);
      return sm[0]!.output![0]!;
    };
    const want = {
      hiddenStates: [outputOf(s.embeddings), ...Array.from({ length: layers }, (_, i) => outputOf(s.layer(i)))],
      attentions: Array.from({ length: layers }, (_, i) => softmaxIn(s.attention(i))),
    };
    const taps = findEncoderTaps(proto, layers, m);
    expect({ hiddenStates: taps.hiddenStates, attentions: taps.attentions }).toEqual(want);
    expect(taps.norm).toBe(cfg.model_type === 'modernbert' ? 'pre' : 'post');
  });
});

describe('every zoo model: the exposed tensors hold what their names say', () => {
  const encoders = new Map<string, Encoder>();
  beforeAll(async () => {
    for (const m of MODELS) encoders.set(m, await loadEncoder(join(ZOO, m), { maxLength: 64 }));
  }, 120_000);
  afterAll(async () => {
    for (const e of encoders.values()) await e.close();
  });

  it.each(MODELS)(
    '%s: attention rows sum to 1 over the real tokens and give padding nothing; hidden states [batch, tokens, hidden]',
    async (m) => {
      const enc = encoders.get(m)!;
      const long = enc.encodeWords(['the', 'film', 'is', 'a', 'quiet', 'delight'], ['', ' ', ' ', ' ', ' ', ' ', ' .']).ids;
      const short = enc.encodeWords(['a', 'dull', 'film'], ['', ' ', ' ', '']).ids;
      const out = await enc.run([long, short], { hidden: true, attentions: true });
      const { layers, heads, hiddenSize } = enc.info;
      const T = out.width;
      expect(T).toBe(long.length);
      expect(out.hidden).toHaveLength(layers + 1);
      for (const h of out.hidden!) expect(h.length).toBe(2 * T * hiddenSize);
      expect(out.attentions).toHaveLength(layers);
      for (const a of out.attentions!) {
        expect(a.length).toBe(2 * heads * T * T);
        for (const [row, len] of [
          [0, long.length],
          [1, short.length],
        ] as const) {
          for (let h = 0; h < heads; h++)
            for (let q = 0; q < len; q++) {
              let sum = 0;
              let pad = 0;
              for (let k = 0; k < T; k++) {
                const p = a[((row * heads + h) * T + q) * T + k]!;
                if (k < len) sum += p;
                else pad += p;
              }
              expect(sum).toBeCloseTo(1, 4);
              expect(pad).toBeLessThan(1e-4);
            }
        }
      }
    },
  );
});

const MLMS = MODELS.filter((m) => m.endsWith('-mlm'));

describe('every zoo model: the encoder probes run', () => {
  it.each(MODELS)(
    '%s: probe heads and probe layers',
    async (m) => {
      for (const verb of ['heads', 'layers']) {
        const out = tmp(`zoo-${verb}-${m}`);
        const extra = verb === 'layers' ? ['--design', 'pairs', '--max-epochs', '3', '--no-heads'] : [];
        const r = await runCli([
          'probe',
          verb,
          '--model',
          join(ZOO, m),
          '--error-types',
          'ArtOrDet',
          '--pairs',
          '60',
          '--text',
          'wordnet',
          ...extra,
          '--out',
          out,
          '--no-progress',
        ]);
        expect(r.code, `${verb}: ${r.stderr}`).toBe(0);
        expect(existsSync(join(out, 'summary.json'))).toBe(true);
      }
    },
    120_000,
  );

  it.each(MLMS)(
    '%s: probe cloze',
    async (m) => {
      const out = tmp(`zoo-cloze-${m}`);
      const r = await runCli([
        'probe',
        'cloze',
        '--model',
        join(ZOO, m),
        '--error-types',
        'ArtOrDet',
        '--pairs',
        '40',
        '--text',
        'wordnet',
        '--out',
        out,
        '--no-progress',
      ]);
      expect(r.code, r.stderr).toBe(0);
      const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { metrics: { pairs_used: number } };
      expect(summary.metrics.pairs_used).toBeGreaterThan(0);
    },
    120_000,
  );
});
