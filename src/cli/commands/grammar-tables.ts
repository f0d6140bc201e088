import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { table3, table4, type GrammarRunSummary } from '../../families/grammar/tables.ts';
import { formatGrid } from '../../util/table.ts';
import { TextstressError } from '../../util/errors.ts';

export function grammarTablesCommand(): Command {
  return new Command('grammar-tables')
    .description(
      "print the grammar-error paper's Table 3 (success rate and % modified words: rows model × search, columns datasets) and Table 4 (error types in successful attacks) from finished grammar runs",
    )
    .argument('<run-dirs...>', 'folders holding a summary.json of `textstress attack grammar`')
    .option('--json', 'print the tables as JSON')
    .action((dirs: string[], opts: { json?: boolean }) => {
      const runs = dirs.map(readGrammarRun);
      const t3 = table3(runs);
      const t4 = table4(runs);
      if (opts.json) {
        process.stdout.write(JSON.stringify({ table3: t3, table4: t4 }, null, 2) + '\n');
        return;
      }
      process.stdout.write('Table 3 — attack success rate % (mean % modified words in successful attacks)\n');
      process.stdout.write(formatGrid(t3.header, t3.rows) + '\n\n');
      process.stdout.write('Table 4 — error types in successful attacks (% of their edits)\n');
      process.stdout.write(formatGrid(t4.header, t4.rows) + '\n');
    });
}

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
