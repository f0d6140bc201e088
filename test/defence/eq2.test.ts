/**
 * RESEMBLE's Eq. (2) through the package's public defence exports, against values computed by hand:
 *   P_R(y|x) ∝ (1−c)·P_T(y|x) + c·(P_T(y|x)·∏_m P(y|x_m))^{1/(M+1)}, normalised once at the end.
 */
import { describe, expect, it } from 'vitest';
import { geometricMean, resembleCombine, temper } from '../../src/defence/index.ts';

// p(x) = [0.6, 0.4], T = 2: P_T = sqrt(p) / Σ sqrt(p): sqrt(.6) = 0.7745967, sqrt(.4) = 0.6324555, Σ = 1.4070522
//   → [0.5505103, 0.4494897]
const PT = [0.5505103, 0.4494897];

describe('RESEMBLE Eq. (2) against hand-computed values', () => {
  it('tempers by T = 2 as the square roots renormalised', () => {
    const t = temper([0.6, 0.4], 2);
    expect(t[0]).toBeCloseTo(PT[0]!, 6);
    expect(t[1]).toBeCloseTo(PT[1]!, 6);
  });

  it("the issue's example: p = [0.9, 0.1], one canonical [0.2, 0.8], c = 0.9, T = 2 → [0.498, 0.502]", () => {
    // P_T = [sqrt .9, sqrt .1] / Σ = [0.9486833, 0.3162278] / 1.2649111 = [0.75, 0.25]
    // GM (unnormalised) = [sqrt(.75·.2), sqrt(.25·.8)] = [sqrt .15, sqrt .2] = [0.3872983, 0.4472136]
    // mixture = 0.1·[0.75, 0.25] + 0.9·GM = [0.075 + 0.3485685, 0.025 + 0.4024922] = [0.4235685, 0.4274922], Σ = 0.8510607
    //   → [0.4976948, 0.5023052]: the prediction flips to class 1.
    const p = resembleCombine([0.9, 0.1], [[0.2, 0.8]], 0.9, 2);
    expect(p.map((x) => x.toFixed(3))).toEqual(['0.498', '0.502']);
    expect(p[0]).toBeCloseTo(0.4976948, 6);
    expect(p[1]).toBeCloseTo(0.5023052, 6);
  });

  it('M = 2: p(x1) = [0.2, 0.8], p(x2) = [0.5, 0.5], c = 0.8, T = 2', () => {
    // P_T·∏ = [0.5505103·0.2·0.5, 0.4494897·0.8·0.5] = [0.0550510, 0.1797959]; cube roots = [0.3804128, 0.5644081]
    const gm = geometricMean([PT, [0.2, 0.8], [0.5, 0.5]]);
    expect(gm[0]).toBeCloseTo(0.3804128, 6);
    expect(gm[1]).toBeCloseTo(0.5644081, 6);
    // mixture = 0.2·P_T + 0.8·GM = [0.1101021 + 0.3043303, 0.0898979 + 0.4515265] = [0.4144323, 0.5414245], Σ = 0.9558568
    //   → [0.4335716, 0.5664284]
    const p = resembleCombine(
      [0.6, 0.4],
      [
        [0.2, 0.8],
        [0.5, 0.5],
      ],
      0.8,
      2,
    );
    expect(p[0]).toBeCloseTo(0.4335716, 6);
    expect(p[1]).toBeCloseTo(0.5664284, 6);
    expect(p[0]! + p[1]!).toBeCloseTo(1, 12);
  });

  it('M = 3: p(x1) = [0.2, 0.8], p(x2) = [0.5, 0.5], p(x3) = [0.9, 0.1], c = 0.8, T = 2', () => {
    // P_T·∏ = [0.5505103·.2·.5·.9, 0.4494897·.8·.5·.1] = [0.0495459, 0.0179796]; fourth roots = [0.4717935, 0.3661803]
    // mixture = [0.1101021 + 0.3774348, 0.0898979 + 0.2929442] = [0.4875369, 0.3828422], Σ = 0.8703790 → [0.5601432, 0.4398568]
    const p = resembleCombine(
      [0.6, 0.4],
      [
        [0.2, 0.8],
        [0.5, 0.5],
        [0.9, 0.1],
      ],
      0.8,
      2,
    );
    expect(p[0]).toBeCloseTo(0.5601432, 6);
    expect(p[1]).toBeCloseTo(0.4398568, 6);
  });

  it('c = 0 is the tempered original P_T', () => {
    const p = resembleCombine([0.6, 0.4], [[0.2, 0.8]], 0, 2);
    expect(p[0]).toBeCloseTo(0.5505103, 6);
    expect(p[1]).toBeCloseTo(0.4494897, 6);
  });

  it('c = 1 is the geometric mean of P_T and the canonical predictions, normalised', () => {
    // GM = [sqrt(0.5505103·0.2), sqrt(0.4494897·0.8)] = [0.3318163, 0.5996597], Σ = 0.9314760 → [0.3562263, 0.6437737]
    const p = resembleCombine([0.6, 0.4], [[0.2, 0.8]], 1, 2);
    expect(p[0]).toBeCloseTo(0.3562263, 6);
    expect(p[1]).toBeCloseTo(0.6437737, 6);
  });

  it('three classes, T = 1 (no tempering): p = [0.5, 0.3, 0.2], p(x1) = [0.1, 0.6, 0.3], c = 0.5', () => {
    // GM = [sqrt .05, sqrt .18, sqrt .06] = [0.2236068, 0.4242641, 0.2449490]
    // mixture = [0.25 + 0.1118034, 0.15 + 0.2121320, 0.1 + 0.1224745] = [0.3618034, 0.3621320, 0.2224745], Σ = 0.9464099
    //   → [0.3822904, 0.3826376, 0.2350720]
    const p = resembleCombine([0.5, 0.3, 0.2], [[0.1, 0.6, 0.3]], 0.5, 1);
    expect(p[0]).toBeCloseTo(0.3822904, 6);
    expect(p[1]).toBeCloseTo(0.3826376, 6);
    expect(p[2]).toBeCloseTo(0.235072, 6);
  });

  it('no canonical prediction (no mention): the original unchanged', () => {
    expect(resembleCombine([0.6, 0.4], [], 0.8, 2)).toEqual([0.6, 0.4]);
  });
});
