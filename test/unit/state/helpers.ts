/** Test helpers for state stores: a StoreInitContext over a temporary state directory. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import type { ChangelogRecord, StoreInitContext } from '../../../src/state/store-contract.js';

/** A fresh temporary task state directory; `cleanup()` removes it. */
export function tempStateDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-state-test-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Log lines a test can inspect (level 40 = WARN). */
export interface CapturedLog {
  level: number;
  msg: string;
}

/** A store init context for `stateDir`, without changelog or cache; its logger writes into `logs`. */
export function storeContext(stateDir: string, logs: CapturedLog[] = []): StoreInitContext {
  const logger = pino(
    { level: 'debug' },
    {
      write(line: string) {
        const parsed = JSON.parse(line) as CapturedLog;
        logs.push({ level: parsed.level, msg: parsed.msg });
      },
    },
  );
  return {
    applicationId: 'app',
    taskId: { subtopology: 0, partition: 0 },
    stateDir,
    changelog: undefined,
    cache: undefined,
    recordContext: () => ({ timestamp: 0, headers: {} }),
    logger,
  };
}

/** A changelog record of string key/value at `offset` (`null` value: a tombstone). */
export function changelogRecord(key: string, value: string | null, offset: number): ChangelogRecord {
  return { key: Buffer.from(key), value: value === null ? null : Buffer.from(value), timestamp: 0, offset };
}

/** `Buffer.from(s)`. */
export const b = (s: string): Buffer => Buffer.from(s);

/** Bytes entries as [key, value] strings. */
export function strings(entries: ReadonlyArray<{ key: Buffer; value: Buffer }>): Array<[string, string]> {
  return entries.map((e) => [e.key.toString(), e.value.toString()]);
}
