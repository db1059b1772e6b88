// @ts-check
import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';
import boundaries from 'eslint-plugin-boundaries';

/*
 * Layers of src/ (docs/architecture.md explains them).
 *
 * Why eslint-plugin-boundaries: it classifies files into element types once and
 * checks every import against one allow-list per type (default: disallow), so
 * the table below is the whole rule; import-x/no-restricted-paths would need
 * one "zone" per forbidden pair and cannot say "only these". With
 * eslint-import-resolver-typescript it resolves our `.js` specifiers to the
 * `.ts` sources. Because the allow-graph is a DAG (test/unit/architecture
 * checks that), no import circle between layers is possible, so no separate
 * cycle rule (import-x/no-cycle is not installed) is needed.
 */

/**
 * Each layer: the files it owns, and the layers it may import (its own type is
 * always allowed). Written once; the lint rule and the architecture test read it.
 * Folders listed separately in `folders` (for example `src/cluster/embedded`)
 * are their own element of that layer so their `internal/` stays private to them.
 * @type {Record<string, { folders?: string[]; files?: string[]; mayImport: string[] }>}
 */
export const LAYERS = {
  ground: { files: ['src/errors.ts', 'src/error-table.ts'], folders: ['src/records', 'src/internal'], mayImport: [] },
  serdes: { folders: ['src/serdes'], mayImport: ['ground'] },
  'cluster-port': { files: ['src/cluster/port.ts'], mayImport: ['ground'] },
  'cluster-kafkajs': { folders: ['src/cluster/kafkajs'], mayImport: ['cluster-port', 'ground'] },
  'cluster-embedded': { folders: ['src/cluster/embedded'], mayImport: ['cluster-port', 'ground'] },
  assignment: { folders: ['src/assignment'], mayImport: ['cluster-port', 'ground'] },
  handlers: { folders: ['src/handlers'], mayImport: ['serdes', 'ground'] },
  // Stores: interfaces, the caching/change-logging/metered layers, the engines (src/state/lmdb, src/state/in-memory).
  state: { folders: ['src/state'], mayImport: ['serdes', 'ground'] },
  processors: { folders: ['src/processors'], mayImport: ['state', 'handlers', 'serdes', 'ground'] },
  topology: { folders: ['src/topology'], mayImport: ['processors', 'state', 'handlers', 'serdes', 'ground'] },
  eos: { folders: ['src/eos'], mayImport: ['cluster-port', 'processors', 'state', 'handlers', 'serdes', 'ground'] },
  // The live UI's server and page: below runtime (which implements its data source), knows nothing above ground.
  ui: { folders: ['src/ui'], mayImport: ['ground'] },
  runtime: {
    folders: ['src/runtime'],
    mayImport: ['ui', 'eos', 'topology', 'processors', 'state', 'handlers', 'serdes', 'assignment', 'cluster-kafkajs', 'cluster-port', 'ground'],
  },
  testing: {
    files: ['src/testing.ts'],
    folders: ['src/testing'],
    mayImport: ['eos', 'topology', 'processors', 'state', 'handlers', 'serdes', 'cluster-embedded', 'cluster-port', 'ground'],
  },
  cli: { folders: ['src/cli'], mayImport: ['runtime', 'topology', 'cluster-kafkajs', 'cluster-embedded', 'cluster-port', 'ground'] },
  entry: {
    files: ['src/index.ts'],
    mayImport: ['cli', 'testing', 'runtime', 'ui', 'eos', 'topology', 'processors', 'state', 'handlers', 'serdes', 'assignment', 'cluster-embedded', 'cluster-kafkajs', 'cluster-port', 'ground'],
  },
};

// One-file layers use `mode: 'file'` (v7 calls it legacy, but an element
// pattern is otherwise always a folder); folders match from the project root.
const layerElements = Object.entries(LAYERS).flatMap(([type, { files = [], folders = [] }]) => [
  ...files.map((pattern) => ({ type, pattern, mode: /** @type {const} */ ('file') })),
  ...folders.map((pattern) => ({ type, pattern, partialMatch: false })),
]);

/** Options of `boundaries/dependencies`: default disallow, one allow per layer, then the internal/ rule. */
const layerRuleOptions = {
  default: /** @type {const} */ ('disallow'),
  message: 'layer rule: {{ from.element.type }} may not import {{ to.element.type }} (see LAYERS in eslint.config.js and docs/architecture.md)',
  policies: [
    ...Object.entries(LAYERS).map(([type, { mayImport }]) => ({
      from: { element: { type } },
      allow: { to: { element: { types: { anyOf: [type, ...mayImport] } } } },
    })),
    // A folder's internal/ is private to it: no import into it from another element
    // (imports inside one element are not checked, so the owner itself may).
    {
      disallow: { to: { element: { fileInternalPath: ['internal/**', '**/internal/**'] } } },
      message: 'internal rule: {{ to.element.fileInternalPath }} is private to {{ to.element.path }}; import a module outside its internal/ instead',
    },
  ],
};

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', '.kafka/', 'coverage/', 'bench/java/', 'bench/.build/', 'bench/.build-*/'] },
  eslint.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', setImmediate: 'readonly', URL: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  // Type-aware rules for src/ (typed linting through the TypeScript project service).
  {
    files: ['src/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-non-null-assertion': 'error',
    },
  },
  // Layer rules: src/ only (tests, bench, examples and scripts may import anything).
  {
    files: ['src/**/*.ts'],
    plugins: { boundaries },
    settings: {
      'import/resolver': { typescript: { project: './tsconfig.json' } },
      'boundaries/include': ['src/**/*.ts'],
      'boundaries/elements': layerElements,
      // Silences only the notice about `mode: 'file'` above.
      'boundaries/legacy-warnings': false,
    },
    rules: {
      'boundaries/dependencies': ['error', layerRuleOptions],
      // A new file or folder under src/ must be given a layer first.
      'boundaries/no-unknown-files': 'error',
      'boundaries/no-unknown-dependencies': 'error',
    },
  },
);
