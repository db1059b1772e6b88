/**
 * One standby task (Kafka Streams' `StandbyTask`): a copy of an active task's
 * state stores on another instance, kept current by reading the task's
 * changelogs (read_committed), never processing input and never writing.
 *
 * Lifecycle (the code mirrors the steps; states through the shared
 * transition-table helper):
 * 1. `open()` (CREATED → RUNNING): lock `<stateDir>/<applicationId>/<taskId>`,
 *    build the task's processors and stores from the topology and `init` the
 *    stores through a late binding (`standby-handover.ts`: no output, no
 *    changelog write while a standby; the instance's record cache); each
 *    logged store starts at its checkpoint (a persistent store's own) or 0
 *    (in-memory);
 * 2. `apply(changelog, records, next)`: the standby updater hands over what it
 *    read; the store applies it with `restoreBatch` (a persistent store writes
 *    the records and its checkpoint in one storage transaction) and the
 *    position moves to `next`;
 * 3. `close()` (→ CLOSED): write the task's `.checkpoint` file (the position of
 *    every persistent store's changelog: what the assignor is told this
 *    instance has), close the stores, unlock the folder;
 * 4. or `handOver()` (→ PROMOTED) when the task becomes active here: write the
 *    `.checkpoint` file, then give the folder (still locked), the processors
 *    with their open stores and the positions to the active task, which
 *    restores only what the standby had not read yet (`standby-handover.ts`).
 *
 * A store restored from its table source's topic (`sourceChangelogs`) is read
 * only up to the group's committed offset of that partition (what the active
 * task has processed): beyond it, records are not state yet, and a checkpoint
 * past the committed offset would make the active task wipe the store.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { TopicPartition } from '../../cluster/port.js';
import { defined } from '../../internal/defined.js';
import { StateMachine, type TransitionTable } from '../../internal/state-machine.js';
import { changelogTopicName, type ChangelogRecord, type ManagedStateStore, type RecordCacheLike } from '../../state/store-contract.js';
import type { TaskProcessor, TopologyRuntime } from '../../processors/task-contract.js';
import type { TaskId } from '../../records/task-id.js';
import { topicPartitionKey } from '../../records/topic-partition.js';
import type { StandbySettings } from './app-settings.js';
import type { TaskDirectories } from './state-manager.js';
import { removeTaskCheckpoint, writeTaskCheckpoint } from './task-checkpoint.js';
import { LateBinding, type PromotedStandby } from './standby-handover.js';

/** States of a standby task. */
export type StandbyState = 'CREATED' | 'RUNNING' | 'CLOSED' | 'PROMOTED';

const STANDBY_TRANSITIONS: TransitionTable<StandbyState> = {
  CREATED: ['RUNNING', 'CLOSED'],
  RUNNING: ['CLOSED', 'PROMOTED'],
  CLOSED: [],
  PROMOTED: [],
};

/** One changelog partition a standby task follows. */
export interface StandbyChangelog {
  readonly store: ManagedStateStore;
  readonly tp: TopicPartition;
  /** Set for a store restored from its source topic: read only below the group's committed offset. */
  readonly sourceTopic: string | undefined;
  /** The next offset to read. */
  position: number;
}

/** What a standby task needs. */
export interface StandbyTaskDeps {
  id: string;
  taskId: TaskId;
  topology: TopologyRuntime;
  config: StandbySettings;
  directories: TaskDirectories;
  /** The instance's record cache: the stores keep it once promoted. */
  cache: RecordCacheLike | undefined;
  logger: Logger;
  /** The logger of the task's processors (an active task's: they keep it once promoted). */
  processorLogger: Logger;
}

/** Kafka's `OFFSET_DELTA_THRESHOLD_FOR_CHECKPOINT`: the task file is rewritten after this many offsets. */
const CHECKPOINT_DELTA = 10_000;

/** See the module comment. */
export class StandbyTask {
  readonly #sm: StateMachine<StandbyState>;
  #stores: readonly ManagedStateStore[] = [];
  #processor: TaskProcessor | undefined;
  readonly #binding = new LateBinding();
  #changelogs: StandbyChangelog[] = [];
  #dir: string | undefined;
  #sinceCheckpointFile = 0;
  /** Records applied since the task opened. */
  applied = 0;

  constructor(private readonly deps: StandbyTaskDeps) {
    this.#sm = new StateMachine<StandbyState>(`Standby task ${deps.id}`, STANDBY_TRANSITIONS, 'CREATED');
  }

  get id(): string {
    return this.deps.id;
  }

