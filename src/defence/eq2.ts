/**
 * RESEMBLE's combination rule, Eq. (2) of Balasubramanian et al. (2020), as the shared plan fixes it:
 *   P(y|x) = (1 − c)·softmax(z(x)/T) + c·GM(p(x), p(x_1), …, p(x_M))
 * c = the annotator's confidence in the input's mentions (their product), z(x) the original's logits, x_m the
 * input with every mention replaced by canonical entity m, GM the normalised geometric mean of the (untempered)
 * class distributions. Adapters give probabilities, not logits: log p differs from z by a constant per input,
 * which softmax ignores, so softmax(log p / T) = softmax(z / T).
 */

/** Probabilities below this are taken as this before logs (a model may answer an exact 0). */
const FLOOR = 1e-12;

/** softmax(log p / T): the distribution p tempered by T (T > 1 flattens, T < 1 sharpens). */
export function temper(probs: readonly number[], temperature: number): number[] {
  const logits = probs.map((p) => Math.log(Math.max(p, FLOOR)) / temperature);
  const top = Math.max(...logits);
  const exps = logits.map((z) => Math.exp(z - top));
  const sum = exps.reduce((a, b) => a + b, 0);
  return exps.map((e) => e / sum);
}

/** Normalised geometric mean of class distributions (all over the same labels). */
export function geometricMean(dists: readonly (readonly number[])[]): number[] {
  const k = dists[0]!.length;
  const logs = Array.from({ length: k }, (_, j) => dists.reduce((s, d) => s + Math.log(Math.max(d[j]!, FLOOR)), 0) / dists.length);
  const top = Math.max(...logs);
  const exps = logs.map((l) => Math.exp(l - top));
  const sum = exps.reduce((a, b) => a + b, 0);
  return exps.map((e) => e / sum);
}

/**
 * Eq. (2): the original's distribution, the canonical inputs' distributions (M of them), the confidence c and T.
 * With no canonical distribution (no mention) the original distribution is returned as it is.
 */
export function resembleCombine(
  original: readonly number[],
  canonical: readonly (readonly number[])[],
  confidence: number,
  temperature: number,
): number[] {
  if (canonical.length === 0) return original.slice();
  const tempered = temper(original, temperature);
  const gm = geometricMean([original, ...canonical]);
  return tempered.map((t, j) => (1 - confidence) * t + confidence * gm[j]!);
}
