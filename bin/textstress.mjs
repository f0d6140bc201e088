#!/usr/bin/env node
// In a checkout the TypeScript sources run through tsx, so there is no build step while developing; an installed
// package (no src/, no tsx) runs the compiled dist/.
import { existsSync } from 'node:fs';

const src = new URL('../src/cli/main.ts', import.meta.url);
let tsx;
if (existsSync(src)) {
  try {
    tsx = await import('tsx/esm/api');
  } catch {
    tsx = undefined;
  }
}
let main;
if (tsx) {
  tsx.register();
  ({ main } = await import(src.href));
} else {
  ({ main } = await import(new URL('../dist/cli/main.js', import.meta.url).href));
}
await main(process.argv);
