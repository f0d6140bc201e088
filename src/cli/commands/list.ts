/**
 * `textstress list [--json]`: every recipe the registry holds (plugins' included) with the command that runs it, its
 * kind, tasks, paper and one line; then the families' own commands. Derived from the declarations, like the help.
 */
import { Command } from 'commander';
import { addFlags } from '../options.ts';
import { commandsOf } from '../../kinds/index.ts';
import type { Registry } from '../../recipes/registry/registry.ts';
import { jsonForTerminal, terminalSafe } from '../../util/terminal.ts';

/** One recipe as `list --json` gives it. */
export interface ListedRecipe {
  name: string;
  /** The command that runs it, e.g. "textstress attack typos". */
  command: string;
  kind: string;
  tasks: string[];
  paper: string | null;
  summary: string;
  /** What it needs besides the model and the data (empty: nothing). */
  resources: string[];
}

/** One family command (not a recipe run) as `list --json` gives it. */
export interface ListedCommand {
  command: string;
  summary: string;
}

export function listing(registry: Registry): { recipes: ListedRecipe[]; commands: ListedCommand[] } {
  return {
    recipes: registry.all().map((d) => ({
      name: d.name,
      command: `textstress ${commandsOf(d)[0]!.join(' ')}`,
      kind: d.kind,
      tasks: [...d.tasks],
      paper: d.paper ?? null,
      summary: d.summary,
      resources: [...(d.resources ?? [])],
    })),
    commands: registry.verbs().map((v) => ({ command: `textstress ${[v.group, v.name].filter(Boolean).join(' ')}`, summary: v.summary })),
  };
}

/** Left-aligned columns (the shared grid right-aligns figures; these are words). */
function columns(header: string[], rows: string[][]): string {
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => (r[c] ?? '').length)));
  const line = (cells: string[]): string =>
    cells
      .map((x, c) => x.padEnd(widths[c]!))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '─'.repeat(w))), ...rows.map(line)].join('\n');
}

const SHORT_TASKS: Record<string, string> = {
  'text-classification': 'text',
  'pair-classification': 'pair',
  'token-classification': 'token',
  'question-answering': 'qa',
};

const clip = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

export function listCommand(registry: Registry): Command {
  const cmd = new Command('list').description(
    'list every recipe (built-in and --plugin ones): its command, kind, tasks, paper and what it does',
  );
  return addFlags(cmd, {
    json: {
      help: 'print JSON: { recipes: [{ name, command, kind, tasks, paper, summary, resources }], commands: [{ command, summary }] }',
    },
  }).action((opts: { json?: boolean }) => {
    const all = listing(registry);
    if (opts.json) {
      process.stdout.write(jsonForTerminal(all));
      return;
    }
    const rows = all.recipes.map((r) => [
      r.name,
      r.command.replace(/^textstress /, ''),
      r.kind,
      r.tasks.map((t) => SHORT_TASKS[t] ?? t).join(' '),
      clip(r.paper ?? '', 60),
    ]);
    const lines = [
      `${all.recipes.length} recipes (tasks: text = text-classification, pair = pair-classification, token = ` +
        'token-classification, qa = question-answering; --json gives them in full):',
      columns(['recipe', 'command', 'kind', 'tasks', 'paper'], rows),
      '',
      ...all.recipes.flatMap((r) => [
        `  ${r.name}: ${clip(r.summary, 150)}`,
        ...(r.resources.length ? [`    needs: ${r.resources.join('; ')}`] : []),
      ]),
    ];
    if (all.commands.length) {
      lines.push('', 'Commands of the families (not recipe runs):', ...all.commands.map((c) => `  ${c.command}: ${clip(c.summary, 150)}`));
    }
    lines.push('', "Run `textstress <command> --help` for a recipe's options; docs/recipes.md describes each.");
    process.stdout.write(terminalSafe(lines.join('\n'), { keepLayout: true }) + '\n');
  });
}
