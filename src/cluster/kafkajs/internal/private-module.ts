/**
 * A private copy of a dependency-free CommonJS package (kafkajs): its files are
 * compiled again, with their own module table, so patching the copy's module
 * objects changes nothing for `import 'kafkajs'` / `require('kafkajs')`
 * elsewhere in the process (those go through Node's shared loader and get the
 * pristine package).
 *
 * Why not swap `require.cache` while requiring kafkajs: kafkajs requires most
 * of its request and response modules lazily (`protocol/requests/<api>/index.js`
 * calls `require('./v7/request')` on first use), long after a swapped cache
 * would have been restored; those modules, and the error classes they throw,
 * would then come from the shared copy. Here every `require` of a copied file
 * resolves inside the private table, at any time; Node built-ins (`net`, `tls`,
 * `zlib`, ...) come from Node as usual.
 */
import { readFileSync } from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import { dirname, isAbsolute, resolve, sep } from 'node:path';
import { compileFunction } from 'node:vm';

/** A private copy of one package. */
export interface PrivatePackage {
  /** The package's directory. */
  readonly root: string;
  /** `package.json` of the package (read from disk, not from the copy). */
  readonly packageJson: { name?: string; version?: string };
  /** Loads a file of the copy by its path inside the package, e.g. `'index.js'` or `'src/errors.js'`. */
  load<T>(path: string): T;
  /**
   * Replaces the exports of a file of the copy with `make(original)`: every file
   * of the copy that requires it afterwards gets the replacement (one that
   * required it before keeps the original, so replace before first use).
   */
  replace<T>(path: string, make: (original: T) => T): void;
}

interface CopiedModule {
  exports: unknown;
  readonly id: string;
  readonly filename: string;
  loaded: boolean;
}

/**
 * Makes a private copy of package `name` as resolved from `from` (a file URL or
 * path). Files are compiled on first `require`, once per copy.
 * 1. resolve the package root from its `package.json`;
 * 2. `load(path)` resolves the file as Node would (extensions, `index.js`);
 * 3. a copied file's `require` loads files under the root into the copy, anything else through Node.
 */
export function privatePackage(name: string, from: string | URL): PrivatePackage {
  const hostRequire = createRequire(from);
  // 1. the root
  const packageJsonPath = hostRequire.resolve(`${name}/package.json`);
  const root = dirname(packageJsonPath);
  const packageJson = JSON.parse(readFileSync(packageJsonPath, 'utf8')) as PrivatePackage['packageJson'];
  const table = new Map<string, CopiedModule>();

  const inside = (filename: string) => filename.startsWith(root + sep);

  const loadFile = (filename: string): unknown => {
    const cached = table.get(filename);
    if (cached) return cached.exports;
    const module: CopiedModule = { exports: {}, id: filename, filename, loaded: false };
    table.set(filename, module);
    if (filename.endsWith('.json')) {
      module.exports = JSON.parse(readFileSync(filename, 'utf8')) as unknown;
    } else {
      const wrapper = compileFunction(readFileSync(filename, 'utf8'), ['exports', 'require', 'module', '__filename', '__dirname'], { filename });
      wrapper.call(module.exports, module.exports, requireFrom(filename), module, filename, dirname(filename));
    }
    module.loaded = true;
    return module.exports;
  };

  // 3. the `require` of a copied file
  // (kafkajs requires lazily on hot paths, e.g. `produce/index.js` on every request: each file's
  // resolutions are cached, so a repeated `require` is two map lookups, not a file-system walk.)
  function requireFrom(parent: string): (id: string) => unknown {
    const nodeRequire = createRequire(parent);
    const resolved = new Map<string, string>();
    return (id: string) => {
      if (isBuiltin(id)) return nodeRequire(id);
      let target = resolved.get(id);
      if (target === undefined) {
        target = id.startsWith('.') || isAbsolute(id) ? nodeRequire.resolve(resolve(dirname(parent), id)) : nodeRequire.resolve(id);
        resolved.set(id, target);
      }
      return inside(target) ? loadFile(target) : nodeRequire(target);
    };
  }

  // (`load` runs on hot paths too, e.g. a decoder per Produce response: resolved paths are cached)
  const loaded = new Map<string, string>();
  const filenameOf = (path: string): string => {
    let filename = loaded.get(path);
    if (filename === undefined) loaded.set(path, (filename = hostRequire.resolve(resolve(root, path))));
    return filename;
  };

  return {
    root,
    packageJson,
    // 2. a file by its path inside the package
    load: <T>(path: string): T => loadFile(filenameOf(path)) as T,
    replace: <T>(path: string, make: (original: T) => T): void => {
      const filename = hostRequire.resolve(resolve(root, path));
      const original = loadFile(filename) as T;
      const module = table.get(filename);
      if (module) module.exports = make(original);
    },
  };
}
