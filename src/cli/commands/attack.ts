import { Command, Option } from 'commander';
import type { EditableField } from '../../attack/subject.ts';
import type { WordTarget } from '../../attack/search/word-importance.ts';
import { isTypoSourceName, NOISE_TYPES, type NoiseType, type TypoSourceName } from '../../perturb/index.ts';
import { noiseAttack } from '../../recipes/noise.ts';
import { ALL_TYPO_SOURCES, typoAttack } from '../../recipes/typos.ts';
import { GRAMMAR_SEARCHES, grammarAttack, type GrammarSearchName } from '../../recipes/grammar.ts';
import { grammarSettings, parseErrorTypes } from '../grammar-options.ts';
import { TextstressError } from '../../util/errors.ts';
import { addDataOptions, addModelOptions, addRunOptions, fraction, int, list } from '../options.ts';
import { runRecipe, subwordEnricher, type AttackBuilder, type RunCliOptions } from '../run-recipe.ts';

export const RECIPES = ['typos', 'noise', 'grammar'] as const;

export interface AttackCliOptions extends RunCliOptions {
  target: WordTarget;
  k: number;
  sources?: string[];
  noise: NoiseType;
  field?: EditableField;
  minLength: number;
  protect?: string[];
  maxCandidates?: number;
  /** Grammar options (optional so that other commands reusing these options need not set them). */
  search?: GrammarSearchName;
  budget?: number;
  errorRate?: number;
  errorTypes?: string;
  beamWidth?: number;
  population?: number;
}

export function attackCommand(): Command {
  const cmd = new Command('attack')
    .description('attack a model with a recipe and write summary.json + results.jsonl')
    .argument('<recipe>', `attack recipe: ${RECIPES.join(' | ')}`)
    .addOption(new Option('--target <which>', 'typos: words to put typos in, by occlusion importance').choices(['max', 'min', 'random']).default('max'))
    .option('-k, --k <n>', 'typos: budget of typos per text (one per word)', int('--k', 0), 1)
    .option('--sources <list>', `typos: typo sources to use (${ALL_TYPO_SOURCES.join(',')})`, list)
    .addOption(new Option('--noise <type>', 'noise: noise applied to every word').choices([...NOISE_TYPES]).default('swap'))
    .addOption(new Option('--field <name>', 'field to perturb (pairs: textA or textB; QA: question or context)').choices(['text', 'textA', 'textB', 'tokens', 'question', 'context']))
    .option('--min-length <n>', 'shortest word that may be perturbed', int('--min-length', 1), 2)
    .option('--protect <words>', 'comma-separated words never to perturb', list)
    .option('--max-candidates <n>', 'typos: cap on candidates per source and word', int('--max-candidates', 1))
    .addOption(new Option('--search <name>', 'grammar: search method').choices([...GRAMMAR_SEARCHES]).default('greedy'))
    .option('--budget <fraction>', 'grammar: most words modified, as a fraction of the words', fraction('--budget'), 0.15)
    .option('--error-rate <fraction>', 'grammar, probabilistic: errors per word (default: the budget)', fraction('--error-rate'))
    .option('--error-types <list>', 'grammar: error types to use (ArtOrDet,Prep,Trans,Nn,SVA,Vform,Wchoice,Worder), optionally weighted for probabilistic sampling: "ArtOrDet=3,Prep=1"')
    .option('--beam-width <n>', 'grammar, beam: beam size', int('--beam-width', 1), 5)
    .option('--population <n>', 'grammar, genetic: population size', int('--population', 2), 60);
  addModelOptions(cmd);
  addDataOptions(cmd);
  addRunOptions(cmd);
  return cmd.action(async (recipe: string, opts: AttackCliOptions) => {
    if (!(RECIPES as readonly string[]).includes(recipe)) {
      throw new TextstressError(`unknown recipe "${recipe}".`, { hint: `Choose one of: ${RECIPES.join(", ")}.` });
    }
    const out = opts.out ?? `runs/${recipe}`;
    await runRecipe({ ...opts, out }, attackBuilder(recipe, opts));
  });
}

export function attackBuilder(recipe: string, opts: AttackCliOptions): AttackBuilder {
  const sources = checkSources(opts.sources);
  return ({ goal, model, data }) => {
    const subject = { field: opts.field, dataset: data.name };
    const common = { minLength: opts.minLength, protect: opts.protect ?? [], field: opts.field ?? null };
    if (recipe === 'typos') {
      return {
        recipe: 'typos',
        options: { ...common, target: opts.target, k: opts.k, sources, maxCandidates: opts.maxCandidates ?? null },
        attack: typoAttack({
          goal,
          target: opts.target,
          k: opts.k,
          sources,
          minLength: opts.minLength,
          protect: opts.protect,
          maxCandidates: opts.maxCandidates,
          subject,
        }),
        enrich: subwordEnricher(model),
      };
    }
    if (recipe === 'noise') {
      return {
        recipe: 'noise',
        options: { ...common, noise: opts.noise },
        attack: noiseAttack({ goal, noise: opts.noise, minLength: opts.minLength, protect: opts.protect, subject }),
        enrich: subwordEnricher(model),
      };
    }
    if (recipe === 'grammar') {
      const types = parseErrorTypes(opts.errorTypes);
      const g = { search: opts.search ?? 'greedy', budget: opts.budget ?? 0.15, errorRate: opts.errorRate, beamWidth: opts.beamWidth ?? 5, population: opts.population ?? 60 };
      return {
        recipe: 'grammar',
        options: { ...common, ...grammarSettings(g, types) },
        attack: grammarAttack({
          goal,
          search: g.search,
          budget: g.budget,
          errorRate: g.errorRate,
          types: types?.types,
          distribution: types?.distribution,
          // One token must stay one token for NER gold tags to stay aligned.
          multiWord: data.kind !== 'tokens',
          protect: opts.protect,
          beamWidth: g.beamWidth,
          population: g.population,
          subject,
        }),
        enrich: subwordEnricher(model),
      };
    }
    throw new TextstressError(`unknown recipe "${recipe}".`, { hint: `Choose one of: ${RECIPES.join(', ')}.` });
  };
}

function checkSources(sources: string[] | undefined): TypoSourceName[] {
  if (!sources) return ALL_TYPO_SOURCES;
  const bad = sources.filter((s) => !isTypoSourceName(s));
  if (bad.length) {
    throw new TextstressError(`unknown typo source ${bad.join(', ')}.`, {
      hint: `Choose from ${ALL_TYPO_SOURCES.join(', ')}.`,
    });
  }
  return sources.filter(isTypoSourceName);
}
