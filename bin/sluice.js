#!/usr/bin/env node
// The `sluice` worker CLI. Inside a source checkout (src/cli/main.ts next to this
// file) it always runs the TypeScript source through tsx, so a stale dist/ never
// runs old code; an installed package (no src/) runs the compiled dist/cli/main.js.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const source = join(root, 'src', 'cli', 'main.ts');
if (existsSync(source)) {
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(source).href);
} else {
  await import(pathToFileURL(join(root, 'dist', 'cli', 'main.js')).href);
}
