/**
 * The state of one task (Kafka Streams' `ProcessorStateManager` +
 * `StoreChangelogReader`, for the active task): locks the task's state
 * folder, initialises its stores, restores them from their changelogs before
 * the task processes, and commits them once the task's transaction committed.
 *
 * The restore sequence (run by the task executor after the producer fenced
 * the previous owner, so no transaction of it is open any more):
 * 1. lock `<stateDir>/<applicationId>/<taskId>` (a second process gets a
 *    clear error naming the folder);
 * 2. `init` every store with its context (changelog sink, record cache, the
 *    task's record context);
 * 3. for every logged store: read the end offset of its changelog partition
 *    (read_committed: the last stable offset) and the store's checkpoint
 *    (persistent) or 0 (in-memory); a checkpoint beyond the end means the
 *    store is ahead of its changelog: wipe its folder, fail with
 *    TASK_CORRUPTED (the task is re-created and restores in full);
 * 4. read the changelog from there to the end in batches, read_committed,
 *    through the instance's changelog reader (`changelog-reader.ts`),
 *    applying each batch with `restoreBatch`, reporting start / batch / end to
 *    the restore listener and the counters; stop early if the task closes.
 *
 * A task promoted from a standby of this instance (`standby-handover.ts`)
 * brings its folder, already locked (step 1), and its open stores, which are
 * bound to the task instead of initialised (step 2); in step 3 each store
 * starts at the standby's position (in-memory stores too), so only the tail
 * the standby had not read yet is restored.
 *
 * A store whose changelog is its table source's topic (`sourceChangelogs`,
 * Kafka's `reuse.ktable.source.topics`) is initialised without a changelog
 * sink (it logs nothing) and in step 3 reads the task's partition of the
 * source topic, from its checkpoint (else 0) up to min(end offset, the
 * group's committed offset of that partition; none: 0, nothing to restore),
 * as Kafka's `StoreChangelogReader` does for source changelogs: beyond the
 * committed offset the records were not processed yet, so they are not state
 * yet (under exactly_once their outputs may have been aborted). Records
 * without a key are skipped, in every changelog (as Kafka's
 * `StoreChangelogReader`; a table source drops them too).
 *
 * After every committed transaction (at_least_once: offset commit),
 * `committed()` hands each store its changelog position (lifecycle step 6);
 * for a source changelog that is the source offset just committed.
 *
 * When the task closes, `release()` writes the task's checkpoint file
 * `<taskDir>/.checkpoint` (the changelog position of every persistent store,
 * `task-checkpoint.ts`) before unlocking the folder: what the instance reports
 * to the task assignor for the task's state on disk (Kafka's task offset sums).
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { TopicPartition } from '../../cluster/port.js';
import { KafkaErrorCode, KafkaProtocolError, StreamsError } from '../../errors.js';
import type { TaskRecordCollector } from '../../eos/record-collector.js';
import { changelogTopicName, type ChangelogSink, type ManagedStateStore, type RecordCacheLike, type StoreRecordContext } from '../../state/store-contract.js';
import type { TaskId } from '../../records/task-id.js';
import type { RestoreProgress } from './restore-progress.js';
import { defined } from '../../internal/defined.js';
import { removeTaskCheckpoint, writeTaskCheckpoint } from './task-checkpoint.js';
import { topicPartitionKey } from '../../records/topic-partition.js';
import { toChangelogRecords, type ChangelogReader } from './changelog-reader.js';
import type { PromotedStandby } from './standby-handover.js';

/** The state directory as a task needs it (see ./state-directory.ts). */
export interface TaskDirectories {
  /** Creates and locks the task's folder; returns its path. Throws when another process holds it. */
  lockTask(taskId: string): string;
  unlockTask(taskId: string): void;
}

/** What the state managers of an instance share. */
export interface StateRuntime {
  applicationId: string;
  directories: TaskDirectories;
  /** The instance's changelog reader (on a cluster without partition reader, a logged store fails the task). */
  changelogs: ChangelogReader;
  cache: RecordCacheLike | undefined;
  progress: RestoreProgress;
  /** The standby of task `id` on this instance, handed over to its new active task (promotion); undefined when there is none. */
  takeOverStandby?: (id: string) => PromotedStandby | undefined;
}

/** Options of one task's state manager. */
export interface TaskStateOptions {
  taskId: TaskId;
  id: string;
  stores: readonly ManagedStateStore[];
  collector: TaskRecordCollector;
  recordContext: () => StoreRecordContext;
  runtime: StateRuntime;
  logger: Logger;
  /** Under exactly_once a commit marker follows each transaction's writes (see `committed`). */
  exactlyOnce: boolean;
  /** True once the task is closing or failed: restoration stops at the next batch. */
  stopped: () => boolean;
  /** Stores whose changelog is their table source's topic: store name → source topic. */
  sourceChangelogs?: ReadonlyMap<string, string>;
  /** The group's committed offset of the task's partition of `topic` (read at the task's start), or undefined when none. */
  committedOffset?: (topic: string) => number | undefined;
  /** The standby this task was promoted from: its folder, stores and positions (see the module comment). */
  promoted?: PromotedStandby;
}

