/**
 * What the task manager does with a failed task (DESIGN.md §4 "fencing", §6
 * step 5), decided by the error's row of the one classification table.
 */
import type { Logger } from 'pino';
import type { GroupConsumerPort } from '../../cluster/port.js';
import { StreamsError, errorKindOf, taskReactionTo } from '../../errors.js';
import { sleep } from '../../internal/backoff.js';
import type { TaskSettings } from './app-settings.js';
import type { TaskExecutor } from './task-executor.js';

/** A fenced task is re-acquired after this pause (the new owner may still be initialising). */
const FENCED_RETRY_MS = 100;

/** What recovery reaches in the task manager. */
export interface RecoveryContext {
  consumer: GroupConsumerPort;
  config: TaskSettings;
  /** The task's logger. */
  log: Logger;
  /** True once the task manager closes (a failure then stops the app). */
  closing(): boolean;
  /** Counts a restart in the task's metrics. */
  countRestart(): void;
  /** Replaces the failed task by a fresh one if it is still this instance's and still assigned. */
  reacquire(): Promise<void>;
  /** Stops the app with the error. */
  onFatal(error: Error): void;
}

/**
 * Recovery of a failed task:
 * 1. mark it failed (concurrent batches stop) and pause its partitions;
 * 2. close it dirty: abort its transaction, close processors and producer;
 * 3. by the error's row of the classification table (`taskReactionTo`, src/errors.ts):
 *    `reacquire` — fencing: re-acquire it at once if still assigned (new producer, re-read offsets, seek);
 *    retriable or unknown outcome: the same after `taskRestartBackoffMs`;
 *    `stop` (a broken handler, a fatal broker answer), or `policy` under SHUTDOWN_CLIENT: rewind its
 *    partitions to the last committed offsets and stop the app (ERROR);
 *    `policy` under RESTART_TASK: wait `taskRestartBackoffMs`, then re-acquire it.
 */
export async function recoverFailedTask(task: TaskExecutor, error: unknown, ctx: RecoveryContext): Promise<void> {
  // 1. mark failed, pause
  if (!task.markFailed()) return;
  const { consumer, config, log } = ctx;
  try {
    consumer.pause(task.partitions);
  } catch {
    // The consumer may already be closing.
  }
  const kind = errorKindOf(error);
  const reaction = taskReactionTo(error);
  // 2. close dirty
  await task.closeDirty().catch((closeError: unknown) => log.debug({ err: closeError }, 'dirty close failed'));
  // 3. re-acquire / stop / policy
  if (reaction === 'reacquire') {
    const delay = kind === 'fencing' ? FENCED_RETRY_MS : config.taskRestartBackoffMs;
    const why = kind === 'fencing' ? 'moved to another instance (its producer was fenced by a newer owner)' : `hit a ${kind === 'retriable' ? 'retriable error' : 'write with an unknown outcome (transaction aborted)'}`;
    log[kind === 'fencing' ? 'warn' : 'info']({ err: error }, `task ${why}; closed dirty, re-acquiring it in ${delay} ms if still assigned`);
    ctx.countRestart();
    await sleep(delay, { unref: true });
    return ctx.reacquire();
  }
  if (reaction === 'stop' || config.uncaughtExceptionPolicy === 'SHUTDOWN_CLIENT' || ctx.closing()) {
    log.error({ err: error }, `task failed; ${transactionOutcome(error)}; stopping the app (uncaughtExceptionPolicy ${config.uncaughtExceptionPolicy})`);
    for (const tpo of task.committedOffsets) {
      try {
        consumer.seek(tpo);
      } catch {
        // Closing.
      }
    }
    ctx.onFatal(error instanceof Error ? error : new Error(String(error)));
    return;
  }
  log.warn({ err: error }, `task failed; ${transactionOutcome(error)}; restarting it in ${config.taskRestartBackoffMs} ms (uncaughtExceptionPolicy RESTART_TASK)`);
  ctx.countRestart();
  await sleep(config.taskRestartBackoffMs, { unref: true });
  return ctx.reacquire();
}

/**
 * What became of the task's transaction, truthfully (issue 28 item 13): a
 * persistent store's local commit runs after the Kafka transaction committed,
 * so its failure (e.g. a full disk) did not abort anything.
 */
function transactionOutcome(error: unknown): string {
  const afterCommit = error instanceof StreamsError && error.code === 'STORE_WRITE_FAILED' && /failed to commit its local lmdb transaction/.test(error.message);
  return afterCommit ? 'its Kafka transaction had committed (the local store write after it failed)' : 'transaction aborted';
}
