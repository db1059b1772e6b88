/**
 * A task's checkpoint file `<taskDir>/.checkpoint` (Kafka's task
 * `OffsetCheckpoint`): the changelog position (`<topic>-<partition>` → next
 * offset) of each persistent store of the task when it last closed. The
 * stores keep their own checkpoint inside lmdb (the truth restoration starts
 * from); this file only tells the task assignor how far the state on disk is,
 * without opening the stores: the instance reports the sum per task in its
 * subscription (Kafka's `taskOffsetSums`). A task folder without one (a crash
 * before any clean close) is reported as having no state.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { CHECKPOINT_FILE_NAME } from './state-directory.js';
import { readGlobalCheckpoint, writeGlobalCheckpoint } from './global-state-files.js';

/** Writes the file (atomically, same format as the global checkpoint); a failure is logged, never thrown. */
export function writeTaskCheckpoint(dir: string, positions: ReadonlyMap<string, number>, logger: Logger): void {
  try {
    writeGlobalCheckpoint(dir, positions);
  } catch (error) {
    logger.debug({ err: error, dir }, 'cannot write the task checkpoint file; the assignor will see no state for this task');
  }
}

/** Deletes the file (the state it described was wiped). */
export function removeTaskCheckpoint(dir: string): void {
  rmSync(join(dir, CHECKPOINT_FILE_NAME), { force: true });
}

/** The sum of the positions in the task folder's checkpoint file, or undefined when it has none (or an unreadable one: WARN through `logger`). */
export function taskOffsetSum(dir: string, logger?: Logger): number | undefined {
  const positions = readGlobalCheckpoint(dir, logger);
  if (positions.size === 0) return undefined;
  let sum = 0;
  for (const offset of positions.values()) sum += offset;
  return sum;
}
