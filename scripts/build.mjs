// Builds the package: TypeScript → dist/ (JS, .d.ts, maps) with tsc, then the non-TS files the code reads at run
// time (the report's browser script and stylesheet) copied beside their modules. Run by `npm run build` and by
// `prepare` (so `npm ci` in a checkout and `npm pack` both leave a complete dist/).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
// An installed package has dist/ and no sources: nothing to build (npm may run `prepare` for a tarball install).
if (!existsSync(join(root, 'src'))) process.exit(0);
rmSync(dist, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const built = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
if (built.status !== 0) process.exit(built.status ?? 1);

const ASSETS = /\.(client\.js|css)$/;
function copyAssets(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) copyAssets(path);
    else if (ASSETS.test(name)) cpSync(path, join(dist, relative(join(root, 'src'), path)));
  }
}
copyAssets(join(root, 'src'));
