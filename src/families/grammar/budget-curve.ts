/** The grammar-error paper's Figure 1: attack success as the allowed share of modified words grows. */
import { z } from 'zod';
import { fixed, pct } from '../../util/format.ts';
import { formatGrid } from '../../util/table.ts';
import { defineExperiment } from '../../recipes/registry/define.ts';
import { grammarShapeWithoutBudget } from './settings.ts';

/** One budget's numbers: `budget` and rates are fractions, `mean_perturbed_word_pct` is a percentage. */
export interface BudgetPoint {
  budget: number;
  attack_success_rate: number | null;
  mean_perturbed_word_pct: number | null;
  attacked_accuracy: number | null;
  mean_queries: number | null;
}

/** The `grammar-budget-curve` experiment: one grammar run per budget (Figure 1). */
export const grammarBudgetCurveRecipe = defineExperiment({
  name: 'grammar-budget-curve',
  summary: "reproduces the grammar-error paper's Figure 1: attack success rate as the allowed share of modified words grows (15% → 45%)",
  paper: 'Yin et al. 2020, Figure 1',
  tasks: ['text-classification', 'pair-classification', 'token-classification'],
  // The grammar recipe's own settings (less the one budget), passed on to every run.
  settings: z
    .strictObject({
      ...grammarShapeWithoutBudget,
      budgets: z.array(z.number().gt(0).max(1)).min(1).default([0.15, 0.25, 0.35, 0.45]).describe('modification rates to try'),
    })
    .superRefine((s, ctx) => {
      const lowest = Math.min(...s.budgets);
      if (s.errorRate !== null && s.errorRate > lowest) {
        ctx.addIssue({
          code: 'custom',
          path: ['errorRate'],
          message: `the error rate ${s.errorRate} is above the lowest budget ${lowest}, which caps the edits of that run`,
        });
      }
    }),
  build(s) {
    const { budgets, ...grammar } = s;
    const runs = budgets.map((b) => ({
      dir: `budget-${b}`,
      recipe: 'grammar',
      settings: { ...grammar, budget: b },
    }));
    return {
      runs,
      async combine(c) {
        const points: BudgetPoint[] = s.budgets.map((budget, i) => {
          const summary = c.runs.find((r) => r.run.dir === runs[i]!.dir)!.summary;
          return {
            budget,
            attack_success_rate: summary.attack_success_rate,
            mean_perturbed_word_pct: summary.mean_perturbed_word_pct,
            attacked_accuracy: summary.attacked_accuracy,
            mean_queries: summary.mean_queries,
          };
        });
        const curve = { model: c.model, dataset: c.dataset, search: s.search, points };
        const text =
          `Attack success vs allowed modification rate — ${s.search} on ${c.model}, ${c.dataset} (Figure 1)\n` +
          formatGrid(
            ['max modified', 'success %', 'mean % modified', 'accuracy %', 'queries'],
            points.map((p) => [
              `${(100 * p.budget).toFixed(0)}%`,
              pct(p.attack_success_rate).replace('%', ''),
              fixed(p.mean_perturbed_word_pct),
              pct(p.attacked_accuracy).replace('%', ''),
              fixed(p.mean_queries, 0),
            ]),
          );
        return { files: { 'curve.json': curve }, json: curve, text };
      },
    };
  },
});
