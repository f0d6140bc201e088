import { GRAMMAR_ERROR_TYPES, isGrammarErrorType, type ErrorDistribution, type GrammarErrorType } from './index.ts';

/** An errorTypes setting parsed by {@link parseErrorTypes}. */
export interface ParsedErrorTypes {
  types: GrammarErrorType[];
  /** Present when weights were given ("ArtOrDet=3,Prep=1"). */
  distribution?: ErrorDistribution;
}

/**
 * "ArtOrDet,Prep" or "ArtOrDet=3,Prep=1" (weights override the NUCLE distribution of probabilistic sampling).
 * Returns the parsed types, or a one-line problem for the settings schema to report.
 */
export function parseErrorTypes(spec: string): ParsedErrorTypes | { problem: string } {
  const types: GrammarErrorType[] = [];
  const distribution: ErrorDistribution = {};
  let weighted = false;
  for (const part of spec
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [name, weight] = part.split('=').map((s) => s.trim());
    if (!name || !isGrammarErrorType(name)) {
      return { problem: `unknown grammar error type "${name ?? part}"; choose from ${GRAMMAR_ERROR_TYPES.join(', ')}` };
    }
    types.push(name);
    if (weight !== undefined) {
      const w = Number(weight);
      if (weight === '' || !Number.isFinite(w) || w < 0) return { problem: `the weight of ${name} must be a number ≥ 0, got "${weight}"` };
      distribution[name] = w;
      weighted = true;
    }
  }
  if (types.length === 0) return { problem: `names no error type; choose from ${GRAMMAR_ERROR_TYPES.join(', ')}` };
  if (weighted) for (const t of types) distribution[t] ??= 0;
  return weighted ? { types, distribution } : { types };
}
