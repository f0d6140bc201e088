/**
 * The top-level --help, grouped by purpose. textstress's own commands land in a group by one line in COMMAND_GROUPS;
 * a family's commands where its manifest puts them (FamilyManifest.helpGroups), else a recipe's verb by its kind;
 * anything else goes to "other", so a new command is never hidden, only ungrouped until its family places it.
 */
import type { Command } from 'commander';
import { kindOf } from '../kinds/index.ts';
import type { Registry } from '../recipes/registry/registry.ts';

/** The help's groups, in the order it shows them, each with one example. */
export const HELP_GROUPS = [
  { id: 'start', heading: 'Start here', example: 'textstress demo' },
  {
    id: 'attack',
    heading: 'Attack a model',
    example: 'textstress attack typos --model models/demo-sst2 --data demo/reviews.tsv',
  },
  {
    id: 'stress',
    heading: 'Stress tests',
    example: 'textstress stress nli --model models/demo-sick --data SICK.txt --split TEST',
  },
  {
    id: 'probe',
    heading: 'Probe a model (entity swaps, inside the encoder) and defend it',
    example: 'textstress probe entities --model models/demo-ner --data demo/news.conll --type PER --budget 20',
  },
  {
    id: 'generate',
    heading: 'Generate (fooling sentences, adversarial training data)',
    example: 'textstress fool --model models/demo-sst2 --train demo/reviews.tsv --population 100 --epochs 10',
  },
  {
    id: 'compare',
    heading: 'Compare and report',
    example: 'textstress report runs/ --html report.html',
  },
  {
    id: 'serve',
    heading: 'Serve and scale',
    example: 'textstress attack typos --model M --data dev.tsv --shard 0/3 --out runs/typos-0  (then textstress merge)',
  },
  { id: 'other', heading: 'Other commands', example: undefined },
] as const;

/** One of {@link HELP_GROUPS}' ids. */
export type HelpGroupId = (typeof HELP_GROUPS)[number]['id'];

/** Which group each of textstress's own top-level commands is shown in (no family's: see the manifests). */
export const COMMAND_GROUPS: Readonly<Record<string, HelpGroupId>> = {
  demo: 'start',
  list: 'start',
  init: 'start',
  run: 'start',
  help: 'start',
  attack: 'attack',
  eval: 'attack',
  stress: 'stress',
  probe: 'probe',
  report: 'compare',
  compare: 'compare',
  transfer: 'compare',
  view: 'compare',
  serve: 'serve',
  worker: 'serve',
  merge: 'serve',
  cache: 'serve',
};

/** Whether a string is one of the help's group ids. */
const isHelpGroup = (id: string): id is HelpGroupId => HELP_GROUPS.some((g) => g.id === id);

/** The group of a top-level command. */
export function groupOf(command: string, registry?: Registry): HelpGroupId {
  const named = COMMAND_GROUPS[command];
  if (named) return named;
  const placed = registry?.helpGroupOf(command);
  if (placed !== undefined) return isHelpGroup(placed) ? placed : 'other';
  const recipe = registry?.all().find((d) => (d.verb ?? d.name) === command);
  // A recipe's own verb goes where its kind's runtime says (KindRuntime.helpGroup).
  const id = recipe ? kindOf(recipe).helpGroup : 'other';
  return isHelpGroup(id) ? id : 'other';
}

const headingOf = (id: HelpGroupId): string => `${HELP_GROUPS.find((g) => g.id === id)!.heading}:`;

/**
 * Orders the commands by group and gives each its help heading (commander shows a heading's commands together,
 * headings in the order first met); returns the commands in that order.
 */
export function grouped(commands: readonly Command[], registry?: Registry): Command[] {
  const rank = (c: Command): number => HELP_GROUPS.findIndex((g) => g.id === groupOf(c.name(), registry));
  const ordered = [...commands].sort((a, b) => rank(a) - rank(b));
  for (const c of ordered) c.helpGroup(headingOf(groupOf(c.name(), registry)));
  return ordered;
}

/** The help's closing lines: one example per group. */
export function examplesText(): string {
  const rows = HELP_GROUPS.filter((g) => g.example !== undefined).map((g) => `  ${g.example}`);
  return [
    '',
    'Examples (one per group):',
    ...rows,
    '',
    '`textstress list` lists every recipe with its command, kind, tasks and paper.',
  ].join('\n');
}
