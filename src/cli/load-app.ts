/**
 * Loads an application module (JavaScript, or TypeScript through tsx) and
 * finds its {@link AppDefinition}.
 */
import { existsSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConfigError } from '../errors.js';
import { isAppDefinition, type AppDefinition } from './define-app.js';
import { loadErrorReason } from './internal/load-error.js';

const TS_EXTENSIONS = new Set(['.ts', '.mts', '.cts', '.tsx']);
let tsxRegistered = false;

/** True when this process already compiles TypeScript on import (tsx, vitest, or running from `src/`). */
function typeScriptLoaderActive(): boolean {
  return tsxRegistered || process.env.VITEST !== undefined || import.meta.url.endsWith('.ts');
}

async function registerTypeScript(path: string): Promise<void> {
  if (typeScriptLoaderActive()) return;
  try {
    const api = (await import('tsx/esm/api')) as { register: () => unknown };
    api.register();
    tsxRegistered = true;
  } catch (error) {
    throw new ConfigError(
      `Cannot load ${path}: TypeScript modules need tsx (npm install --save-dev tsx), or compile the module to JavaScript first`,
      { cause: error },
    );
  }
}

/**
 * Imports `modulePath` (relative to `cwd`) and returns its default export or its
 * `app` export. Throws a {@link ConfigError} with a one-line reason when the file
 * is missing, fails to load, or exports no app definition.
 */
export async function loadApp(modulePath: string, cwd = process.cwd()): Promise<AppDefinition> {
  const path = resolve(cwd, modulePath);
  if (!existsSync(path)) throw new ConfigError(`Module not found: ${path} (pass the path of a .ts or .js file exporting defineApp({...}))`);
  if (TS_EXTENSIONS.has(extname(path))) await registerTypeScript(path);
  let mod: Record<string, unknown>;
  try {
    mod = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
  } catch (error) {
    throw new ConfigError(`Cannot load ${modulePath}: ${loadErrorReason(error, path)}`, { cause: error });
  }
  const candidate = isAppDefinition(mod.default) ? mod.default : isAppDefinition(mod.app) ? mod.app : undefined;
  if (!candidate) {
    throw new ConfigError(
      `${modulePath} exports no app: add \`export default defineApp({ topology: () => builder, config: { applicationId } })\``,
    );
  }
  return candidate;
}
