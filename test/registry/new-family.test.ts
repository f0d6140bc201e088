/**
 * Adding a per-example family touches these files and nothing else: the family's own folder (domain logic,
 * settings, the composition, the declaration, the report section, and its manifest in index.ts) and one line that
 * registers it (BUILTIN_FAMILIES in src/families/index.ts; here through the public `builtinRegistry().addFamily`,
 * the path a program takes, and `--plugin`, the path the command line takes). The fixture family under
 * test/registry/fixtures/casing/ is laid out as a built-in one; from that alone it gets its command and flags, its
 * suite entry, its row in the generated docs, its resumable run and its report section.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProgram, loadPlugins } from '../../src/cli/main.ts';
import { recipesReference, recipesTable } from '../../src/cli/docs.ts';
import { runRecipeAs } from '../../src/kinds/run.ts';
import { builtinRegistry } from '../../src/index.ts';
import { writeHtmlReport } from '../../src/report/html/index.ts';
import { parseSuite } from '../../src/suite/load.ts';
import { DEMO_SST2, ROOT, tmp } from '../cli/helpers.ts';
import * as casing from './fixtures/casing/index.ts';

const FAMILY = join(import.meta.dirname, 'fixtures', 'casing');

describe('adding a per-example family', () => {
  // The one edit outside the family's folder: its manifest joins the built-in families.
  const registry = builtinRegistry().addFamily(casing);

  it('is its own folder: domain logic, settings, composition, declaration, report section, and the list it exports', () => {
    expect(readdirSync(FAMILY).sort()).toEqual(['attack.ts', 'flip.ts', 'index.ts', 'recipe.ts', 'report.ts', 'settings.ts']);
    // Its domain logic is pure: no import at all, so no model and no query.
    expect(readFileSync(join(FAMILY, 'flip.ts'), 'utf8')).not.toMatch(/^import /m);
    // It builds only with the public API (no path into another family or the runner).
    for (const f of readdirSync(FAMILY)) {
      for (const m of readFileSync(join(FAMILY, f), 'utf8').matchAll(/from '([^']+)'/g)) {
        expect([f, m[1]]).toEqual([f, expect.stringMatching(/^(zod|\.\/[a-z-]+\.ts|\.\.\/\.\.\/\.\.\/\.\.\/src\/index\.ts)$/)]);
      }
    }
  });

  it('registers the same way from the command line: its folder as a --plugin module', async () => {
    const viaPlugin = builtinRegistry();
    await loadPlugins(['--plugin', join(FAMILY, 'index.ts')], viaPlugin);
    expect(viaPlugin.all().map((r) => r.name)).toEqual(registry.all().map((r) => r.name));
  });

  it('gets its command and flags, its suite entry and its docs row from the declaration', () => {
    const attack = buildProgram({ registry }).commands.find((c) => c.name() === 'attack')!;
    const help = attack.commands.find((c) => c.name() === 'flip-case')!.helpInformation();
    expect(help).toMatch(/--k <n>\s+most words flipped \(default: 2\)/);
    expect(help).toMatch(/--target <name>/);
    const suite = [
      'models: { m: demo-sst2 }',
      'datasets: { d: data.tsv }',
      'tests:',
      '  - { name: flipped, recipe: flip-case, settings: { k: 3 } }',
    ].join('\n');
    expect(parseSuite(suite, 'suite.yaml', registry).suite.tests[0]).toMatchObject({ recipe: 'flip-case', settings: { k: 3 } });
    expect(() => parseSuite(suite.replace('k: 3', 'kk: 3'), 'suite.yaml', registry)).toThrow(/kk/);
    expect(recipesTable(registry)).toContain('| `flip-case` | `textstress attack flip-case` |');
    expect(recipesReference(registry)).toMatch(/## `flip-case`[\s\S]*`--k` \| `k` \| integer \(≥ 1\) \| `2`/);
  });

  it('runs resumably into a folder, with its settings recorded, and the report shows its section', async () => {
    const out = join(tmp('new-family'), 'flip');
    const request = {
      registry,
      recipe: 'flip-case',
      settings: { k: 2 },
      model: DEMO_SST2,
      data: join(ROOT, 'demo', 'reviews.tsv'),
      limit: 8,
      out,
      seed: 1,
    };
    const outcome = await runRecipeAs('attack', request);
    expect(outcome.summary).toMatchObject({ kind: 'attack', recipe: 'flip-case', n: 8, settings: { k: 2, target: 'max', limit: 8 } });
    expect(outcome.summary.attack_success_rate).not.toBeNull();
    const again = await runRecipeAs('attack', { ...request, resume: true });
    expect(again.summary.n).toBe(8);
    const html = join(out, 'report.html');
    await writeHtmlReport([out], html, { registry });
    const page = readFileSync(html, 'utf8');
    expect(page).toContain('Flipped case');
    expect(page).toContain('case flipped');
  });
});
