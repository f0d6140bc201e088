/**
 * Whether an example's answer survived, the one definition stability counts (the run's summary and the paired
 * comparison): a probe's result says itself whether any of its variants changed the answer (it reads through names
 * of another length, which a comparison of two predictions cannot); an attack's compares the clean and the attacked
 * prediction (same top label, or the same tag sequence).
 */
import type { ExampleResult } from '../core/result.ts';

export function answerUnchanged(r: ExampleResult): boolean {
  if (r.probe) return r.probe.changed === 0;
  const a = r.original_prediction;
  const b = r.perturbed_prediction;
  if (a.tags && b.tags) return a.tags.length === b.tags.length && a.tags.every((t, i) => t === b.tags![i]);
  return a.label === b.label;
}
