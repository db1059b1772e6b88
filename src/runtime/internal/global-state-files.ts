/**
 * The global state folder `<stateDir>/<applicationId>/global` (Kafka's
 * `StateDirectory.globalStateDir`): its lock and its checkpoint file
 * `.checkpoint`, the next offset to read of every global topic partition
 * (Kafka's `OffsetCheckpoint` of `GlobalStateManagerImpl`), written
 * atomically (temporary file, then rename).
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { StreamsError } from '../../errors.js';
import { CHECKPOINT_FILE_NAME, LOCK_FILE_NAME } from './state-directory.js';
import { releaseLockFile, tryLockFile } from './task-lock-file.js';

/** Global folders locked by this process (two instances of one process must not share one). */
const held = new Set<string>();

/** Creates and locks `<appDir>/global`; returns its path. Throws STATE_DIR_LOCKED when another instance holds it. */
export function lockGlobalDir(appDir: string, applicationId: string): string {
  const dir = join(appDir, 'global');
  mkdirSync(dir, { recursive: true, mode: 0o750 });
  const lockPath = join(dir, LOCK_FILE_NAME);
  const fix = "give every instance of the app its own 'stateDir' (global tables are kept in full by each instance)";
  if (held.has(lockPath)) throw new StreamsError(`Cannot lock the global state folder ${dir}: another instance of this process holds it. Fix: ${fix}.`, { code: 'STATE_DIR_LOCKED' });
  const attempt = tryLockFile(lockPath, { applicationId, taskId: 'global' });
  if (attempt.kind !== 'locked') throw new StreamsError(`Cannot lock the global state folder ${dir}: another process holds it (${attempt.kind}). Fix: ${fix}.`, { code: 'STATE_DIR_LOCKED' });
  held.add(lockPath);
  return dir;
}

/** Releases the lock of `dir` taken by {@link lockGlobalDir}. */
export function unlockGlobalDir(dir: string): void {
  const lockPath = join(dir, LOCK_FILE_NAME);
  if (!held.delete(lockPath)) return;
  releaseLockFile(lockPath);
}

/** The checkpointed offsets, by `<topic>-<partition>`; empty when there is no (readable) checkpoint. */
export function readGlobalCheckpoint(dir: string): Map<string, number> {
  try {
    const parsed = JSON.parse(readFileSync(join(dir, CHECKPOINT_FILE_NAME), 'utf8')) as Record<string, unknown>;
    return new Map(Object.entries(parsed).filter((e): e is [string, number] => Number.isInteger(e[1]) && (e[1] as number) >= 0));
  } catch {
    return new Map();
  }
}

/** Writes the offsets atomically. */
export function writeGlobalCheckpoint(dir: string, offsets: ReadonlyMap<string, number>): void {
  const path = join(dir, CHECKPOINT_FILE_NAME);
  const tmp = `${path}.tmp`;
  writeFileSync(tmp, JSON.stringify(Object.fromEntries(offsets)));
  renameSync(tmp, path);
}
