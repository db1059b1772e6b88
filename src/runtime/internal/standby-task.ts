/**
 * One standby task (Kafka Streams' `StandbyTask`): a copy of an active task's
 * state stores on another instance, kept current by reading the task's
 * changelogs (read_committed), never processing input and never writing.
 *
 * Lifecycle (the code mirrors the steps; states through the shared
 * transition-table helper):
 * 1. `open()` (CREATED → RUNNING): lock `<stateDir>/<applicationId>/<taskId>`,
 *    build the task's stores from the topology and `init` them without a
 *    changelog sink and without the record cache; each logged store starts at
 *    its checkpoint (a persistent store's own) or 0 (in-memory);
 * 2. `apply(changelog, records, next)`: the standby updater hands over what it
 *    read; the store applies it with `restoreBatch` (a persistent store writes
 *    the records and its checkpoint in one storage transaction) and the
 *    position moves to `next`;
 * 3. `close()` (→ CLOSED): write the task's `.checkpoint` file (the position of
 *    every persistent store's changelog: what the assignor is told this
 *    instance has), close the stores, unlock the folder. When the task becomes
 *    active here, the active task then restores only what the standby had not
 *    read yet.
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
import { IllegalStateError } from '../../errors.js';
import { StateMachine, type TransitionTable } from '../../internal/state-machine.js';
import { changelogTopicName, type ChangelogRecord, type ManagedStateStore } from '../../state/store-contract.js';
import type { RecordCollector, TopologyRuntime } from '../../processors/task-contract.js';
import type { TaskId } from '../../records/task-id.js';
import { topicPartitionKey } from '../../records/topic-partition.js';
import type { StandbySettings } from './app-settings.js';
import type { TaskDirectories } from './state-manager.js';
import { removeTaskCheckpoint, writeTaskCheckpoint } from './task-checkpoint.js';

/** States of a standby task. */
export type StandbyState = 'CREATED' | 'RUNNING' | 'CLOSED';

const STANDBY_TRANSITIONS: TransitionTable<StandbyState> = {
  CREATED: ['RUNNING', 'CLOSED'],
  RUNNING: ['CLOSED'],
  CLOSED: [],
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
  logger: Logger;
}

/** Standby tasks never produce: a processor that tried would be a bug in sluice. */
const NO_OUTPUT: RecordCollector = {
  send() {
    throw new IllegalStateError('A standby task does not process records, so it cannot send any: this is a bug in sluice');
  },
};

/** Kafka's `OFFSET_DELTA_THRESHOLD_FOR_CHECKPOINT`: the task file is rewritten after this many offsets. */
const CHECKPOINT_DELTA = 10_000;

/** See the module comment. */
export class StandbyTask {
  readonly #sm: StateMachine<StandbyState>;
  #stores: readonly ManagedStateStore[] = [];
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
      const processor = topology.createTask(taskId, NO_OUTPUT, handlers, { logger });
      this.#stores = processor.stores;
      const sources = topology.sourceChangelogs?.() ?? new Map<string, string>();
      for (const store of this.#stores) {
        store.init({
          applicationId: config.applicationId, taskId, stateDir: this.#dir, changelog: undefined, cache: undefined,
          recordContext: () => ({ timestamp: 0, headers: {} }), logger: logger.child({ store: store.name }),
        });
        const sourceTopic = sources.get(store.name);
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

  /** Step 3. Idempotent. */
  close(): void {
    if (this.state === 'CLOSED') return;
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
