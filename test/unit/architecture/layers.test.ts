/**
 * The layer rules of eslint.config.js bite: a wrong import in a file under src/
 * gets a `boundaries/*` error, a legal one gets none, the layer table has no
 * circle, every folder with an `internal/` is its own element (so the internal
 * rule covers it), and the whole of src/ is clean.
 */
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

type Layers = Record<string, { folders?: string[]; files?: string[]; mayImport: string[] }>;

let eslint: ESLint;
let layers: Layers;

beforeAll(async () => {
  // Only the boundaries rules: the point here is the layer table, and the rest of lint is slow.
  // No typed linting either (the scratch files below exist only as text, the project service cannot open them).
  eslint = new ESLint({
    cwd: ROOT,
    ruleFilter: ({ ruleId }) => ruleId.startsWith('boundaries/'),
    overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
  });
  const config = (await import(pathToFileURL(join(ROOT, 'eslint.config.js')).href)) as { LAYERS: Layers };
  layers = config.LAYERS;
});

/** The boundaries messages ESLint gives `code` as if it were the file `filePath` (relative to the repo). */
async function boundariesMessages(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(ROOT, filePath) });
  const fatal = result?.messages.find((m) => m.fatal);
  if (fatal) throw new Error(`ESLint could not lint ${filePath}: ${fatal.message}`);
  return (result?.messages ?? []).filter((m) => m.ruleId?.startsWith('boundaries/')).map((m) => `${m.ruleId}: ${m.message}`);
}

describe('layer rules (eslint-plugin-boundaries)', () => {
  it('refuses an upward import (serdes → runtime)', async () => {
    const messages = await boundariesMessages(
      "import { KafkaStreams } from '../runtime/kafka-streams.js';\nexport const x = KafkaStreams;\n",
      'src/serdes/scratch.ts',
    );
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/^boundaries\/dependencies: layer rule: serdes may not import runtime/);
  });

  it('refuses the old handlers → eos edge (it closed a circle with processors)', async () => {
    const messages = await boundariesMessages(
      "import { TxnSendOption } from '../eos/txn-send-option.js';\nexport const x = TxnSendOption;\n",
      'src/handlers/scratch.ts',
    );
    expect(messages).toEqual([expect.stringMatching(/layer rule: handlers may not import eos/)]);
  });

  it("refuses an import into another folder's internal/", async () => {
    const fromTopology = await boundariesMessages(
      "import { Broker } from '../cluster/embedded/internal/broker.js';\nexport const x = Broker;\n",
      'src/topology/scratch.ts',
    );
    expect(fromTopology).toEqual([expect.stringMatching(/internal rule: internal\/broker\.ts is private to src\/cluster\/embedded/)]);
    // A layer it may import, but not that layer's internal/: state/internal is private to src/state.
    const fromProcessors = await boundariesMessages(
      "export * from '../state/internal/sorted-bytes-map.js';\n",
      'src/processors/scratch.ts',
    );
    expect(fromProcessors).toEqual([expect.stringMatching(/internal rule: .* private to src\/state/)]);
  });

  it("lets a folder import its own internal/ and a layer import what it may (serdes → errors)", async () => {
    expect(await boundariesMessages("export * from './internal/task-manager.js';\n", 'src/runtime/scratch.ts')).toEqual([]);
    expect(
      await boundariesMessages("import { SerializationError } from '../errors.js';\nexport const x = SerializationError;\n", 'src/serdes/scratch.ts'),
    ).toEqual([]);
  });

  it('refuses a file under src/ that belongs to no layer', async () => {
    const messages = await boundariesMessages('export const x = 1;\n', 'src/newpart/scratch.ts');
    expect(messages.some((m) => m.startsWith('boundaries/no-unknown-files'))).toBe(true);
  });

  it('has no circle in the layer table (so no import circle between layers is possible)', () => {
    const state = new Map<string, 'visiting' | 'done'>();
    const visit = (layer: string, path: string[]): void => {
      if (state.get(layer) === 'done') return;
      if (state.get(layer) === 'visiting') throw new Error(`layer circle: ${[...path, layer].join(' → ')}`);
      state.set(layer, 'visiting');
      const entry = layers[layer];
      if (!entry) throw new Error(`${path.at(-1) ?? '?'} may import unknown layer ${layer}`);
      for (const next of entry.mayImport) visit(next, [...path, layer]);
      state.set(layer, 'done');
    };
    for (const layer of Object.keys(layers)) visit(layer, []);
    expect(state.size).toBe(Object.keys(layers).length);
    expect(Object.values(layers).some((l) => l.mayImport.includes('entry'))).toBe(false);
  });

  it('makes every folder that has an internal/ its own element', () => {
    const elementFolders = new Set(Object.values(layers).flatMap((l) => l.folders ?? []));
    const owners: string[] = [];
    const walk = (dir: string): void => {
      for (const name of readdirSync(dir)) {
        const child = join(dir, name);
        if (!statSync(child).isDirectory()) continue;
        if (name === 'internal') owners.push(relative(ROOT, dir));
        walk(child);
      }
    };
    walk(join(ROOT, 'src'));
    // src/internal belongs to ground (every layer may import it); the rest must be element roots.
    const uncovered = owners.filter((owner) => owner !== 'src' && !elementFolders.has(owner));
    expect(uncovered).toEqual([]);
  });

  it('finds src/ clean', async () => {
    const results = await eslint.lintFiles(['src']);
    const broken = results
      .flatMap((r) => r.messages.filter((m) => m.ruleId?.startsWith('boundaries/')).map((m) => `${relative(ROOT, r.filePath)}:${m.line} ${m.message}`));
    expect(broken).toEqual([]);
  });
});
