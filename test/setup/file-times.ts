/**
 * Known test-file durations (seconds, one clean-clone CI run, `test/setup/file-times.json`)
 * and the split of test/unit into files that share one worker process and files that run
 * isolated. Read by vitest.config.ts and by the sequencer (test/setup/sequencer.ts).
 *
 * Refresh the table from a CI JSON report: `node scripts/test-times.mjs <report.json>`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/** A file not in the table: assume a few seconds (new broker files are rarely instant). */
export const UNKNOWN_FILE_SECONDS = 10;

/** Unit files at least this slow run isolated, sorted with the broker files (long ones first). */
export const SLOW_UNIT_SECONDS = 5;

/** Duration (s) of each test file by its path relative to the root (`test/...`). */
export function fileTimes(root: string): Record<string, number> {
  return JSON.parse(readFileSync(join(root, 'test/setup/file-times.json'), 'utf8')) as Record<string, number>;
}

/** A path relative to `root` with `/` separators. */
export function relativeFile(root: string, file: string): string {
  return relative(root, file).split(sep).join('/');
}

/** Module mocking in a shared process leaks into the next files (mocks are per module registry). */
const MOCKS_MODULES = /\bvi\.(mock|doMock|unmock|doUnmock|hoisted|resetModules)\(/;

/**
 * The test/unit files that can share one worker process (vitest `isolate: false`): every
 * unit file except those that mock modules and the slow ones (those run isolated, early).
 * Steps: 1. list test/unit/**\/*.test.ts; 2. drop the ones whose source mocks modules;
 * 3. drop the ones the table knows to take SLOW_UNIT_SECONDS or more.
 */
export function sharedUnitFiles(root: string): string[] {
  const times = fileTimes(root);
  const unitDir = join(root, 'test/unit');
  const files = (readdirSync(unitDir, { recursive: true }) as string[])
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => relativeFile(root, join(unitDir, f))); // 1.
  return files
    .filter((f) => !MOCKS_MODULES.test(readFileSync(join(root, f), 'utf8'))) // 2.
    .filter((f) => (times[f] ?? 0) < SLOW_UNIT_SECONDS) // 3.
    .sort();
}