const RESTORE_BATCH_BYTES = 4 * 1024 * 1024;

/** The state of one task; see the module comment for the steps. */
export class TaskStateManager {
  #dir: string | undefined;
  /** Per changelog topic: the collector's next offset at the last commit (a changed one means the transaction wrote to it). */
  readonly #lastCommitted = new Map<string, number>();
  /** Changelog position of every persistent store (`<topic>-<partition>` → next offset): the task checkpoint file's content. */
  readonly #positions = new Map<string, number>();

  constructor(private readonly options: TaskStateOptions) {
    // A promoted standby's folder is locked already: from now on this manager releases it.
    this.#dir = options.promoted?.dir;
  }

  /** True when the task has state stores at all. */
  get stateful(): boolean {
    return this.options.stores.length > 0;
  }

  /** Steps 1–4. Resolves once every store is restored (or the task stopped). */
  async initializeAndRestore(): Promise<void> {
    const { stores, runtime, collector, taskId, id, logger } = this.options;
    if (stores.length === 0) return;
    // 1. lock (a promoted standby's folder is held already)
    this.#dir ??= runtime.directories.lockTask(id);
    const dir = this.#dir;
    // 2. init (a promoted standby's stores are open: they are bound to this task instead)
    const changelog = (store: ManagedStateStore): ChangelogSink | undefined => {
      const topic = changelogTopicName(runtime.applicationId, store.name);
      return store.loggingEnabled && !this.#sourceTopic(store)
        ? { send: (_name, key, value, timestamp, headers) => collector.sendChangelog(topic, taskId.partition, key, value, timestamp, headers) }
        : undefined;
    };
    const promoted = this.options.promoted;
    if (promoted !== undefined) {
      const sinks = new Map(stores.map((s) => [s.name, changelog(s)] as const));
      promoted.bind({ collector, changelog: (name) => sinks.get(name), recordContext: this.options.recordContext });
    } else {
      for (const store of stores) {
        store.init({
          applicationId: runtime.applicationId,
          taskId,
          stateDir: dir,
          changelog: changelog(store),
          cache: runtime.cache,
          recordContext: this.options.recordContext,
          logger: logger.child({ store: store.name }),
        });
      }
    }
    // 3.–4. restore the logged stores (and those whose changelog is their source topic)
    for (const store of stores) {
      if (this.options.stopped()) continue;
      const source = this.#sourceTopic(store);
      if (source !== undefined) await this.#restore(store, { topic: source, partition: taskId.partition }, this.options.committedOffset?.(source) ?? 0);
      else if (store.loggingEnabled) await this.#restore(store, { topic: changelogTopicName(runtime.applicationId, store.name), partition: taskId.partition });
    }
  }

