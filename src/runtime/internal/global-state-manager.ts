/**
 * The global stores of one instance (Kafka's `GlobalStreamThread` +
 * `GlobalStateManagerImpl` + `GlobalStateUpdateTask`): one task keeps every
 * global store; it reads all partitions of their topics through the
 * instance's changelog reader (`changelog-reader.ts`; read_committed under
 * exactly_once, read_uncommitted otherwise), outside the group.
 *
 * Start (before the app joins its group, so before it is RUNNING and before
 * any task processes):
 * 1. create the global task; lock `<stateDir>/<applicationId>/global`;
 * 2. for every partition of every global topic: the start offset is the
 *    checkpoint (persistent stores; in-memory ones start at 0), the end the
 *    partition's end offset; a checkpoint beyond the end (topic re-created)
 *    wipes the store's folder, which then restores from 0;
 * 3. `init` the stores (no changelog: the topic is the changelog), then the
 *    processors;
 * 4. restore: read each partition to its end, each record through the task
 *    (deserialized with the table's serdes: a failure goes to the
 *    deserialization handler, CONTINUE skips it), reporting to the restore
 *    listener;
 * 5. checkpoint (flush, commit, write `.checkpoint`);
 * 6. start the update loop: read what is new (no wait: the reader's port is
 *    shared with the tasks' restoration and the standbys, and a long poll
 *    would hold their fetches up on the broker connection), apply it, sleep
 *    ~100 ms after a round that read nothing (woken by close), checkpoint
 *    every `commitIntervalMs`. A failure of the loop is fatal for the app (as
 *    a dying global thread in Kafka).
 * Close: stop the loop, checkpoint, close the task, release the folder.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { TopicPartition } from '../../cluster/port.js';
import { StreamsError, bypassesRecordHandlers, errorKindOf } from '../../errors.js';
import { sleep } from '../../internal/backoff.js';
import type { ManagedStateStore, TaskHandlers, TaskProcessor, TopologyRuntime } from '../../processors/task-contract.js';
import type { StateStore } from '../../state/state-store.js';
import type { RestoreProgress } from './restore-progress.js';
import { lockGlobalDir, readGlobalCheckpoint, unlockGlobalDir, writeGlobalCheckpoint } from './global-state-files.js';
import { IdleSleep, type ChangelogBatch, type ChangelogIsolation, type ChangelogReader } from './changelog-reader.js';

/** What the global state needs from the app. */
export interface GlobalStateOptions {
  topology: TopologyRuntime;
  /** The instance's changelog reader (closed by the app, not here). */
  changelogs: ChangelogReader;
  applicationId: string;
  /** `<stateDir>/<applicationId>`. */
  appDir: string;
  exactlyOnce: boolean;
  commitIntervalMs: number;
  handlers: TaskHandlers;
  progress: RestoreProgress;
  logger: Logger;
  /** The update loop failed: the app stops in ERROR. */
  onFatal: (error: Error) => void;
}

interface Partition {
  tp: TopicPartition;
  key: string;
  store: string;
  position: number;
}

/** The update loop's sleep after a round that read nothing. */
const IDLE_MS = 100;
const FETCH_BYTES = 4 * 1024 * 1024;

/** Starts the global state (steps 1–6); undefined when the topology has no global store. */
export async function startGlobalState(options: GlobalStateOptions): Promise<GlobalStateManager | undefined> {
  const globals = options.topology.globalStores?.() ?? [];
  if (globals.length === 0) return undefined;
  // Global store processors forward nothing; a dead letter a handler asks for has no producer to go to (logged, dropped).
  const collector = {
    send: (record: { topic: string }) => options.logger.warn({ topic: record.topic }, 'a record for a topic from the global store task is dropped: global stores have no producer'),
  };
  // 1.
  const task = options.topology.createGlobalTask?.(collector, options.handlers, { logger: options.logger });
  if (task === undefined) return undefined;
  const manager = new GlobalStateManager(task, options, lockGlobalDir(options.appDir, options.applicationId));
  try {
    await manager.restore(globals.map((g) => ({ topic: g.topic, store: g.storeName })));
  } catch (error) {
    await manager.close(false);
    throw error;
  }
  manager.startLoop();
  return manager;
}

