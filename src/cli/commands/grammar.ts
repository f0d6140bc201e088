import type { Command } from 'commander';
import { augmentCommand } from './augment.ts';
import { grammarBudgetCurveCommand } from './grammar-budget-curve.ts';
import { grammarTablesCommand } from './grammar-tables.ts';

/** The grammar-error family's extra verbs (`attack grammar` itself lives in attack.ts). */
export function grammarCommands(): Command[] {
  return [grammarTablesCommand(), grammarBudgetCurveCommand(), augmentCommand()];
}
