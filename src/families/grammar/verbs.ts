/**
 * `textstress grammar-tables`: the grammar-error paper's Table 3 (success rate and % modified words: rows model ×
 * search, columns datasets) and Table 4 (error types in successful attacks) from finished grammar runs.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { defineVerb } from '../../recipes/registry/verbs.ts';
import { TextstressError } from '../../util/errors.ts';
import { formatGrid } from '../../util/table.ts';
import { table3, table4, type GrammarRunSummary } from './tables.ts';
import { pairedGrid, pairedTests, readOutcomes } from './paired.ts';

/** A finished grammar run's summary; a clear error for a folder without one or of another recipe. */
export function readGrammarRun(dir: string): GrammarRunSummary {
  const path = join(dir, 'summary.json');
  if (!existsSync(path)) {
    throw new TextstressError(`${dir} holds no summary.json.`, {
      hint: 'Pass folders of finished `textstress attack grammar` runs (--out).',
    });
  }
  const s = JSON.parse(readFileSync(path, 'utf8')) as GrammarRunSummary;
  if (s.recipe !== 'grammar') {
    throw new TextstressError(`${path} is a ${s.recipe} run, not a grammar run.`, { hint: 'Pass only grammar runs.' });
  }
  return s;
}

export const grammarTablesVerb = defineVerb({
  name: 'grammar-tables',
  summary:
    "print the grammar-error paper's Table 3 (success rate and % modified words: rows model × search, columns " +
    'datasets) and Table 4 (error types in successful attacks) from finished grammar runs',
  arguments: [{ name: 'run-dirs', description: 'folders holding a summary.json of `textstress attack grammar`', variadic: true }],
  settings: z.strictObject({}),
  shared: ['json'],
  async run(ctx) {
    const runs = ctx.args.map(readGrammarRun);
    const t3 = table3(runs);
    const t4 = table4(runs);
    const paired = pairedTests(runs.map((summary, i) => ({ summary, outcomes: readOutcomes(ctx.args[i]!) })));
    if (ctx.shared.json) {
      ctx.print(JSON.stringify({ table3: t3, table4: t4, paired }, null, 2));
      return;
    }
    ctx.print('Table 3 — attack success rate % (mean % modified words in successful attacks)');
    ctx.print(formatGrid(t3.header, t3.rows) + '\n');
    ctx.print('Table 4 — error types in successful attacks (% of their edits)');
    ctx.print(formatGrid(t4.header, t4.rows));
    if (paired.length) {
      ctx.print('\nPaired tests on the examples both runs attacked: attack success (Wilson 95%), exact McNemar, Holm over the rows');
      const g = pairedGrid(paired);
      ctx.print(formatGrid(g.header, g.rows));
    }
  },
});
