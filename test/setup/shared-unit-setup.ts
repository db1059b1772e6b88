/**
 * Runs before each file of the `unit` project, whose files share one worker process
 * (vitest.config.ts, `isolate: false`): what a file may leave behind in the process is put back
 * as a fresh process has it, so no file depends on the files run before it.
 *
 * 1. Environment variables as at the worker's start (vitest's own VITEST_* left to vitest).
 * 2. Real timers.
 * 3. sluice's default root logger (the CLI worker installs its own, src/cli/worker.ts).
 */
import { vi } from 'vitest';
import { defaultLogger, setRootLogger } from '../../src/internal/logger.js';

const worker = globalThis as { sluiceInitialEnv?: Record<string, string | undefined> };
const initial = (worker.sluiceInitialEnv ??= { ...process.env });
const ours = (key: string) => !key.startsWith('VITEST');

// 1.
for (const key of Object.keys(process.env)) if (ours(key) && !(key in initial)) delete process.env[key];
for (const [key, value] of Object.entries(initial)) if (ours(key) && value !== undefined) process.env[key] = value;
// 2.
vi.useRealTimers();
// 3.
setRootLogger(defaultLogger());
