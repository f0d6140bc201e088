import { GRAMMAR_ERROR_TYPES, isGrammarErrorType, type ErrorDistribution, type GrammarErrorType } from '../perturb/grammar/index.ts';
import { TextstressError } from '../util/errors.ts';

export interface ParsedErrorTypes {
  types: GrammarErrorType[];
  /** Present when weights were given ("ArtOrDet=3,Prep=1"). */
  distribution?: ErrorDistribution;
}

/** --error-types "ArtOrDet,Prep" or "ArtOrDet=3,Prep=1" (weights override the NUCLE distribution). */
export function parseErrorTypes(spec: string | undefined): ParsedErrorTypes | undefined {
  if (spec === undefined) return undefined;
  const types: GrammarErrorType[] = [];
  const distribution: ErrorDistribution = {};
  let weighted = false;
  for (const part of spec.split(',').map((s) => s.trim()).filter(Boolean)) {
    const [name, weight] = part.split('=').map((s) => s.trim());
    if (!name || !isGrammarErrorType(name)) {
      throw new TextstressError(`unknown grammar error type "${name ?? part}".`, { hint: `Choose from ${GRAMMAR_ERROR_TYPES.join(', ')}.` });
    }
    types.push(name);
    if (weight !== undefined) {
      const w = Number(weight);
      if (!Number.isFinite(w) || w < 0) throw new TextstressError(`the weight of ${name} must be a number ≥ 0, got "${weight}".`);
      distribution[name] = w;
      weighted = true;
    }
  }
  if (types.length === 0) throw new TextstressError('--error-types names no error type.', { hint: `Choose from ${GRAMMAR_ERROR_TYPES.join(', ')}.` });
  if (weighted) for (const t of types) distribution[t] ??= 0;
  return weighted ? { types, distribution } : { types };
}

/** The grammar settings recorded in run.json / summary.json (and compared on --resume). */
export function grammarSettings(
  opts: { search: string; budget: number; errorRate?: number; beamWidth: number; population: number },
  types: ParsedErrorTypes | undefined,
): Record<string, unknown> {
  return {
    search: opts.search,
    budget: opts.budget,
    error_rate: opts.search === 'probabilistic' ? (opts.errorRate ?? opts.budget) : null,
    error_types: types?.types ?? [...GRAMMAR_ERROR_TYPES],
    error_distribution: types?.distribution ?? null,
    beam_width: opts.search === 'beam' ? opts.beamWidth : null,
    population: opts.search === 'genetic' ? opts.population : null,
  };
}
