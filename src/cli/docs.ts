/**
 * The recipes' documentation, generated from their declarations: the table in README.md and the settings
 * reference in docs/recipes.md (scripts/gen-docs.ts writes both; a test fails when they are stale).
 */
import { kebab, snake } from '../util/casing.ts';
import type { AnyRecipe } from '../recipes/registry/define.ts';
import { settingFields, showDefault, type SettingField } from '../recipes/registry/fields.ts';
import type { Registry } from '../recipes/registry/registry.ts';
import { commandOf, KINDS, MODES, RUN_MODES } from '../kinds/index.ts';
import { optionsOf, suiteKeyOf } from '../options/derive.ts';
import { fieldOf } from '../util/fields.ts';

const cell = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** How to run a recipe from the command line. */
export function usageOf(def: AnyRecipe): string {
  return `textstress ${commandOf(def).join(' ')}`;
}

/** README's recipes table: one row per recipe. */
export function recipesTable(registry: Registry): string {
  const rows = registry.all().map((d) => `| \`${d.name}\` | \`${usageOf(d)}\` | ${cell(d.summary)} | ${cell(d.paper ?? '')} |`);
  return ['| recipe | command | what it does | paper |', '|---|---|---|---|', ...rows].join('\n');
}

function typeOf(f: SettingField): string {
  const s = f.shape;
  const base =
    s.type === 'number'
      ? s.integer
        ? 'integer'
        : 'number'
      : s.type === 'string'
        ? s.choices
          ? s.choices.map((c) => `\`${c}\``).join(' \\| ')
          : 'text'
        : s.type === 'list'
          ? `list of ${s.choices ? s.choices.map((c) => `\`${c}\``).join(' \\| ') : s.of === 'number' ? 'numbers' : 'text'}`
          : s.type === 'boolean'
            ? 'true / false'
            : 'see description';
  const bounds = [
    f.minimum !== undefined ? `≥ ${f.minimum}` : '',
    f.exclusiveMinimum !== undefined ? `> ${f.exclusiveMinimum}` : '',
    f.maximum !== undefined ? `≤ ${f.maximum}` : '',
  ].filter(Boolean);
  return bounds.length ? `${base} (${bounds.join(', ')})` : base;
}

function flagOf(f: SettingField): string {
  if (f.hint === null) return '(suite only)';
  const long = f.shape.type === 'boolean' && f.default === true ? `--no-${kebab(f.key)}` : `--${kebab(f.key)}`;
  return f.hint?.short ? `-${f.hint.short}, ${long}` : long;
}

/** docs/recipes.md: every recipe with every setting, as flag, suite key, type, default and description. */
export function recipesReference(registry: Registry): string {
  const parts = [
    '# Recipes',
    '',
    '<!-- Generated from the recipe declarations by `npx tsx scripts/gen-docs.ts`; do not edit by hand. -->',
    '',
    'Every recipe is declared once (`src/families/<family>/`); its flags, the suite keys below and the defaults all come',
    'from that declaration. In a suite file a test names the recipe and gives `settings:` with the suite keys.',
    '',
  ];
  for (const d of registry.all()) {
    parts.push(`## \`${d.name}\``, '', d.summary + (d.paper ? ` — ${d.paper}.` : '.'), '');
    parts.push(
      `Run: \`${usageOf(d)}\` · kind: ${d.kind} · tasks: ${d.tasks.join(', ')}${d.data && d.data !== 'required' ? ` · data: ${d.data}` : ''}`,
      '',
    );
    const fields = settingFields(d);
    if (fields.length) {
      parts.push('| flag | suite key | type | default | description |', '|---|---|---|---|---|');
      for (const f of fields) {
        const def = f.hasDefault ? `\`${showDefault(f.default)}\`` : 'required';
        parts.push(`| \`${flagOf(f)}\` | \`${snake(f.key)}\` | ${typeOf(f)} | ${def} | ${cell(f.description ?? '')} |`);
      }
      parts.push('');
    }
    const metrics = Object.entries(d.metrics ?? {});
    if (metrics.length) {
      parts.push('Gate metrics: ' + metrics.map(([k, m]) => `\`${k}\` (${m.description})`).join('; ') + '.', '');
    }
  }
  return parts.join('\n');
}

/** Replaces the text between `<!-- name:start -->` and `<!-- name:end -->`. */
export function replaceBetweenMarkers(text: string, name: string, body: string): string {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const i = text.indexOf(start);
  const j = text.indexOf(end);
  if (i < 0 || j < i) throw new Error(`no ${start} … ${end} markers`);
  return text.slice(0, i + start.length) + '\n' + body + '\n' + text.slice(j);
}

/** docs/options.md: every shared model, data and run option, as flag, suite key and entry, type, default, saved. */
export function optionsReference(): string {
  const parts = [
    '# Shared options',
    '',
    '<!-- Generated from src/options/shared.ts by `npx tsx scripts/gen-docs.ts`; do not edit by hand. -->',
    '',
    'The options every run shares, declared once (src/options/shared.ts): the same name, bounds and default on the',
    'command line (`--kebab-case`) and in a suite file (`snake_case`, in the entry named). "Saved": kept in run.json,',
    'so `merge` and queue workers reopen the run the same way; "resume": a resume must use the same value.',
    '',
  ];
  const titles = { model: 'Model', data: 'Data', run: 'Run' } as const;
  for (const group of ['model', 'data', 'run'] as const) {
    parts.push(
      `## ${titles[group]} options`,
      '',
      '| flag | suite key | type | default | saved | description |',
      '|---|---|---|---|---|---|',
    );
    for (const o of optionsOf(group)) {
      const f = fieldOf(o.key, o.schema, o.meta.flag === null ? null : { ...(o.meta.flag.short ? { short: o.meta.flag.short } : {}) });
      const flag = o.meta.flag === null ? '(suite only)' : flagOf(f);
      const suite = o.meta.suite ? `\`${suiteKeyOf(o)}\` (${[o.meta.suite.in].flat().join(', ')})` : '—';
      const saved = [o.meta.saved ? 'yes' : 'no', o.meta.identity ? 'resume' : '', o.meta.secret ? 'secret' : '']
        .filter(Boolean)
        .join(', ');
      parts.push(
        `| \`${flag}\` | ${suite} | ${typeOf(f)} | ${f.hasDefault ? `\`${showDefault(f.default)}\`` : ''} | ${saved} | ${cell(f.description ?? '')} |`,
      );
    }
    parts.push('');
  }
  return parts.join('\n');
}

/** docs/adding-a-recipe.md's kinds table: where each kind's commands go and which modes it supports (from KINDS). */
export function kindsTable(): string {
  const modes = RUN_MODES.map((m) => `\`${MODES[m].name}\``);
  const rows = (Object.keys(KINDS) as (keyof typeof KINDS)[]).map((k) => {
    const kind = KINDS[k];
    const also = kind.command.alsoUnder ? ` (also \`${kind.command.alsoUnder}\`)` : '';
    const where = kind.command.under ? `\`${kind.command.under} <name>\`${also}` : 'its own verb';
    const cells = RUN_MODES.map((m) => (kind.supports[m] === true ? 'yes' : 'no'));
    return `| \`${k}\` | ${where} | ${cells.join(' | ')} |`;
  });
  return [`| kind | command | ${modes.join(' | ')} |`, `|---|---|${RUN_MODES.map(() => '---').join('|')}|`, ...rows].join('\n');
}
