/**
 * No import circle inside src/ (the layer rule only sees circles between
 * layers): `scripts/import-cycles.ts` finds none among the imports that stay
 * in the emitted JavaScript, and none among all imports (`import type`
 * included: the public DSL types that name each other are interfaces in
 * one module, topology/dsl-interfaces.ts); it bites on a circle, through a
 * folder's index and a re-export, and tells a type-only one apart.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { findImportCycles } from '../../../scripts/import-cycles.js';

const SRC = fileURLToPath(new URL('../../../src/', import.meta.url));

const scratchDirs: string[] = [];
afterEach(() => {
  for (const dir of scratchDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A scratch source tree of `files` (path → text). */
function scratch(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'sluice-cycles-'));
  scratchDirs.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe('import circles', () => {
  it('src/ has none at runtime (import type left out)', () => {
    const report = findImportCycles(SRC, { runtimeOnly: true });
    expect(report.files).toBeGreaterThan(300);
    expect(report.cycles).toEqual([]);
    expect(report.components).toEqual([]);
  });

  it('src/ has none with import type included', () => {
    const report = findImportCycles(SRC);
    expect(report.cycles).toEqual([]);
    expect(report.components).toEqual([]);
  });

  it('finds a circle through a folder index and a re-export', () => {
    const root = scratch({
      'a.ts': "import { b } from './dir/index.js';\nexport const a = b;\n",
      'dir/index.ts': "export { b } from './b.js';\n",
      'dir/b.ts': "import { c } from '../c.js';\nexport const b = c;\n",
      'c.ts': "import './a.js';\nexport const c = 1;\n",
      'd.ts': "import { a } from './a.js';\nexport const d = a;\n",
    });
    const report = findImportCycles(root, { runtimeOnly: true });
    expect(report.components).toEqual([['a.ts', 'c.ts', 'dir/b.ts', 'dir/index.ts']]);
    expect(report.cycles).toEqual([['a.ts', 'dir/index.ts', 'dir/b.ts', 'c.ts']]);
  });

  it('counts a type-only circle only when import type is included', () => {
    const root = scratch({
      'x.ts': "import type { Y } from './y.js';\nexport interface X { y?: Y }\n",
      'y.ts': "import { type X } from './x.js';\nexport interface Y { x?: X }\nexport const y = 1;\n",
    });
    expect(findImportCycles(root, { runtimeOnly: true }).cycles).toEqual([]);
    expect(findImportCycles(root).cycles).toEqual([['x.ts', 'y.ts']]);
  });
});
