/**
 * The contract between a task's state stores and whatever runs the task (the
 * runtime's state manager, the TopologyTestDriver). Kafka Streams'
 * `StateStoreContext` + `StateRestoreCallback` + the checkpoint hooks of
 * `ProcessorStateManager`, cut to what sluice needs.
 *
 * Lifecycle of one store instance of one task (the numbered steps the state
 * manager mirrors):
 * 1. `builder.build()` — a closed store, nothing opened yet;
 * 2. `init(context)` — opens it (a persistent store opens its files under
 *    `context.stateDir`); from here `checkpoint()` answers;
 * 3. restoration — the runner reads the changelog read_committed from
 *    `checkpoint() ?? 0` to its end and hands every batch to
 *    `restoreBatch()` (logging and caching are bypassed);
 * 4. processing — writes go through the cache (if enabled) and the
 *    change-logging layer (if enabled), which sends them with
 *    `context.changelog`;
 * 5. at every commit, before the transaction commits: `flush()` (the cache
 *    empties: records forwarded downstream and logged);
 * 6. once the Kafka transaction committed (at_least_once: once the offsets
 *    were committed): `commit(checkpoint)`; a persistent store applies its
 *    uncommitted writes and the checkpoint in one storage transaction;
 * 7. `close()` — discards any uncommitted write (after an abort the task is
 *    rebuilt and restored, so an aborted write is never in state).
 */
import type { Logger } from 'pino';
import type { Headers } from '../records/types.js';
import type { TaskId } from '../records/task-id.js';

/** The changelog topic of a store: `<applicationId>-<storeName>-changelog`. */
export function changelogTopicName(applicationId: string, storeName: string): string {
  return `${applicationId}-${storeName}-changelog`;
}

/** One changelog record as a store sees it: bytes, its timestamp and its offset in the changelog. */
export interface ChangelogRecord {
  key: Buffer;
  /** `null`: a tombstone (delete). */
  value: Buffer | null;
  timestamp: number;
  headers?: Headers;
  offset: number;
  /** The changelog partition it was read from (for messages naming a bad record), when the runner knows it. */
  source?: { topic: string; partition: number };
}

/**
 * Sends a store's changelog records into the task's transaction (partition =
 * the task's partition). Never dropped: a failure to write one fails the task
 * and aborts its transaction, whatever a production handler says.
 */
export interface ChangelogSink {
  send(storeName: string, key: Buffer, value: Buffer | null, timestamp: number, headers?: Headers): void;
}

/** The record being processed, as a store needs it for changelog timestamps and cache entries. */
export interface StoreRecordContext {
  timestamp: number;
  headers: Headers;
  topic?: string;
  partition?: number;
  offset?: number;
}

/** What a store is given at `init` (Kafka's `StateStoreContext`). */
export interface StoreInitContext {
  readonly applicationId: string;
  readonly taskId: TaskId;
  /**
   * The task's state directory (`<stateDir>/<applicationId>/<taskId>`),
   * already created and locked by the runner. A persistent store keeps its
   * files in `<stateDir>/<storeName>/`.
   */
  readonly stateDir: string;
  /** Where logged writes go; `undefined` when the runner has no changelog (a store then behaves as logging-disabled). */
  readonly changelog: ChangelogSink | undefined;
  /** The instance's record cache; `undefined` (or `maxBytes` 0) disables caching. */
  readonly cache: RecordCacheLike | undefined;
  /** The context of the record being processed (or of the punctuation). */
  recordContext(): StoreRecordContext;
  readonly logger: Logger;
}

/**
 * The instance-wide record cache as a caching store sees it: a byte budget
 * shared by all caching stores of all tasks of the instance
 * (`statestoreCacheMaxBytes`). Implemented in `./record-cache.ts`.
 */
export interface RecordCacheLike {
  readonly maxBytes: number;
  /** Bytes currently held by every namespace together. */
  readonly sizeBytes: number;
}

/**
 * A state store as the runner manages it. Every store class the `Stores`
 * builders produce implements it (the typed outer layer delegates down the
 * stack: metered/typed → caching → change-logging → bytes engine).
 */
export interface ManagedStateStore {
  readonly name: string;
  /** True when the store keeps its data on disk and has a checkpoint. */
  readonly persistent: boolean;
  /** True when writes are logged to the changelog topic (the default). */
  readonly loggingEnabled: boolean;
  /** Topic configs for its changelog topic (`cleanup.policy` etc.), merged with the user's `withLoggingEnabled(config)`. */
  readonly changelogConfig: Readonly<Record<string, string>>;
  /** Step 2: opens the store. Calling any data method before throws IllegalStateError naming `init`. */
  init(context: StoreInitContext): void;
  /** The next changelog offset to restore from (persistent), or `undefined`: restore from the beginning. */
  checkpoint(): number | undefined;
  /** Step 3: applies restored changelog records, bypassing cache and logging. */
  restoreBatch(records: readonly ChangelogRecord[]): void;
  /** Step 5: empties the cache downstream and into the changelog. */
  flush(): void;
  /**
   * Step 6: the transaction holding the writes since the last commit is
   * committed; `changelogNextOffset` is the changelog offset after the last of
   * them (undefined: none was logged, the checkpoint stays).
   */
  commit(changelogNextOffset: number | undefined): void;
  /** Step 7: closes; uncommitted writes are discarded. Idempotent. */
  close(): void;
  /** False before `init` and after `close()`. */
  isOpen(): boolean;
}
