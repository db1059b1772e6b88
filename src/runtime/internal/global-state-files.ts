/**
 * The global state folder `<stateDir>/<applicationId>/global` (Kafka's
 * `StateDirectory.globalStateDir`): its lock and its checkpoint file
 * `.checkpoint`, the next offset to read of every global topic partition
 * (Kafka's `OffsetCheckpoint` of `GlobalStateManagerImpl`), written
 * atomically (temporary file, then rename).
 */
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { IllegalStateError, StreamsError } from '../../errors.js';
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

/**
 * The checkpointed offsets, by `<topic>-<partition>`, read as Kafka's
 * `OffsetCheckpoint.read` does: no file is no offsets; an offset that cannot
 * be right (negative, not an integer, beyond 2^53) is skipped with a WARN
 * naming the file and the partition (Kafka: "Read offset=… from checkpoint
 * file"); a file that is not a checkpoint at all (not JSON, not an object)
 * is ignored as a whole with a WARN. Skipped partitions restore from the start.
 */
export function readGlobalCheckpoint(dir: string, logger?: Logger): Map<string, number> {
  const path = join(dir, CHECKPOINT_FILE_NAME);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return new Map();
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    logger?.warn({ file: path }, `checkpoint file ${path} is corrupt (not a JSON object of offsets): ignored; its stores restore from the start of their changelogs`);
    return new Map();
  }
  const offsets = new Map<string, number>();
  for (const [partition, offset] of Object.entries(parsed as Record<string, unknown>)) {
    if (typeof offset === 'number' && Number.isSafeInteger(offset) && offset >= 0) offsets.set(partition, offset);
    else logger?.warn({ file: path, partition, offset }, `checkpoint file ${path}: offset ${JSON.stringify(offset)} of ${partition} cannot be right: ignored; that partition restores from the start`);
  }
  return offsets;
}

/** Writes the offsets atomically (no offsets: deletes the file); an offset that cannot be right is refused (Kafka's `shouldThrowOnInvalidOffsetInWrite`), nothing written. */
export function writeGlobalCheckpoint(dir: string, offsets: ReadonlyMap<string, number>): void {
  for (const [partition, offset] of offsets) {
    if (!Number.isSafeInteger(offset) || offset < 0) throw new IllegalStateError(`Cannot write the checkpoint of ${dir}: offset ${offset} of ${partition} is not a valid offset`);
  }
  const path = join(dir, CHECKPOINT_FILE_NAME);
  if (offsets.size === 0) {
    // Kafka's shouldNotWriteCheckpointWhenNoOffsets / shouldDeleteExistingCheckpointWhenNoOffsets
    rmSync(path, { force: true });
    return;
  }
  const tmp = `${path}.tmp`;
  writeFileSync(tmp, JSON.stringify(Object.fromEntries(offsets)));
  renameSync(tmp, path);
}
