#!/usr/bin/env node
// The `sluice` worker CLI. Inside a source checkout (src/cli/main.ts next to this
// file) it always runs the TypeScript source through tsx, so a stale dist/ never
// runs old code, and an app module importing 'sluice' gets that same source copy;
// an installed package (no src/) runs the compiled dist/cli/main.js.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const source = join(root, 'src', 'cli', 'main.ts');
if (existsSync(source)) {
  const { register } = await import('tsx/esm/api');
  register();
  // An app module in this checkout that imports 'sluice' (as the README's example does) must get
  // the same copy of the classes as the CLI (src/, not a possibly stale or missing dist/): two
  // copies would not recognise each other's Topology. Registered after tsx, so it resolves first.
  const { register: registerHooks } = await import('node:module');
  const selfReference = {
    sluice: pathToFileURL(join(root, 'src', 'index.ts')).href,
    'sluice/testing': pathToFileURL(join(root, 'src', 'testing.ts')).href,
  };
  const hooks = `const map = ${JSON.stringify(selfReference)};
export async function resolve(specifier, context, next) {
  return Object.hasOwn(map, specifier) ? { url: map[specifier], format: 'module', shortCircuit: true } : next(specifier, context);
}`;
  registerHooks(`data:text/javascript,${encodeURIComponent(hooks)}`);
  await import(pathToFileURL(source).href);
} else {
  await import(pathToFileURL(join(root, 'dist', 'cli', 'main.js')).href);
}
