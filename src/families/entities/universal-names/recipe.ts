/**
 * `textstress universal-names`: Algorithm 2 of Balasubramanian et al. (2020), "What's in a Name?" — a Thompson-
 * sampling search for the names that hurt a model everywhere: every mention of one entity type replaced by one
 * candidate name on B sampled sentences, a Beta posterior per name, then the top names tested on a held-out split
 * against random names. A generator (steps = rounds, resumable after each round).
 */
import { loadDictionaries, type DictionaryKey } from '../../../entities/index.ts';
import { TextstressError } from '../../../util/errors.ts';
import { defineGenerator, type RecipeMetric } from '../../../recipes/registry/define.ts';
import { RANDOM_DROP, TOP_DROP, universalNamesGenerator } from './generator.ts';
import { annotatorName, candidateNames, checkAnnotator, namesFiles, openAnnotator } from '../sources.ts';
import { universalNamesFamily } from './report.ts';
import { universalNamesSettings } from './settings.ts';
import { detailsOf } from './tables.ts';

const metric = (key: string, description: string): RecipeMetric => ({
  description,
  range: [-1, 1],
  read: (s) => (s.metrics as Record<string, number | null> | undefined)?.[key],
  // n = the held-out examples the names were tested on (a bootstrap over them).
  interval: (s) => {
    const t = detailsOf(s)?.transfer;
    const iv = key === TOP_DROP ? t?.top_mean_drop_interval : t?.random_mean_drop_interval;
    return iv ? { ...iv, value: (s.metrics as Record<string, number | null> | undefined)?.[key] ?? null } : undefined;
  },
});

/** `textstress universal-names`: universal adversarial names by Thompson sampling, tested on a held-out split (Algorithm 2). */
export const universalNamesRecipe = defineGenerator({
  name: 'universal-names',
  summary:
    'searches for universal adversarial names (a Beta posterior per name, Thompson sampling) and tests the top names against random ones on a held-out split',
  paper: 'Balasubramanian et al. 2020, Algorithm 2',
  data: 'required',
  tasks: ['text-classification', 'pair-classification', 'token-classification', 'question-answering'],
  settings: universalNamesSettings,
  report: universalNamesFamily,
  metrics: {
    [TOP_DROP]: metric(TOP_DROP, 'universal-names: mean held-out drop of the task metric (fraction) with the top --top (default 10) names'),
    [RANDOM_DROP]: metric(
      RANDOM_DROP,
      'universal-names: mean held-out drop of the task metric (fraction) with --random (default 10) random candidate names',
    ),
  },
  helpAfter: [
    'Examples:',
    '  textstress universal-names --model models/demo-ner --data ../shared/data/conll2003/eng.testb --type PER --out OUT',
    '  textstress universal-names --model models/demo-sst2 --data dev.tsv --annotator gazetteer --rounds 30 --per-round 10 --budget 50',
    '',
    'Each round draws θ ~ Beta(α, β) for every candidate and evaluates the --per-round names with the highest θ: every',
    'mention of the type in --budget sampled search examples replaced by the name; net = max(0, worse − better) shares,',
    'α += net·B, β += (1 − net)·B. Names are ranked by α / (α + β) (never-evaluated names last); the --top names and',
    '--random random candidates are then applied to every held-out example. Writes summary.json, results.jsonl (one',
    'line per evaluation), steps.jsonl, names.jsonl and ranking.json; --resume continues after the last finished round.',
  ],
  async build(s, ctx) {
    const data = ctx.data;
    if (!data) throw new TextstressError('universal-names needs a dataset.', { hint: 'Pass --data <file>.' });
    const files = namesFiles(s.namesFile);
    const dicts = await loadDictionaries({ files });
    const annotator = annotatorName(s.annotator, data);
    checkAnnotator(annotator, data);
    const names = candidateNames(s.type, dicts, new Set(Object.keys(files) as DictionaryKey[]));
    const generator = universalNamesGenerator(s, {
      goal: ctx.goal,
      data,
      names,
      annotatorName: annotator,
      openAnnotator: () => openAnnotator(annotator, data, dicts, ctx.openModel),
    });
    return { generator };
  },
});
