import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['./test/setup/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Broker-backed suites share one local Kafka; keep file parallelism modest on 2 cores.
    maxWorkers: 2,
  },
});
