/**
 * Where an encoder notices grammatical errors (Yin et al. 2020, §5 and Appendices D, F): per error type and layer,
 * a probe's sentence-level accuracy (Table 7) and whether its attention's two heaviest tokens include the error
 * (Table 8); per layer and head of the frozen model, the same top-2 check with no training (Figure 3).
 */
import type { Encoder } from '../../models/encoder/index.ts';
import type { GrammarErrorType } from '../../perturb/grammar/index.ts';
import { extractFeatures, tokensOfWords, type HeadQuery, type SentenceFeatures } from './features.ts';
import type { MinimalPair, Split } from './pairs.ts';
import { PAPER_LAYER_PROBE, topK, trainLayerProbe, type LayerProbeExample, type ProbeSettings } from './classifier.ts';

export interface LayerProbeOptions {
  /** Train probes (Tables 7 and 8); false: heads only (Figure 3). */
  probes: boolean;
  heads: boolean;
  headQuery?: HeadQuery;
  probe?: Partial<Omit<ProbeSettings, 'seed'>>;
  seed: number;
  /** Test sentences with an error shown per type with the probe's attention (Appendix E). */
  examples?: number;
  onProgress?: (what: string) => void;
}

/** A share over test sentences: hits / n (n = 0: not measured). */
export interface Share {
  hits: number;
  n: number;
}

export interface AttentionExample {
  type: GrammarErrorType;
  layer: number;
  tokens: string[];
  attention: number[];
  errorTokens: number[];
  probability: number;
}

export interface TypeResult {
  type: GrammarErrorType;
  counts: Record<Split, number>;
  /** Per layer 0…L: probe accuracy on the test split (Table 7). */
  accuracy?: Share[];
  /** Per layer: probe top-2 attention includes an error token, over test sentences with an error (Table 8). */
  localisation?: Share[];
  /** What a random pair of tokens would hit: mean over those sentences of P(2 random tokens include an error token). */
  chance: number;
  /** Per layer, per head: top-2 of the head's profile includes an error token (Figure 3). */
  heads?: Share[][];
  probeEpochs?: number[];
  probeSeconds?: number[];
  devAccuracy?: number[];
}

export interface LayerProbeResult {
  layers: number;
  heads: number;
  types: TypeResult[];
  examples: AttentionExample[];
  extractSeconds: number;
  trainSeconds: number;
}

/** P(two distinct random tokens of `len` include one of `k` error tokens). */
export function randomTop2(len: number, k: number): number {
  if (len <= 2) return k > 0 ? 1 : 0;
  const miss = ((len - k) * (len - k - 1)) / (len * (len - 1));
  return 1 - Math.max(0, miss);
}

const share = (hits: number, n: number): Share => ({ hits, n });