  /** The source topic serving as `store`'s changelog, if it has one. */
  #sourceTopic(store: ManagedStateStore): string | undefined {
    return this.options.sourceChangelogs?.get(store.name);
  }

  /** Steps 3–4 for one store; `limit` (a source changelog: the committed offset) caps the end. */
  async #restore(store: ManagedStateStore, tp: TopicPartition, limit?: number): Promise<void> {
    const { runtime, logger } = this.options;
    const changelogs = runtime.changelogs;
    if (changelogs.port() === undefined) {
      throw new StreamsError(`Task ${this.options.id} has the logged store '${store.name}' but the cluster offers no partition reader to restore it; use the kafkajs or embedded cluster`, { code: 'STATE_RESTORE_FAILED' });
    }
    // 3. end offset and checkpoint (a promoted standby's position, when it read further)
    const ends = await changelogs.endOffsets(tp.topic);
    const logEnd = ends[tp.partition];
    const end = logEnd === undefined || limit === undefined ? logEnd : Math.min(logEnd, limit);
    if (end === undefined) {
      throw new StreamsError(`Changelog topic '${tp.topic}' has no partition ${tp.partition} (it has ${ends.length}); it must have as many partitions as the task's source topics: delete it and reset the application`, { code: 'STATE_RESTORE_FAILED' });
    }
    const checkpoint = laterOf(store.checkpoint(), this.options.promoted?.positions.get(store.name));
    if (checkpoint !== undefined && checkpoint > end) {
      throw this.#corrupted(
        store,
        limit === undefined
          ? `it is at changelog offset ${checkpoint}, beyond the end of ${tp.topic}-${tp.partition} (${end}): the changelog was re-created or truncated` +
              (end === 0 ? ` (it is empty now: deleted while the app was stopped?), so the store's state restarts from empty` : '')
          : `it is at offset ${checkpoint} of its source topic ${tp.topic}-${tp.partition}, beyond the group's committed offset or the topic's end (${end}): the offsets were reset or the topic re-created`,
      );
    }
    const start = checkpoint ?? 0;
    // 4. read to the end
    const progress = runtime.progress;
    progress.start(tp, store.name, start, end);
    const began = Date.now();
    let reached = { position: start, count: 0 };
    try {
      reached = await changelogs
        .readTo(tp, start, end, {
          stopped: this.options.stopped,
          apply: (batch) => {
            store.restoreBatch(toChangelogRecords(batch.records, tp));
            progress.batch(tp, store.name, defined(batch.records[batch.records.length - 1], 'last restored record').offset, batch.records.length);
          },
        }, { maxBytes: RESTORE_BATCH_BYTES, maxWaitMs: 200, keyed: true })
        .catch((error: unknown) => {
          if (!(error instanceof KafkaProtocolError && error.kafkaCode === KafkaErrorCode.OFFSET_OUT_OF_RANGE)) throw error;
          // The checkpoint points before the log start (records deleted under it): the local copy cannot be completed.
          throw this.#corrupted(store, `its changelog position (restoring from ${start}) is out of range of ${tp.topic}-${tp.partition}`);
        });
    } finally {
      progress.end(tp, store.name, reached.count, reached.position >= end);
    }
    const { position, count: total } = reached;
    if (store.persistent) this.#positions.set(topicPartitionKey(tp), position);
    if (total > 0 || start > 0) {
      logger.info({ store: store.name, changelog: `${tp.topic}-${tp.partition}`, from: start, to: end, restored: total, ms: Date.now() - began }, `restored store '${store.name}': ${total} records`);
    }
  }

  /** Closes the store, wipes its folder and returns the TASK_CORRUPTED error that makes the task restart and restore it in full. */
  #corrupted(store: ManagedStateStore, why: string): StreamsError {
    store.close();
    if (this.#dir) rmSync(join(this.#dir, store.name), { recursive: true, force: true });
    if (this.#dir) removeTaskCheckpoint(this.#dir);
    // Issue 28 item 13: losing the local copy is worth a WARN naming the store, not only the task's restart at INFO.
    this.options.logger.warn({ store: store.name, taskId: this.options.id, reason: why }, `Store '${store.name}' of task ${this.options.id}: ${why}. Its local copy was wiped; it restores from what its changelog holds`);
    return new StreamsError(`Store '${store.name}' of task ${this.options.id} cannot be restored from where it is: ${why}. The local copy was wiped; the task restarts and restores it in full`, { code: 'TASK_CORRUPTED' });
  }

  /**
   * Lifecycle step 6: the task's transaction (or offset commit) succeeded.
   * Each store gets the changelog offset after its last write; under
   * exactly_once a transaction that wrote to the changelog partition ends with
   * its commit marker right after that write (only the task's producer writes
   * the partition), so the checkpoint is one further: a clean restart then
   * restores from the end and reads nothing. `sourceOffsets` (topic → next
   * offset of the task's partition) are the source offsets this commit
   * committed: the checkpoint of a store whose changelog is its source topic.
   */
  committed(sourceOffsets: ReadonlyMap<string, number> = new Map()): void {
    const { stores, collector, runtime } = this.options;
    for (const store of stores) {
      const source = this.#sourceTopic(store);
      if (source !== undefined) {
        const next = sourceOffsets.get(source);
        store.commit(next);
        if (next !== undefined && store.persistent) this.#positions.set(topicPartitionKey({ topic: source, partition: this.options.taskId.partition }), next);
        continue;
      }
      if (!store.loggingEnabled) {
        store.commit(undefined);
        continue;
      }
      const topic = changelogTopicName(runtime.applicationId, store.name);
      const next = collector.changelogNextOffset(topic);
      const wrote = next !== undefined && next !== this.#lastCommitted.get(topic);
      if (next !== undefined) this.#lastCommitted.set(topic, next);
      const checkpoint = wrote ? next + (this.options.exactlyOnce ? 1 : 0) : undefined;
      store.commit(checkpoint);
      if (checkpoint !== undefined && store.persistent) this.#positions.set(topicPartitionKey({ topic, partition: this.options.taskId.partition }), checkpoint);
    }
  }

  /** Releases the task folder (the stores were closed with the processors). */
  release(): void {
    if (this.#dir === undefined) return;
    if (this.#positions.size > 0) writeTaskCheckpoint(this.#dir, this.#positions, this.options.logger);
    this.#dir = undefined;
    this.options.runtime.directories.unlockTask(this.options.id);
  }
}

/** The later of two positions (either may be unknown). */
function laterOf(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined ? b : b === undefined ? a : Math.max(a, b);
}
