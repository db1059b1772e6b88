/**
 * What an instance does with the user data of every assignment it receives
 * (the task assignor's `AssignmentInfo`, handed over before the assignment's
 * `onAssignment`):
 * 1. decode it (undecodable: logged, the previous view stays);
 * 2. the key metadata takes the group's hosts and partitions;
 * 3. the task manager gets this instance's standby tasks (warm-ups included)
 *    and its active tasks (a standby becoming active is promoted, not closed);
 * 4. when it carries `nextRebalanceMs` (warm-ups exist: Kafka's probing
 *    rebalance), a rejoin is scheduled for that time, replacing any earlier
 *    one; an assignment without it cancels the scheduled one.
 */
import type { Logger } from 'pino';
import { decodeAssignment, type AssignmentInfo } from '../../assignment/user-data.js';
import type { StreamsMetadataState } from './streams-metadata-state.js';
import type { TaskManager } from './task-manager.js';

/** What the receiver reaches. */
export interface AssignmentReceiverDeps {
  metadata: () => StreamsMetadataState | undefined;
  manager: () => TaskManager | undefined;
  /** Makes the member rejoin the group (a rebalance of the whole group). */
  requestRejoin: (reason: string) => void;
  logger: Logger;
}

/** See the module comment. */
export class AssignmentReceiver {
  #probe: NodeJS.Timeout | undefined;
  /** The last assignment received (tests, metrics). */
  last: AssignmentInfo | undefined;

  constructor(private readonly deps: AssignmentReceiverDeps) {}

  /** Steps 1–4. */
  receive(userData: Buffer): void {
    // 1. decode
    let info: AssignmentInfo;
    try {
      info = decodeAssignment(userData);
    } catch (error) {
      this.deps.logger.warn({ err: error }, 'the assignment user data cannot be decoded; the key metadata and standby tasks keep their previous view');
      return;
    }
    this.last = info;
    // 2. key metadata
    this.deps.metadata()?.update(info);
    // 3. standby tasks
    this.deps.manager()?.onStandbyAssignment(info.standbyTasks, info.activeTasks).catch((error: unknown) => this.deps.logger.warn({ err: error }, 'updating the standby tasks failed'));
    // 4. probing rebalance
    this.#schedule(info.nextRebalanceMs);
  }

  /** Cancels a scheduled probing rebalance (the app closes). */
  stop(): void {
    if (this.#probe) clearTimeout(this.#probe);
    this.#probe = undefined;
  }

  #schedule(at: number | undefined): void {
    this.stop();
    const rejoin = this.deps.requestRejoin;
    if (at === undefined || at <= 0) return;
    const delay = Math.max(0, at - Date.now());
    this.deps.logger.info({ inMs: delay }, 'warm-up replicas exist: probing rebalance scheduled');
    this.#probe = setTimeout(() => {
      this.#probe = undefined;
      rejoin('probing rebalance: warm-up replicas may have caught up');
    }, delay);
    this.#probe.unref();
  }
}