/** Runs the probes and head checks over pairs of every type in `pairs`. */
export async function probeLayers(encoder: Encoder, pairs: readonly MinimalPair[], opts: LayerProbeOptions): Promise<LayerProbeResult> {
  const { layers, heads, hiddenSize } = encoder.info;
  const types = [...new Set(pairs.map((p) => p.type))];
  const results: TypeResult[] = [];
  const examples: AttentionExample[] = [];
  let extractSeconds = 0;
  let trainSeconds = 0;
  for (const type of types) {
    const ofType = pairs.filter((p) => p.type === type);
    // sentence 2k = pair k clean, 2k+1 = pair k with the error
    const sentences = ofType.flatMap((p) => [p.clean, p.error]);
    const headsFor = new Set<number>(opts.heads ? ofType.flatMap((p, k) => (p.split === 'test' ? [2 * k + 1] : [])) : []);
    opts.onProgress?.(`${type}: encoding ${sentences.length} sentences`);
    const t0 = performance.now();
    const feats = await extractFeatures(encoder, sentences, { headsFor, headQuery: opts.headQuery ?? 'all' });
    extractSeconds += (performance.now() - t0) / 1000;
    // a pair whose error word was cut off by the model's length limit cannot be localised: left out
    const usable = ofType
      .map((p, k) => ({ p, clean: feats[2 * k]!, error: feats[2 * k + 1]!, errTok: tokensOfWords(feats[2 * k + 1]!, p.errorWords) }))
      .filter((x) => x.errTok.length > 0 && x.clean.len > 0);
    const split = (s: Split) => usable.filter((x) => x.p.split === s);
    const counts = { train: split('train').length, dev: split('dev').length, test: split('test').length };
    const test = split('test');
    const result: TypeResult = {
      type,
      counts,
      chance: test.length ? test.reduce((a, x) => a + randomTop2(x.error.len, x.errTok.length), 0) / test.length : Number.NaN,
    };
    if (opts.heads)
      result.heads = headShares(
        test.map((x) => ({ f: x.error, errTok: x.errTok })),
        layers,
        heads,
      );
    if (opts.probes) {
      result.accuracy = [];
      result.localisation = [];
      result.probeEpochs = [];
      result.probeSeconds = [];
      result.devAccuracy = [];
      const asExamples = (xs: typeof usable, layer: number): LayerProbeExample[] =>
        xs.flatMap((x) => [
          { feats: x.clean.perLayer[layer]!, len: x.clean.len, label: 0 as const },
          { feats: x.error.perLayer[layer]!, len: x.error.len, label: 1 as const },
        ]);
      let bestLayer = { layer: 0, acc: -1, att: [] as Float32Array[], prob: [] as number[] };
      for (let layer = 0; layer <= layers; layer++) {
        opts.onProgress?.(`${type}: probe on layer ${layer}`);
        const probe = await trainLayerProbe(asExamples(split('train'), layer), asExamples(split('dev'), layer), hiddenSize, {
          ...PAPER_LAYER_PROBE,
          ...opts.probe,
          seed: opts.seed + layer,
        });
        const testEx = asExamples(test, layer);
        const pred = probe.predict(testEx);
        const right = testEx.filter((e, i) => (pred.prob[i]! > 0.5 ? 1 : 0) === e.label).length;
        result.accuracy.push(share(right, testEx.length));
        const errAtt = test.map((_, k) => pred.attention[2 * k + 1]!);
        const found = test.filter((x, k) => topK(errAtt[k]!, 2).some((t) => x.errTok.includes(t))).length;
        result.localisation.push(share(found, test.length));
        result.probeEpochs.push(probe.epochs);
        result.probeSeconds.push(probe.trainSeconds);
        result.devAccuracy.push(probe.devAccuracy);
        trainSeconds += probe.trainSeconds;
        if (testEx.length && right / testEx.length > bestLayer.acc) {
          bestLayer = { layer, acc: right / testEx.length, att: errAtt, prob: test.map((_, k) => pred.prob[2 * k + 1]!) };
        }
        probe.dispose();
      }
      for (let k = 0; k < Math.min(opts.examples ?? 2, test.length); k++) {
        const x = test[k]!;
        examples.push({
          type,
          layer: bestLayer.layer,
          tokens: x.error.tokens,
          attention: Array.from(bestLayer.att[k]!, (v) => Math.round(v * 1e4) / 1e4),
          errorTokens: x.errTok,
          probability: Math.round(bestLayer.prob[k]! * 1e4) / 1e4,
        });
      }
    }
    results.push(result);
  }
  return { layers, heads, types: results, examples, extractSeconds, trainSeconds };
}

function headShares(items: { f: SentenceFeatures; errTok: number[] }[], layers: number, heads: number): Share[][] {
  return Array.from({ length: layers }, (_, l) =>
    Array.from({ length: heads }, (_, h) => {
      const hits = items.filter(({ f, errTok }) => topK(f.heads![l]![h]!, 2).some((t) => errTok.includes(t))).length;
      return share(hits, items.length);
    }),
  );
}