  get state(): StandbyState {
    return this.#sm.state;
  }

  /** The changelog partitions this task follows (empty for stores that log nothing). */
  get changelogs(): readonly StandbyChangelog[] {
    return this.#changelogs;
  }

  /** The store `name` of this standby, if the task has it (stale interactive queries). */
  store(name: string): ManagedStateStore | undefined {
    return this.#stores.find((s) => s.name === name);
  }

  /** The sum of the changelog positions: what the subscription reports for this task (Kafka's task offset sum). */
  offsetSum(): number {
    return this.#changelogs.reduce((sum, c) => sum + c.position, 0);
  }

  /** Step 1. */
  open(): void {
    this.#sm.require('open', ['CREATED']);
    const { id, taskId, topology, config, directories, logger } = this.deps;
    this.#dir = directories.lockTask(id);
    try {
      const handlers = { deserialization: config.deserializationExceptionHandler, processing: config.processingExceptionHandler };
      const processor = topology.createTask(taskId, this.#binding.collector, handlers, { logger: this.deps.processorLogger });
      this.#processor = processor;
      this.#stores = processor.stores;
      const sources = topology.sourceChangelogs?.() ?? new Map<string, string>();
      for (const store of this.#stores) {
        const sourceTopic = sources.get(store.name);
        const logs = store.loggingEnabled && sourceTopic === undefined;
        store.init(this.#binding.storeContext(store.name, logs, { applicationId: config.applicationId, taskId, stateDir: this.#dir, cache: this.deps.cache, logger: logger.child({ store: store.name }) }));
        if (sourceTopic === undefined && !store.loggingEnabled) continue;
        const topic = sourceTopic ?? changelogTopicName(config.applicationId, store.name);
        this.#changelogs.push({ store, tp: { topic, partition: taskId.partition }, sourceTopic, position: store.checkpoint() ?? 0 });
      }
    } catch (error) {
      this.#closeStores();
      throw error;
    }
    this.#sm.transition('RUNNING');
  }

  /** Step 2: applies records read from `changelog` (offsets below `next`, in order) and moves its position to `next`. */
  apply(changelog: StandbyChangelog, records: readonly ChangelogRecord[], next: number): void {
    this.#sm.require('apply', ['RUNNING']);
    if (records.length > 0) changelog.store.restoreBatch(records);
    this.applied += records.length;
    this.#sinceCheckpointFile += next - changelog.position;
    changelog.position = next;
    if (this.#sinceCheckpointFile >= CHECKPOINT_DELTA) this.#writeCheckpointFile();
  }

  /** Wipes the stores' local copies (their changelog moved under them: re-created or truncated); the task must be re-created. */
  wipe(): void {
    const dir = this.#dir;
    this.close();
    if (dir === undefined) return;
    for (const store of this.#stores) rmSync(join(dir, store.name), { recursive: true, force: true });
    removeTaskCheckpoint(dir);
  }

  /** Step 4: the task is active here now; its processors, stores and folder go to the active task. */
  handOver(): PromotedStandby {
    this.#sm.require('handOver', ['RUNNING']);
    this.#writeCheckpointFile();
    const dir = defined(this.#dir, `folder of standby task ${this.id}`);
    const processor = defined(this.#processor, `processors of standby task ${this.id}`);
    const positions = new Map(this.#changelogs.map((c) => [c.store.name, c.position] as const));
    const binding = this.#binding;
    this.#dir = undefined;
    this.#sm.transition('PROMOTED');
    return { dir, processor, positions, bind: (active) => binding.bind(active) };
  }

  /** Step 3. Idempotent (nothing to do once handed over). */
  close(): void {
    if (this.state === 'CLOSED' || this.state === 'PROMOTED') return;
    this.#writeCheckpointFile();
    this.#closeStores();
    this.#sm.transition('CLOSED');
  }

  #writeCheckpointFile(): void {
    this.#sinceCheckpointFile = 0;
    if (this.#dir === undefined) return;
    const positions = new Map(this.#changelogs.filter((c) => c.store.persistent && c.position > 0).map((c) => [topicPartitionKey(c.tp), c.position] as const));
    if (positions.size > 0) writeTaskCheckpoint(this.#dir, positions, this.deps.logger);
  }

  #closeStores(): void {
    for (const store of this.#stores) {
      try {
        store.close();
      } catch (error) {
        this.deps.logger.warn({ err: error, store: store.name }, 'closing a standby store failed');
      }
    }
    if (this.#dir !== undefined) this.deps.directories.unlockTask(this.deps.id);
    this.#dir = undefined;
  }
}
