/**
 * Algorithm 2 of Balasubramanian et al. (2020), the bandit part: one Beta(α, β) per candidate name, starting at
 * (1, 1); each round a Thompson draw θ ~ Beta(α, β) for every name picks the k names to evaluate; an evaluation on
 * B sampled sentences moves the posterior by the name's net harm (the share of sentences it made worse, less the
 * share it made better). Pure: no model, no files; every draw comes from the caller's Rng.
 */
import betaFactory from '@stdlib/random-base-beta';
import type { Rng } from '../../../util/rng.ts';

/** One candidate's posterior and tallies (JSON: it is part of the checkpoint). */
export interface Arm {
  name: string;
  alpha: number;
  beta: number;
  /** Times evaluated (rounds in which it was among the top k). */
  evaluated: number;
  /** Sentences it was tried on, and of those, how many got worse / better, over all its evaluations. */
  sentences: number;
  worse: number;
  better: number;
}

/** A fresh arm: Beta(1, 1), nothing seen. */
export function newArm(name: string): Arm {
  return { name, alpha: 1, beta: 1, evaluated: 0, sentences: 0, worse: 0, better: 0 };
}

/** One evaluation's outcome: of `n` sampled sentences, `worse` got a lower task metric and `better` a higher one. */
export interface Evaluation {
  n: number;
  worse: number;
  better: number;
}

/** The net harm of an evaluation: max(0, worse share − better share); 0 over zero sentences. */
export function netHarm(e: Evaluation): number {
  return e.n === 0 ? 0 : Math.max(0, (e.worse - e.better) / e.n);
}

/**
 * The paper's update (its example: 20% worse and 10% better on B sentences → α + 0.1·B, β + 0.9·B):
 * α ← α + net·B, β ← β + (1 − net)·B, B = the sentences actually evaluated (fewer than asked when the split is
 * smaller). Returns a new arm.
 */
export function updateArm(arm: Arm, e: Evaluation): Arm {
  const net = netHarm(e);
  return {
    ...arm,
    alpha: arm.alpha + net * e.n,
    beta: arm.beta + (1 - net) * e.n,
    evaluated: arm.evaluated + 1,
    sentences: arm.sentences + e.n,
    worse: arm.worse + e.worse,
    better: arm.better + e.better,
  };
}

/** Posterior mean α / (α + β). */
export function posteriorMean(arm: Pick<Arm, 'alpha' | 'beta'>): number {
  return arm.alpha / (arm.alpha + arm.beta);
}

/**
 * One Thompson draw per arm (in arm order) from @stdlib's seeded Beta sampler, seeded from `rng`: the same rng
 * state gives the same draws whatever else runs at the same time.
 */
export function thompsonDraws(arms: readonly Arm[], rng: Rng): number[] {
  // MT19937 takes a seed in 1..2^32 − 1.
  const draw = betaFactory.factory({ seed: (rng.nextUint32() % 4294967295) + 1 });
  return arms.map((a) => draw(a.alpha, a.beta));
}

/** Indices of the k largest draws, largest first (ties: the earlier arm). */
export function topK(draws: readonly number[], k: number): number[] {
  return draws
    .map((theta, i) => ({ theta, i }))
    .sort((a, b) => b.theta - a.theta || a.i - b.i)
    .slice(0, k)
    .map((x) => x.i);
}

/**
 * Arms ranked by posterior mean, highest first (ties: more evaluations, then the earlier arm). A name never
 * evaluated still has its prior mean 1/2, which says nothing about it, so every evaluated name ranks first.
 */
export function rankArms(arms: readonly Arm[]): Arm[] {
  return arms
    .map((a, i) => ({ a, i, m: posteriorMean(a), seen: a.evaluated > 0 ? 1 : 0 }))
    .sort((x, y) => y.seen - x.seen || y.m - x.m || y.a.evaluated - x.a.evaluated || x.i - y.i)
    .map((x) => x.a);
}
