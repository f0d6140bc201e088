import { grammarAttack } from './attack.ts';
import { defineAttack } from '../../recipes/registry/define.ts';
import { subjectOf } from '../../recipes/shared.ts';
import { grammarFamily } from './report.ts';
import { errorTypesOf, grammarSettings } from './settings.ts';

/** The `grammar` attack recipe (Yin et al. 2020). */
export const grammarRecipe = defineAttack({
  name: 'grammar',
  summary:
    "the errors non-native writers make (ArtOrDet, Prep, Trans, Nn, SVA, Vform, Wchoice, Worder) with the paper's " +
    'confusion sets, placed by probabilistic sampling or a greedy, beam or genetic search within a budget of ' +
    'modified words',
  paper: 'Yin et al. 2020, "On the Robustness of Language Encoders against Grammatical Errors"',
  tasks: ['text-classification', 'pair-classification', 'token-classification'],
  settings: grammarSettings,
  build(s, ctx) {
    const { types, distribution } = errorTypesOf(s.errorTypes);
    return {
      attack: grammarAttack({
        goal: ctx.goal,
        search: s.search,
        budget: s.budget,
        ...(s.errorRate !== null ? { errorRate: s.errorRate } : {}),
        ...(types ? { types } : {}),
        ...(distribution ? { distribution } : {}),
        wchoiceWeights: s.wchoiceWeights,
        // One token must stay one token for NER gold tags to stay aligned.
        multiWord: ctx.task !== 'token-classification',
        protect: s.protect,
        maxWords: s.maxWords,
        beamWidth: s.beamWidth,
        population: s.population,
        subject: subjectOf(s.field, ctx),
      }),
    };
  },
  report: grammarFamily,
});
