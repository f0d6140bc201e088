/**
 * Where an encoder notices grammatical errors (Yin et al. 2020, §5 and Appendices D, F): per error type and layer,
 * a probe's sentence-level accuracy (Table 7) and whether its attention's two heaviest tokens include the error
 * (Table 8); per layer and head of the frozen model, the same top-2 check with no training (Figure 3).
 */
import type { Encoder } from '../../models/encoder/index.ts';
import type { GrammarErrorType } from '../../perturb/grammar/index.ts';
import { extractFeatures, tokensOfWords, type HeadQuery, type SentenceFeatures } from './features.ts';
import type { Split } from './pairs.ts';
import type { ProbeSentence } from './layer-probe-sentences.ts';
import { mcnemarExact, pairedCounts, wilson, type Interval } from '../../stats/index.ts';
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

/** A share over test sentences: hits / n (n = 0: not measured), with its Wilson 95% interval. */
export interface Share {
  hits: number;
  n: number;
  interval?: Interval;
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
  /** Usable sentences per split (a minimal pair counts as two). */
  counts: Record<Split, number>;
  /** Test sentences with an error (Table 8's n). */
  testWithErrors?: number;
  /** Per layer 0…L: probe accuracy on the test split (Table 7). */
  accuracy?: Share[];
  /** Per layer: probe top-2 attention includes an error token, over test sentences with an error (Table 8). */
  localisation?: Share[];
  /** What a random pair of tokens would hit: mean over those sentences of P(2 random tokens include an error token). */
  chance: number;
  /** Per layer, per head: top-2 of the head's profile includes an error token (Figure 3). */
  heads?: Share[][];
  /** The same on the dev split's sentences with an error: where the best head is chosen (absent in older runs). */
  headsDev?: Share[][];
  /** The best contextual layer against layer 0 on the same test sentences (exact McNemar): accuracy, localisation. */
  accuracyBestVsLayer0?: LayerComparison;
  localisationBestVsLayer0?: LayerComparison;
  probeEpochs?: number[];
  probeSeconds?: number[];
  /** Per layer: the probe's accuracy on the dev split (where its epoch, and the best layer, are chosen). */
  devAccuracy?: number[];
  /** Per layer: localisation on the dev split's sentences with an error (null: none); absent in older runs. */
  devLocalisation?: (number | null)[];
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

/**
 * The paired test of the best contextual layer against layer 0 (embeddings): the same test sentences, the probe's
 * verdict right or wrong on each; exact McNemar on the sentences only one of the two gets right. The best layer is
 * chosen on the dev split, so the test sentences it is compared on played no part in choosing it (no correction for
 * the choice among layers is needed; one chosen on the test sentences would be favoured by their own noise).
 */
export interface LayerComparison {
  /** The best contextual layer: the highest score on the dev split (`chosenOn`), the first on ties. */
  layer: number;
  /** Right on the best layer only, and on layer 0 only (their difference: the best layer's gain in sentences). */
  onlyBest: number;
  onlyLayer0: number;
  /** Exact two-sided McNemar p-value. */
  p: number;
  /** Where the layer was chosen: the dev split (absent in runs recorded before issue 34: on the test sentences). */
  chosenOn?: 'dev';
}

const share = (hits: number, n: number): Share => ({ hits, n, interval: wilson(hits, n) });

/**
 * The layer ≥ 1 with the highest score (the first on ties; null scores skipped); -1 when none has one. What the
 * best layer is chosen by: dev-split scores, never the test sentences it is then measured on.
 */
export function bestLayerOf(scores: readonly (number | null | undefined)[]): number {
  let best = -1;
  for (let l = 1; l < scores.length; l++) {
    const v = scores[l];
    if (v !== null && v !== undefined && Number.isFinite(v) && (best < 0 || v > scores[best]!)) best = l;
  }
  return best;
}

/** The layer chosen on dev (`devScores`), and its McNemar test against layer 0 on the test verdicts `right`. */
export function bestAgainstLayer0(right: readonly boolean[][], devScores: readonly (number | null)[]): LayerComparison | undefined {
  if (right.length < 2) return undefined;
  const best = bestLayerOf(devScores);
  if (best < 0) return undefined;
  const c = pairedCounts(right[best]!, right[0]!);
  return { layer: best, onlyBest: c.onlyA, onlyLayer0: c.onlyB, p: mcnemarExact(c.onlyA, c.onlyB), chosenOn: 'dev' };
}

/** "L2 vs L0: −7 sentences (7 right only on L2, 14 only on L0), McNemar p 0.189": the comparison, signed. */
export function comparisonText(c: LayerComparison, unit = 'sentences'): string {
  const d = c.onlyBest - c.onlyLayer0;
  const signed = d > 0 ? `+${d}` : d < 0 ? `−${-d}` : '±0';
  const p = c.p < 0.001 ? '< 0.001' : c.p.toFixed(3);
  return `L${c.layer} vs L0: ${signed} ${unit} (${c.onlyBest} right only on L${c.layer}, ${c.onlyLayer0} only on L0), McNemar p ${p}`;
}

/**
 * Runs the probes and head checks over the labelled sentences of every type in `sentences` (minimal pairs as
 * pairsToSentences gives them, or the paper's design).
 */
export async function probeLayers(
  encoder: Encoder,
  sentences: readonly ProbeSentence[],
  opts: LayerProbeOptions,
): Promise<LayerProbeResult> {
  const { layers, heads, hiddenSize } = encoder.info;
  const types = [...new Set(sentences.map((p) => p.type))];
  const results: TypeResult[] = [];
  const examples: AttentionExample[] = [];
  let extractSeconds = 0;
  let trainSeconds = 0;
  for (const type of types) {
    const ofType = sentences.filter((p) => p.type === type);
    // Head profiles of the sentences with an error, on test (Figure 3) and dev (where the best head is chosen).
    const headsFor = new Set<number>(
      opts.heads ? ofType.flatMap((p, k) => ((p.split === 'test' || p.split === 'dev') && p.label === 1 ? [k] : [])) : [],
    );
    opts.onProgress?.(`${type}: encoding ${ofType.length} sentences`);
    const t0 = performance.now();
    const feats = await extractFeatures(
      encoder,
      ofType.map((p) => p.words),
      { headsFor, headQuery: opts.headQuery ?? 'all' },
    );
    extractSeconds += (performance.now() - t0) / 1000;
    // a sentence whose error words were cut off by the model's length limit cannot be localised: left out, with the
    // other side of its pair
    const all = ofType.map((p, k) => ({ p, f: feats[k]!, errTok: tokensOfWords(feats[k]!, p.errorWords) }));
    const dropped = new Set(all.filter((x) => x.f.len === 0 || (x.p.label === 1 && x.errTok.length === 0)).map((x) => x.p.group));
    const usable = all.filter((x) => !dropped.has(x.p.group));
    const split = (s: Split) => usable.filter((x) => x.p.split === s);
    const counts = { train: split('train').length, dev: split('dev').length, test: split('test').length };
    const test = split('test');
    const testErr = test.filter((x) => x.p.label === 1);
    const dev = split('dev');
    const devErr = dev.filter((x) => x.p.label === 1);
    const result: TypeResult = {
      type,
      counts,
      testWithErrors: testErr.length,
      chance: testErr.length ? testErr.reduce((a, x) => a + randomTop2(x.f.len, x.errTok.length), 0) / testErr.length : Number.NaN,
    };
    if (opts.heads) {
      result.heads = headShares(
        testErr.map((x) => ({ f: x.f, errTok: x.errTok })),
        layers,
        heads,
      );
      result.headsDev = headShares(
        devErr.map((x) => ({ f: x.f, errTok: x.errTok })),
        layers,
        heads,
      );
    }
    if (opts.probes) {
      result.accuracy = [];
      result.localisation = [];
      result.probeEpochs = [];
      result.probeSeconds = [];
      result.devAccuracy = [];
      result.devLocalisation = [];
      const asExamples = (xs: typeof usable, layer: number): LayerProbeExample[] =>
        xs.map((x) => ({ feats: x.f.perLayer[layer]!, len: x.f.len, label: x.p.label }));
      const errAt = test.flatMap((x, i) => (x.p.label === 1 ? [i] : []));
      const devErrAt = dev.flatMap((x, i) => (x.p.label === 1 ? [i] : []));
      const rightPerLayer: boolean[][] = [];
      const foundPerLayer: boolean[][] = [];
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
        const right = testEx.map((e, i) => (pred.prob[i]! > 0.5 ? 1 : 0) === e.label);
        const hits = right.filter(Boolean).length;
        rightPerLayer.push(right);
        result.accuracy.push(share(hits, testEx.length));
        const errAtt = errAt.map((i) => pred.attention[i]!);
        const found = testErr.map((x, k) => topK(errAtt[k]!, 2).some((t) => x.errTok.includes(t)));
        foundPerLayer.push(found);
        result.localisation.push(share(found.filter(Boolean).length, testErr.length));
        result.probeEpochs.push(probe.epochs);
        result.probeSeconds.push(probe.trainSeconds);
        result.devAccuracy.push(probe.devAccuracy);
        // Localisation on dev, where the best layer for Table 8 is chosen (the test sentences only measure it).
        const devPred = devErr.length ? probe.predict(asExamples(dev, layer)) : undefined;
        const devFound = devPred
          ? devErr.filter((x, k) => topK(devPred.attention[devErrAt[k]!]!, 2).some((t) => x.errTok.includes(t)))
          : [];
        result.devLocalisation.push(devErr.length ? devFound.length / devErr.length : null);
        trainSeconds += probe.trainSeconds;
        // The layer whose attention the examples show: the best on dev, as Table 7's comparison chooses it.
        if (testEx.length && probe.devAccuracy > bestLayer.acc) {
          bestLayer = { layer, acc: probe.devAccuracy, att: errAtt, prob: errAt.map((i) => pred.prob[i]!) };
        }
        probe.dispose();
      }
      const accuracyTest = bestAgainstLayer0(rightPerLayer, result.devAccuracy);
      const localisationTest = bestAgainstLayer0(foundPerLayer, result.devLocalisation);
      if (accuracyTest) result.accuracyBestVsLayer0 = accuracyTest;
      if (localisationTest) result.localisationBestVsLayer0 = localisationTest;
      for (let k = 0; k < Math.min(opts.examples ?? 2, testErr.length); k++) {
        const x = testErr[k]!;
        examples.push({
          type,
          layer: bestLayer.layer,
          tokens: x.f.tokens,
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
