/**
 * The package as a stranger gets it: `npm pack`, the tarball installed into an empty project, and there the CLI,
 * the demo, a plain-Node ESM import and a TypeScript file type-checked against the shipped declarations.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../cli/helpers.ts';

const work = mkdtempSync(join(tmpdir(), 'textstress-pack-'));
const project = join(work, 'project');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version: string }> };
const typesNode = lock.packages['node_modules/@types/node']!.version;

interface Run {
  code: number | null;
  out: string;
}
function sh(cmd: string, args: string[], cwd = project, env: Record<string, string> = {}): Run {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', ...env }, timeout: 240_000 });
  return { code: r.status, out: `${r.stdout}\n${r.stderr}` };
}

let tarball: string;
beforeAll(() => {
  // `npm pack` runs `prepare` (the build), as publishing would.
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--pack-destination', work], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }),
  ) as { filename: string }[];
  tarball = join(work, packed[0]!.filename);
  execFileSync('mkdir', ['-p', project]);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'stranger', private: true, type: 'module' }, null, 2));
  // As the README tells a stranger: no .npmrc of ours (npm never reads a dependency's), only the one setting that
  // stops onnxruntime-node's install script from downloading CUDA binaries on linux-x64 (and failing offline).
  // Cached packages are used when present.
  const install = sh('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball, `@types/node@${typesNode}`], project, {
    ONNXRUNTIME_NODE_INSTALL: 'skip',
  });
  if (install.code !== 0) throw new Error(`npm install of the tarball failed:\n${install.out}`);
}, 480_000);

describe('the packed package, installed into an empty project', () => {
  it('ships the compiled library, the CLI, the demo models and data, and no sources or tests', () => {
    const files = execFileSync('tar', ['tzf', tarball], { encoding: 'utf8' }).split('\n');
    for (const f of [
      'package/dist/index.js',
      'package/dist/index.d.ts',
      'package/dist/cli/main.js',
      'package/bin/textstress.mjs',
      'package/models/demo-sst2/onnx/model.onnx',
      'package/models/demo-ner/onnx/model.onnx',
      'package/models/demo-squad/onnx/model.onnx',
      'package/models/demo-squad/heldout-squad.json',
      'package/models/demo-qnli/onnx/model.onnx',
      'package/models/demo-mlm/onnx/model.onnx',
      'package/demo/reviews.tsv',
      'package/demo/news.conll',
      'package/schema/suite.schema.json',
      'package/dist/report/html/browser.client.js',
    ]) {
      expect(files, f).toContain(f);
    }
    expect(files.filter((f) => /^package\/(src|test|bench)\//.test(f))).toEqual([]);
  });

  it('installs without onnxruntime-node fetching its CUDA binaries', () => {
    expect(existsSync(join(project, '.npmrc'))).toBe(false);
    const bin = join(project, 'node_modules', 'onnxruntime-node', 'bin', 'napi-v6', process.platform, process.arch);
    expect(existsSync(join(bin, 'onnxruntime_binding.node')), bin).toBe(true);
    expect(existsSync(join(bin, 'libonnxruntime_providers_cuda.so'))).toBe(false);
  });

  it("the shipped README's and docs' relative links point at files in the package", () => {
    const files = new Set(execFileSync('tar', ['tzf', tarball], { encoding: 'utf8' }).split('\n'));
    const pages = [...files].filter((f) => /^package\/(README|BENCHMARKS)\.md$|^package\/(docs|demo)\/[^/]+\.md$/.test(f));
    expect(pages).toContain('package/README.md');
    const broken: string[] = [];
    for (const page of pages) {
      // The installed copy is the tarball's content, unpacked once by npm (a tar per page took seconds).
      const text = readFileSync(join(project, 'node_modules', 'textstress', page.slice('package/'.length)), 'utf8');
      for (const m of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        const target = m[1]!;
        if (/^[a-z]+:/.test(target)) continue;
        const path = posix.normalize(posix.join(posix.dirname(page), target));
        if (!files.has(path) && ![...files].some((f) => f.startsWith(`${path}/`))) broken.push(`${page} → ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('npx textstress --help lists the commands', () => {
    const r = sh('npx', ['textstress', '--help']);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(/attack \[recipe\]/);
    expect(r.out).toMatch(/typos-curve/);
  });

  it('npx textstress demo writes summaries, results, a table and the report', () => {
    const r = sh('npx', ['textstress', 'demo', '--out', 'demo-out', '--limit', '30', '--no-progress']);
    // 30 reviews leave 28 attacked under noise, fewer than the gate's min_n (30): its robustness check is
    // inconclusive (exit 3); the full demo (50 reviews) passes it.
    expect(r.code, r.out).toBe(3);
    const demoOut = join(project, 'demo-out');
    const html = readFileSync(join(demoOut, 'report.html'), 'utf8');
    expect(r.out).toMatch(/K=3/);
    expect(r.out).toMatch(/typos-max-k3 .* 30 /);
    expect(r.out).toMatch(/Report: \S*demo-out\/report\.html/);
    const s = JSON.parse(readFileSync(join(demoOut, 'typos-max-k3', 'summary.json'), 'utf8')) as { n: number; complete: boolean };
    expect(s).toMatchObject({ n: 30, complete: true });
    expect(
      readFileSync(join(demoOut, 'typos-max-k3', 'results.jsonl'), 'utf8')
        .trim()
        .split('\n'),
    ).toHaveLength(30);
    expect(existsSync(join(demoOut, 'noise-middle-random', 'summary.json'))).toBe(true);
    // The NER test runs on the shipped news sentences, on any machine.
    expect(JSON.parse(readFileSync(join(demoOut, 'ner-typos-k2', 'summary.json'), 'utf8'))).toMatchObject({ n: 30, complete: true });
    // Person names swapped in the news sentences: Table 3's numbers, over the sentences that name a person.
    const e = JSON.parse(readFileSync(join(demoOut, 'ner-entities-per', 'summary.json'), 'utf8')) as {
      n: number;
      details: { probed: number; table3: { stability: number | null } };
    };
    expect(e.n).toBe(30);
    expect(e.details.probed).toBeGreaterThan(0);
    expect(e.details.table3.stability).not.toBeNull();
    expect(existsSync(join(demoOut, 'ner-entities-per', 'd_worst.conll'))).toBe(true);
    // Fooling sentences from the reviews' own words (the limit does not apply: the run reads the training file).
    const f = JSON.parse(readFileSync(join(demoOut, 'sst2-fooling', 'summary.json'), 'utf8')) as {
      steps: number;
      metrics: Record<string, number>;
    };
    expect(f.steps).toBe(10);
    expect(f.metrics.fooling_threshold).toBeGreaterThan(0);
    expect(r.out).toMatch(/sst2-fooling +fooling/);
    // Inside demo-mlm: Table 7/8 for three error types and the cloze test, on the WordNet sentences that ship.
    const layers = JSON.parse(readFileSync(join(demoOut, 'mlm-probe-layers', 'layers.json'), 'utf8')) as { table7: { head: string[] } };
    expect(layers.table7.head).toEqual(['layer', 'ArtOrDet', 'SVA', 'Worder', 'mean']);
    expect(JSON.parse(readFileSync(join(demoOut, 'mlm-cloze', 'summary.json'), 'utf8')).metrics.pairs_used).toBeGreaterThan(50);
    expect(html).toMatch(/Inside the encoder: where grammar errors are noticed/);
    expect(html).toMatch(/Cloze test: how far a grammar error reaches/);
    expect(r.out).toMatch(/Gate: INCONCLUSIVE — 1 of 5 checks inconclusive/);
    expect(r.out).toContain('noise-middle-random: attack_success_rate.high = ');
    expect(html).toMatch(/Fooling sentences \(EFSG\)/);
    expect(html).toMatch(/Entity names/);
    expect(html).toMatch(/Keyboard typos/);
    expect(html).toMatch(/Character noise/);
    // The demo reads only shipped data, so a clone without the shared data folder runs the same suite.
    expect(r.out).toMatch(/over \S*textstress\/demo\/reviews\.tsv/);
    expect(r.out).toMatch(/over \S*textstress\/demo\/news\.conll/);
    expect(r.out).not.toMatch(/Skipped/);
    // Long by nature: --limit leaves the encoder tests whole (the cloze test's 7,040 masked queries and the layer
    // probes inside demo-mlm): about 40 s alone on an idle 2-core machine, 60-90 s beside the other test worker.
  }, 200_000);

  it('a plain-Node ESM script imports the library and attacks sentences in memory', () => {
    // Both entry points resolve through package.json "exports": the public API and textstress/internal.
    const entries = "Promise.all([import('textstress'), import('textstress/internal')])";
    const r = sh(process.execPath, ['-e', `${entries}.then(([m, i]) => console.log(typeof m.runRecipe, typeof i.grammarAttack))`]);
    expect(r.code, r.out).toBe(0);
    expect(r.out.trim().split('\n')[0]).toBe('function function');
    writeFileSync(
      join(project, 'script.mjs'),
      [
        "import { attackInMemory } from 'textstress';",
        "const texts = ['a warm , funny and beautifully acted film .', 'the plot is so thin that the actors seem embarrassed .'];",
        "const examples = texts.map((text, i) => ({ kind: 'text', id: String(i), text, label: i === 0 ? 'positive' : 'negative' }));",
        "const run = attackInMemory({ recipe: 'typos', settings: { k: 2 }, model: 'demo-sst2', examples });",
        'const ids = [];',
        'for await (const r of run) ids.push(r.id + ":" + r.status);',
        'const s = await run.summary;',
        'console.log(JSON.stringify({ ids, n: s.n, complete: s.complete }));',
      ].join('\n'),
    );
    const s = sh(process.execPath, ['script.mjs']);
    expect(s.code, s.out).toBe(0);
    const line = JSON.parse(s.out.trim().split('\n')[0]!) as { ids: string[]; n: number; complete: boolean };
    expect(line.n).toBe(2);
    expect(line.complete).toBe(true);
    expect(line.ids.map((x) => x.split(':')[0])).toEqual(['0', '1']);
  });

  it('a TypeScript file using typoAttack, runSuite and writeHtmlReport type-checks against the declarations', () => {
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          noEmit: true,
          skipLibCheck: true,
          types: ['node'],
        },
        files: ['use.ts'],
      }),
    );
    const good = [
      'import { runSuite, writeHtmlReport, loadSuite, builtinRegistry, UntargetedClassification, ' +
        "LabelAligner, type Attack, type SuiteOutcome } from 'textstress';",
      "import { typoAttack } from 'textstress/internal';",
      "const attack: Attack = typoAttack({ goal: new UntargetedClassification(new LabelAligner(['negative', 'positive'])), target: 'max', k: 2 });",
      'export async function gate(file: string): Promise<boolean> {',
      '  const registry = builtinRegistry();',
      "  const outcome: SuiteOutcome = await runSuite(loadSuite(file, registry), { registry, out: 'out' });",
      "  const { bytes } = await writeHtmlReport(['out'], 'out/again.html');",
      '  return outcome.verdict.passed && bytes > 0 && attack.name.length > 0;',
      '}',
    ].join('\n');
    writeFileSync(join(project, 'use.ts'), good);
    const ok = sh(process.execPath, [tsc, '-p', '.']);
    expect(ok.code, ok.out).toBe(0);
    // The declarations really constrain: a wrong type is an error.
    writeFileSync(join(project, 'use.ts'), good.replace('k: 2 }', "k: 'two' }"));
    const bad = sh(process.execPath, [tsc, '-p', '.']);
    expect(bad.code).not.toBe(0);
    expect(bad.out).toMatch(/use\.ts.*error TS2322/);
  });

  it('a TypeScript plugin without a TypeScript loader gets a clear error', () => {
    writeFileSync(join(project, 'plugin.ts'), 'export default [] as const;\n');
    const r = sh('npx', ['textstress', '--plugin', 'plugin.ts', '--help']);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/cannot load the TypeScript plugin .*plugin\.ts: Node needs a TypeScript loader/);
    expect(r.out).toMatch(/npm install --save-dev tsx/);
    expect(existsSync(join(project, 'node_modules', 'tsx'))).toBe(false);
  });

  it('with tsx installed in the project, a TypeScript plugin adds its recipe to the CLI', () => {
    const tsxVersion = lock.packages['node_modules/tsx']!.version;
    const install = sh('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--save-dev', `tsx@${tsxVersion}`]);
    expect(install.code, install.out).toBe(0);
    writeFileSync(
      join(project, 'plugin.ts'),
      [
        "import { builtinRegistry, defineRecipe } from 'textstress';",
        "const name: string = 'stranger-noise';",
        "export default defineRecipe({ ...builtinRegistry().get('noise'), name, summary: 'noise, from a TypeScript plugin' });",
      ].join('\n'),
    );
    const r = sh('npx', ['textstress', '--plugin', 'plugin.ts', 'attack', '--help']);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(/stranger-noise .*noise, from a TypeScript\s+plugin/);
  });
});
