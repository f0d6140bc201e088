/**
 * RESEMBLE's combination rule, Eq. (2) of Balasubramanian et al. (2020, §4):
 *   P_R(y|x) ∝ (1 − c)·P_T(y|x) + c·(P_T(y|x)·∏_m P(y|x_m))^{1/(M+1)}
 * c = the annotator's confidence in the input's mentions (their product), P_T(y|x) = softmax(z(x)/T) the original's
 * tempered distribution, x_m the input with every mention replaced by canonical entity m and P(y|x_m) its
 * UNtempered distribution. The tempered original goes inside the geometric mean too; the geometric mean is not
 * normalised on its own: the whole mixture is normalised once, at the end. Adapters give probabilities, not logits:
 * log p differs from z by a constant per input, which softmax ignores, so softmax(log p / T) = softmax(z / T).
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

/** Unnormalised geometric mean per class, (∏_d d[y])^{1/D}, of class distributions (all over the same labels). */
export function geometricMean(dists: readonly (readonly number[])[]): number[] {
  const k = dists[0]!.length;
  return Array.from({ length: k }, (_, j) => Math.exp(dists.reduce((s, d) => s + Math.log(Math.max(d[j]!, FLOOR)), 0) / dists.length));
}

/**
 * Eq. (2): the original's (untempered) distribution, the canonical inputs' distributions (M of them), the
 * confidence c and T. With no canonical distribution (no mention) the original distribution is returned as it is.
 */
export function resembleCombine(
  original: readonly number[],
  canonical: readonly (readonly number[])[],
  confidence: number,
  temperature: number,
): number[] {
  if (canonical.length === 0) return original.slice();
  const tempered = temper(original, temperature);
  const gm = geometricMean([tempered, ...canonical]);
  const mixed = tempered.map((t, j) => (1 - confidence) * t + confidence * gm[j]!);
  const sum = mixed.reduce((a, b) => a + b, 0);
  return mixed.map((x) => x / sum);
}
