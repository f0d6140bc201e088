/**
 * Fitting RESEMBLE on a validation split (Balasubramanian et al. 2020, §5): the canonical entities are the M
 * candidate names with the highest validation accuracy when every mention is replaced by them. T is the paper's
 * fixed T = 2 unless asked to fit it: then the grid value with the lowest negative log-likelihood of Eq. (2)'s
 * prediction. The NLL of every grid value is recorded either way.
 */
import { resembleCombine } from '../../../defence/eq2.ts';
import type { AnnotatorSpec, ResembleConfig } from '../../../defence/config.ts';
import { allFirstNames, type NameDictionaries } from '../../../entities/dictionaries.ts';
import { applyPlan, forcedPlan } from '../../../entities/replace.ts';
import type { EntityType } from '../../../entities/types.ts';
import type { QueryEngine } from '../../../query/engine.ts';
import { TextstressError } from '../../../util/errors.ts';
import { Rng } from '../../../util/rng.ts';
import { correct, inputOf, notApplicableReason, probsOf, share, type Prepared } from './data.ts';

/** The temperatures tried. */
export const TEMPERATURE_GRID: readonly number[] = [0.25, 0.5, 0.75, 1, 1.5, 2, 3, 4, 6, 8, 12, 16];

/** Options of {@link fitResemble}. */
export interface FitOptions {
  /** Canonical entities kept (the paper: 1 or 3). */
  m: number;
  /** Candidate names sampled from the dictionaries. */
  candidates: number;
  seed: number;
  /** T: a fixed value (the paper: 2), or 'fit' for the grid value with the lowest validation NLL. */
  temperature: number | 'fit';
  annotator: AnnotatorSpec;
  /** For the config's record. */
  model: string;
  data: string;
}

/**
 * `n` distinct candidate names of the type, drawn with the seed: PER a first name (any gender) and a last name,
 * ORG a company, LOC a country, MISC a nationality.
 */
export function sampleCandidates(dicts: NameDictionaries, type: EntityType, n: number, rng: Rng): string[] {
  const firsts = type === 'PER' ? allFirstNames(dicts) : [];
  const pool = type === 'ORG' ? dicts.org : type === 'LOC' ? dicts.country : type === 'MISC' ? dicts.misc : [];
  const out = new Set<string>();
  for (let tries = 0; out.size < n && tries < n * 20; tries++) {
    out.add(type === 'PER' ? `${rng.pick(firsts)} ${rng.pick(dicts.last)}` : rng.pick(pool));
  }
  return [...out];
}

/** Mean −log P(gold) of Eq. (2) over the items, for a temperature. */
function nll(p: Prepared, original: number[][], canonical: number[][][], temperature: number): number | null {
  if (p.items.length === 0) return null;
  const total = p.items.reduce(
    (s, it, i) => s - Math.log(Math.max(resembleCombine(original[i]!, canonical[i]!, it.confidence, temperature)[it.gold]!, 1e-12)),
    0,
  );
  return total / p.items.length;
}

/** Fits the canonical entities and T on prepared validation data; all queries go through `engine` at once. */
export async function fitResemble(p: Prepared, engine: QueryEngine, dicts: NameDictionaries, opts: FitOptions): Promise<ResembleConfig> {
  if (p.items.length === 0) {
    throw new TextstressError(
      `no validation example has a ${p.type} mention (${p.examples} examples, all "${notApplicableReason(p.type)}"): nothing to fit on.`,
      {
        where: opts.data,
        hint: 'Use a validation split whose texts name entities of that type, or another --type / annotator.',
      },
    );
  }
  const names = sampleCandidates(dicts, p.type, opts.candidates, Rng.derive(opts.seed, 'resemble-candidates'));
  if (names.length < opts.m) {
    throw new TextstressError(`M = ${opts.m} canonical entities asked for, but only ${names.length} candidate names were drawn.`, {
      hint: 'Raise --candidates (or lower --m).',
    });
  }
  const canonInputs = names.map((name) =>
    p.items.map((it) => inputOf(applyPlan(it.example, it.mentions, forcedPlan(it.mentions, p.type, name)).example as typeof it.example)),
  );
  const [originalOut, ...byName] = await Promise.all([
    engine.query(p.items.map((it) => inputOf(it.example))),
    ...canonInputs.map((inputs) => engine.query(inputs)),
  ]);
  const original = originalOut.map(probsOf);
  const scored = names.map((name, k) => ({ name, accuracy: share(byName[k]!.map((o, i) => correct(probsOf(o), p.items[i]!.gold))) }));
  // Highest accuracy first; ties keep the draw order (deterministic for a seed).
  const ranked = scored.map((s, k) => ({ ...s, k })).sort((a, b) => (b.accuracy ?? 0) - (a.accuracy ?? 0) || a.k - b.k);
  const chosen = ranked.slice(0, opts.m);
  const canonical = p.items.map((_, i) => chosen.map((c) => probsOf(byName[c.k]![i]!)));
  const grid = TEMPERATURE_GRID.map((temperature) => ({ temperature, nll: nll(p, original, canonical, temperature) }));
  const best = grid.reduce((a, b) => ((b.nll ?? Infinity) < (a.nll ?? Infinity) ? b : a));
  return {
    textstress: 'resemble',
    version: 1,
    type: p.type,
    canonical: chosen.map((c) => c.name),
    temperature: opts.temperature === 'fit' ? best.temperature : opts.temperature,
    annotator: opts.annotator,
    fitted: {
      model: opts.model,
      data: opts.data,
      examples: p.examples,
      applicable: p.items.length,
      seed: opts.seed,
      candidates: ranked.map(({ name, accuracy }) => ({ name, accuracy })),
      originalAccuracy: share(original.map((o, i) => correct(o, p.items[i]!.gold))),
      temperatureGrid: grid,
      temperatureFitted: opts.temperature === 'fit',
    },
  };
}
