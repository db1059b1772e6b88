/**
 * Steps 1–3 of closing an app (`KafkaStreams.close()` and the error
 * shutdown), on whatever parts `start()` had built by then:
 * 1. stop the timers and the assignment receiver;
 * 2. close every task (clean ones commit, failed ones abort; producers
 *    close), then stop the global stores' loop and checkpoint them;
 * 3. leave the group (close the consumer), close the admin client and the
 *    the changelog reader.
 * A part that fails to close is logged and the next one still closes.
 */
import type { AdminPort, GroupConsumerPort } from '../../cluster/port.js';
import type { Logger } from '../../internal/logger.js';
import type { AssignmentReceiver } from './assignment-receiver.js';
import type { GlobalStateManager } from './global-state-manager.js';
import type { TaskManager } from './task-manager.js';
import type { StreamThreads } from './stream-threads.js';

/** The closable parts of a started (or partly started) app. */
export interface AppParts {
  admin?: AdminPort;
  consumer?: GroupConsumerPort;
  receiver?: AssignmentReceiver;
  manager?: TaskManager;
  global?: GlobalStateManager;
  stopTimers?: () => void;
  closeChangelogReader?: () => Promise<void>;
  /** Stream threads 2..N (`numStreamThreads`). */
  threads?: StreamThreads;
}

/** See the module comment. */
export async function closeAppParts(parts: AppParts, log: Logger): Promise<void> {
  // 0. stream threads 2..N close at the same time as this one
  const others = parts.threads?.close();
  // 1. timers
  parts.stopTimers?.();
  parts.receiver?.stop();
  // 2. tasks, then the global stores
  await parts.manager?.closeAll().catch((error: unknown) => log.warn({ err: error }, 'closing tasks failed'));
  await parts.global?.close().catch((error: unknown) => log.warn({ err: error }, 'closing the global stores failed'));
  // 3. group, admin and readers
  await parts.consumer?.close().catch((error: unknown) => log.warn({ err: error }, 'closing the consumer failed'));
  await parts.admin?.close().catch((error: unknown) => log.debug({ err: error }, 'closing the admin client failed'));
  await parts.closeChangelogReader?.().catch((error: unknown) => log.debug({ err: error }, 'closing the changelog reader failed'));
  await others;
}
