import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command, Option } from 'commander';
import { QueryEngine } from '../../query/engine.ts';
import { GRAMMAR_SEARCHES, type GrammarSearchName } from '../../recipes/grammar.ts';
import { formatGrid } from '../../report/terminal.ts';
import { addDataOptions, addModelOptions, addRunOptions, list } from '../options.ts';
import { runRecipe, type RunCliOptions } from '../run-recipe.ts';
import { openModel } from '../setup.ts';
import { attackBuilder, type AttackCliOptions } from './attack.ts';

interface BudgetCurveOptions extends RunCliOptions {
  search: GrammarSearchName;
  budgets: string[];
  errorTypes?: string;
}

export interface BudgetPoint {
  budget: number;
  attack_success_rate: number;
  mean_perturbed_word_pct: number;
  attacked_accuracy: number;
  mean_queries: number;
}

/** The grammar-error paper's Figure 1: attack success as the allowed modification rate grows. */
export function grammarBudgetCurveCommand(): Command {
  const cmd = new Command('grammar-budget-curve')
    .description("reproduce the grammar-error paper's Figure 1: attack success rate as the allowed share of modified words grows (default 15% → 45%)")
    .addOption(new Option('--search <name>', 'search method').choices([...GRAMMAR_SEARCHES]).default('greedy'))
    .option('--budgets <list>', 'modification rates to try', list, ['0.15', '0.25', '0.35', '0.45'])
    .option('--error-types <list>', 'error types to use (default all eight)');
  addModelOptions(cmd);
  addDataOptions(cmd);
  addRunOptions(cmd);
  return cmd.action(async (opts: BudgetCurveOptions) => {
    const out = opts.out ?? 'runs/grammar-budget-curve';
    mkdirSync(out, { recursive: true });
    const model = await openModel(opts);
    const engine = new QueryEngine(model);
    const points: BudgetPoint[] = [];
    try {
      for (const b of opts.budgets.map(Number)) {
        const dir = join(out, `budget-${b}`);
        const attackOpts: AttackCliOptions = { ...opts, out: dir, target: 'max', k: 1, noise: 'swap', minLength: 1, search: opts.search, budget: b, quiet: true };
        process.stderr.write(`textstress: grammar-budget-curve ${opts.search} budget ${b} …\n`);
        const { summary } = await runRecipe(attackOpts, attackBuilder('grammar', attackOpts), { model, engine });
        points.push({
          budget: b,
          attack_success_rate: summary.attack_success_rate,
          mean_perturbed_word_pct: summary.mean_perturbed_word_pct,
          attacked_accuracy: summary.attacked_accuracy,
          mean_queries: summary.mean_queries,
        });
      }
    } finally {
      await model.close?.();
    }
    const curve = { model: opts.model, dataset: opts.data, search: opts.search, points };
    writeFileSync(join(out, 'curve.json'), JSON.stringify(curve, null, 2) + '\n');
    if (opts.json) process.stdout.write(JSON.stringify(curve, null, 2) + '\n');
    else {
      process.stdout.write(`Attack success vs allowed modification rate — ${opts.search} on ${opts.model}, ${opts.data} (Figure 1)\n`);
      process.stdout.write(
        formatGrid(
          ['max modified', 'success %', 'mean % modified', 'accuracy %', 'queries'],
          points.map((p) => [
            `${(100 * p.budget).toFixed(0)}%`,
            (100 * p.attack_success_rate).toFixed(1),
            p.mean_perturbed_word_pct.toFixed(1),
            (100 * p.attacked_accuracy).toFixed(1),
            p.mean_queries.toFixed(0),
          ]),
        ) + '\n',
      );
    }
  });
}
