#!/usr/bin/env node
// `npm run test:data`: the checks on the full data files (test/full-data/, vitest.data.config.ts). They need
// ../shared/data beside the checkout; without it this says, file by file, what it did not run and exits 0, since
// `npm test` already covers the same code on the committed slices. Extra arguments go to `vitest run`.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SHARED = resolve(ROOT, '..', 'shared', 'data');
const VITEST = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');
const CONFIG = 'vitest.data.config.ts';

if (existsSync(SHARED)) {
  const run = spawnSync(process.execPath, [VITEST, 'run', '--config', CONFIG, ...process.argv.slice(2)], { cwd: ROOT, stdio: 'inherit' });
  process.exit(run.status ?? 1);
}

// Name what is skipped: collect the tests without running them (they read the data only inside tests).
const list = spawnSync(process.execPath, [VITEST, 'list', '--config', CONFIG, '--json'], { cwd: ROOT, encoding: 'utf8' });
/** @type {Map<string, number>} test file → number of checks in it */
const perFile = new Map();
if (list.status === 0) {
  for (const { file } of /** @type {{ file: string }[]} */ (JSON.parse(list.stdout))) {
    const rel = relative(ROOT, file);
    perFile.set(rel, (perFile.get(rel) ?? 0) + 1);
  }
}
if (perFile.size === 0) {
  process.stderr.write(`test:data: could not list the data checks (vitest list exited ${list.status}):\n${list.stderr}\n`);
  process.exit(1);
}
const reason = `../shared/data not found (looked for ${SHARED})`;
let total = 0;
for (const [file, n] of [...perFile].sort()) {
  total += n;
  process.stdout.write(`test:data: skipped ${n} data check${n === 1 ? '' : 's'}: ${reason}: ${file}\n`);
}
process.stdout.write(
  `test:data: ran nothing — ${total} checks in ${perFile.size} files skipped. Put the data sets at ${SHARED} to run them; ` +
    '`npm test` covers the same code on the slices in test/fixtures/data.\n',
);
