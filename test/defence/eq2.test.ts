import { describe, expect, it } from 'vitest';
import { geometricMean, resembleCombine, temper } from '../../src/defence/eq2.ts';

// Two classes, c = 0.8, T = 2. p(x) = [0.6, 0.4].
// softmax(log p / 2) = sqrt(p) / Σ sqrt(p):  sqrt(.6) = 0.7745967, sqrt(.4) = 0.6324555, Σ = 1.4070522
//   → [0.5505103, 0.4494897]
const tempered = [0.7745967 / 1.4070522, 0.6324555 / 1.4070522];

describe('RESEMBLE Eq. (2) against hand-computed values', () => {
  it('tempers by T = 2 as the square roots renormalised', () => {
    const t = temper([0.6, 0.4], 2);
    expect(t[0]).toBeCloseTo(0.5505103, 6);
    expect(t[1]).toBeCloseTo(0.4494897, 6);
    expect(t[0]).toBeCloseTo(tempered[0]!, 6);
  });

  it('M = 1: p(x1) = [0.2, 0.8]', () => {
    // GM: sqrt(.6·.2) = sqrt(.12) = 0.3464102, sqrt(.4·.8) = sqrt(.32) = 0.5656854, Σ = 0.9120956
    //   → [0.3797959, 0.6202041]
    const gm = [0.3464102 / 0.9120956, 0.5656854 / 0.9120956];
    expect(
      geometricMean([
        [0.6, 0.4],
        [0.2, 0.8],
      ])[0],
    ).toBeCloseTo(gm[0]!, 6);
    // P = 0.2·tempered + 0.8·GM = [0.1101021 + 0.3038367, 0.0898979 + 0.4961633] = [0.4139388, 0.5860612]
    const p = resembleCombine([0.6, 0.4], [[0.2, 0.8]], 0.8, 2);
    expect(p[0]).toBeCloseTo(0.4139388, 6);
    expect(p[1]).toBeCloseTo(0.5860612, 6);
    expect(p[0]).toBeCloseTo(0.2 * tempered[0]! + 0.8 * gm[0]!, 6);
  });

  it('M = 3: p(x1) = [0.2, 0.8], p(x2) = [0.5, 0.5], p(x3) = [0.9, 0.1]', () => {
    // GM over the original and 3 canonical: (.6·.2·.5·.9)^(1/4) = .054^(1/4) = 0.4820571,
    // (.4·.8·.5·.1)^(1/4) = .016^(1/4) = 0.3556558, Σ = 0.8377129 → [0.5754443, 0.4245557]
    const gm = [0.4820571 / 0.8377129, 0.3556558 / 0.8377129];
    // P = 0.2·[0.5505103, 0.4494897] + 0.8·[0.5754443, 0.4245557] = [0.5704575, 0.4295425]
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
    expect(p[0]).toBeCloseTo(0.5704575, 6);
    expect(p[1]).toBeCloseTo(0.4295425, 6);
    expect(p[0]).toBeCloseTo(0.2 * tempered[0]! + 0.8 * gm[0]!, 6);
    expect(p[0]! + p[1]!).toBeCloseTo(1, 12);
  });

  it('c = 0 is the tempered original; no canonical prediction (no mention) is the original unchanged', () => {
    expect(resembleCombine([0.6, 0.4], [[0.2, 0.8]], 0, 2)[0]).toBeCloseTo(0.5505103, 6);
    expect(resembleCombine([0.6, 0.4], [], 0.8, 2)).toEqual([0.6, 0.4]);
  });
});
