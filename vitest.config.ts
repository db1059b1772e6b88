import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { sharedUnitFiles } from './test/setup/file-times.js';
import { DurationSequencer } from './test/setup/sequencer.js';

const root = fileURLToPath(new URL('.', import.meta.url));

/** Options both projects use (projects do not extend the root: the global setup must run once). */
const common = {
  root,
  testTimeout: 60_000,
  hookTimeout: 120_000,
};

/**
 * Most unit files share one worker process (`isolate: false`): each isolated file re-imports
 * src/ and its dependencies (the "import" figure of a run, 3-4 minutes of the CI run); shared,
 * they import once per worker. Module-mocking and slow unit files stay isolated (see
 * test/setup/file-times.ts); test/setup/shared-unit-setup.ts resets what a file may leave in
 * the shared process (environment, timers, the root logger) before the next one.
 */
const shared = sharedUnitFiles(root);

export default defineConfig({
  test: {
    // Runs once for the whole run (root project); both projects inherit what it provides.
    globalSetup: ['./test/setup/global-setup.ts'],
    // Broker-backed suites share one local Kafka; keep file parallelism modest on 2 cores.
    maxWorkers: 2,
    // Longest files first (test/setup/file-times.json), then the shared unit block.
    sequence: { sequencer: DurationSequencer },
    projects: [
      { test: { ...common, name: 'unit', include: shared, isolate: false, setupFiles: ['./test/setup/shared-unit-setup.ts'] } },
      { test: { ...common, name: 'isolated', include: ['test/**/*.test.ts'], exclude: [...shared, '**/node_modules/**'] } },
    ],
  },
});