/** The running global state; see the module comment. */
export class GlobalStateManager {
  readonly #isolation: ChangelogIsolation;
  readonly #partitions: Partition[] = [];
  #restored = false;
  #stopped = false;
  #loop: Promise<void> | undefined;
  #lastCheckpoint = Date.now();
  /** The update loop's sleep after an idle round (close ends it early). */
  readonly #idle = new IdleSleep();
  #closed = false;

  constructor(
    private readonly task: TaskProcessor,
    private readonly options: GlobalStateOptions,
    private readonly dir: string,
  ) {
    this.#isolation = options.exactlyOnce ? 'read_committed' : 'read_uncommitted';
    if (options.changelogs.port(this.#isolation) === undefined) {
      unlockGlobalDir(dir);
      throw new StreamsError('The topology has global tables but the cluster offers no partition reader to read them; use the kafkajs or embedded cluster', { code: 'STATE_RESTORE_FAILED' });
    }
  }

  /** The global store `name` as interactive queries see it (RESTORING until step 4 is done). */
  storesNamed(name: string): Array<{ taskId: string; state: 'RUNNING' | 'RESTORING'; store: ManagedStateStore }> {
    const store = this.task.stores.find((s) => s.name === name);
    return store === undefined ? [] : [{ taskId: 'global', state: this.#restored ? 'RUNNING' : 'RESTORING', store }];
  }

  /** The global store `name`, for the tasks' `getStateStore`. */
  store(name: string): StateStore | undefined {
    return this.task.stores.find((s) => s.name === name) as StateStore | undefined;
  }

  /** Steps 2–5. */
  async restore(globals: Array<{ topic: string; store: string }>): Promise<void> {
    const { task, options } = this;
    // 2. (before the stores open: a store ahead of its topic is wiped first)
    const checkpoint = readGlobalCheckpoint(this.dir, options.logger);
    const ends = new Map<string, number>();
    for (const { topic, store } of globals) {
      const persistent = task.stores.find((s) => s.name === store)?.persistent === true;
      const topicEnds = await options.changelogs.endOffsets(topic, this.#isolation);
      const partitions = topicEnds.map((end, partition) => ({ tp: { topic, partition }, key: `${topic}-${partition}`, store, position: persistent ? (checkpoint.get(`${topic}-${partition}`) ?? 0) : 0, end }));
      const ahead = partitions.filter((p) => p.position > p.end);
      if (ahead.length > 0) {
        // The topic was re-created or truncated: the local copy cannot be completed, restore it in full.
        options.logger.warn({ store, partitions: ahead.map((p) => p.key) }, `global store '${store}' is ahead of its topic '${topic}'; wiping it and restoring it in full`);
        rmSync(join(this.dir, store), { recursive: true, force: true });
        for (const p of partitions) p.position = 0;
      }
      for (const { end, ...p } of partitions) {
        this.#partitions.push(p);
        ends.set(p.key, end);
      }
    }
    // 3.
    for (const store of task.stores) {
      store.init({
        applicationId: options.applicationId,
        taskId: task.taskId,
        stateDir: this.dir,
        changelog: undefined,
        cache: undefined,
        recordContext: () => task.recordContext(),
        logger: options.logger.child({ store: store.name }),
      });
    }
    task.init();
    // 4.
    for (const p of this.#partitions) await this.#restorePartition(p, ends.get(p.key) ?? 0);
    // 5.
    this.checkpoint();
    this.#restored = true;
  }

  async #restorePartition(p: Partition, end: number): Promise<void> {
    const { progress, logger, changelogs } = this.options;
    const start = p.position;
    progress.start(p.tp, p.store, start, end);
    let total = 0;
    try {
      const reached = await changelogs.readTo(p.tp, start, end, {
        stopped: () => this.#stopped,
        apply: async (batch) => {
          const applied = await this.#apply(p, batch);
          total += applied.count;
          if (applied.count > 0) progress.batch(p.tp, p.store, applied.lastOffset, applied.count);
        },
      }, { maxBytes: FETCH_BYTES, maxWaitMs: 500, isolation: this.#isolation });
      p.position = Math.max(p.position, reached.position);
    } finally {
      progress.end(p.tp, p.store, total, p.position >= end);
    }
    if (total > 0) logger.info({ store: p.store, partition: p.key, from: start, to: end, restored: total }, `restored global store '${p.store}' from ${p.key}: ${total} records`);
  }

  /**
   * Applies every record of `batch` through the task, in order, moving `p`'s position past each (stops when the state stops).
   * First the deserializers' I/O (`TaskProcessor.resolveInput`: Schema Registry ids not cached yet); a registry that is
   * down (retriable) is waited for with back-off rather than failing the global loop.
   */
  async #apply(p: Partition, batch: ChangelogBatch): Promise<{ count: number; lastOffset: number }> {
    for (let attempt = 0; !this.#stopped; attempt++) {
      const resolving = this.task.resolveInput?.(batch.records);
      if (resolving === undefined) break;
      try {
        await resolving;
        break;
      } catch (error) {
        if (errorKindOf(error) !== 'retriable') throw error;
        await sleep(Math.min(100 * 2 ** attempt, 2_000), { unref: true });
      }
    }
    let count = 0;
    let lastOffset = -1;
    for (const record of batch.records) {
      if (this.#stopped) break;
      await this.#processWaitingForRegistry(record);
      p.position = record.offset + 1;
      lastOffset = record.offset;
      count++;
    }
    return { count, lastOffset };
  }

  /**
   * Processes one record; a Schema Registry failure that is not about the record (`bypassesRecordHandlers`:
   * the registry is down, a store's schema not registered yet) threw before the store changed, so the
   * record is processed again after a back-off instead of failing the global loop.
   */
  async #processWaitingForRegistry(record: ChangelogBatch['records'][number]): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        const outcome = this.task.process(record);
        if (typeof outcome !== 'string') await outcome;
        return;
      } catch (error) {
        if (!bypassesRecordHandlers(error) || errorKindOf(error) !== 'retriable' || this.#stopped) throw error;
        await sleep(Math.min(100 * 2 ** attempt, 2_000), { unref: true });
      }
    }
  }

  /** One round of the update loop for `p`: read what is new, apply it, move past what the read covered. */
  async #follow(p: Partition): Promise<number> {
    const batch = await this.options.changelogs.read(p.tp, p.position, { maxBytes: FETCH_BYTES, maxWaitMs: 0, isolation: this.#isolation });
    const { count } = await this.#apply(p, batch);
    if (!this.#stopped) p.position = Math.max(p.position, batch.next);
    return count;
  }

  /** Step 6. */
  startLoop(): void {
    this.#loop = (async () => {
      while (!this.#stopped) {
        let read = 0;
        for (const p of this.#partitions) {
          if (this.#stopped) break;
          read += await this.#follow(p);
        }
        if (!this.#stopped && Date.now() - this.#lastCheckpoint >= this.options.commitIntervalMs) this.checkpoint();
        if (read === 0 && !this.#stopped) await this.#idle.sleep(IDLE_MS);
      }
    })().catch((error: unknown) => {
      if (this.#stopped) return;
      const cause = error instanceof Error ? error : new Error(String(error));
      this.options.logger.error({ err: cause }, 'the global state update loop failed');
      this.options.onFatal(cause instanceof StreamsError ? cause : new StreamsError(`Updating the global stores failed: ${cause.message}`, { code: 'STATE_RESTORE_FAILED', cause }));
    });
  }

  /** Step 5 / the loop's periodic checkpoint: stores flushed and committed, then the offsets written. */
  checkpoint(): void {
    this.task.flushStores();
    for (const store of this.task.stores) store.commit(undefined);
    writeGlobalCheckpoint(this.dir, new Map(this.#partitions.map((p) => [p.key, p.position])));
    this.#lastCheckpoint = Date.now();
  }

  /** Stops the loop, checkpoints (when `clean`), closes the task and releases the folder; idempotent. */
  async close(clean = true): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#stopped = true;
    this.#idle.wake();
    await this.#loop;
    try {
      if (clean && this.#restored) this.checkpoint();
    } catch (error) {
      this.options.logger.warn({ err: error }, 'writing the global checkpoint at close failed');
    }
    try {
      this.task.close();
    } finally {
      unlockGlobalDir(this.dir);
    }
  }
}

/** `topology` whose tasks find the global stores of `global` (`TaskOptions.globalStore`). */
export function withGlobalStores(topology: TopologyRuntime, global: GlobalStateManager | undefined): TopologyRuntime {
  if (global === undefined) return topology;
  const wrapped: TopologyRuntime = Object.create(topology) as TopologyRuntime;
  wrapped.createTask = (taskId, collector, handlers, options) => topology.createTask(taskId, collector, handlers, { ...options, globalStore: (name) => global.store(name) });
  return wrapped;
}
