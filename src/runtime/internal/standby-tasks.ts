/**
 * The standby tasks of an instance (Kafka Streams' standby half of
 * `TaskManager` and the standby mode of `StoreChangelogReader`): which ones
 * exist, and the one updater loop that keeps their stores current.
 *
 * `update(wanted, activeHere, activeNext)`, after every assignment (the task
 * manager calls it inside its lifecycle queue, so it never overlaps a task's
 * creation):
 * 0. close the standbys kept for a promotion by the previous update that no
 *    active task took over (`takeOver`);
 * 1. a standby no longer wanted whose task the new assignment makes active
 *    here (`activeNext`) is kept, open and no longer followed, for its
 *    promotion: the active task takes its processors, stores and folder
 *    (`standby-handover.ts`) and restores only the remaining lag; close the
 *    other standbys no longer wanted, and those whose task is active here
 *    already;
 * 2. open the wanted ones not open yet, unless their task is active here (a
 *    task that moves from active to standby on this instance is closed as
 *    active first, so its folder is free); one that cannot be opened is
 *    logged and retried at the next update;
 * 3. wake the updater.
 *
 * The updater loop (one per instance, while standbys exist), each round:
 * 0. while an active task of the instance is starting or restoring, wait
 *    (Kafka's `StoreChangelogReader` updates standbys only once no active
 *    task restores): a failed-over task's first output must not queue behind
 *    standby copies catching up on the same event loop;
 * 1. refresh, at most once a second, the group's committed offsets of the
 *    source partitions that serve as changelogs (their bound);
 * 2. for every changelog partition of every standby: read from its position
 *    through the instance's changelog reader (`changelog-reader.ts`,
 *    read_committed, no wait) and apply what was read (`StandbyTask.apply`);
 *    a position out of range (the changelog was re-created or truncated)
 *    wipes the standby's copy and re-creates it from offset 0;
 * 3. when the round read nothing, sleep {@link IDLE_MS} (woken at once by an update or close).
 */
import type { Logger } from 'pino';
import type { TopicPartition, TopicPartitionOffset } from '../../cluster/port.js';
import { KafkaErrorCode, KafkaProtocolError } from '../../errors.js';
import { componentLogger } from '../../internal/logger.js';
import type { ManagedStateStore, RecordCacheLike } from '../../state/store-contract.js';
import type { TopologyRuntime } from '../../processors/task-contract.js';
import { topicPartitionKey } from '../../records/topic-partition.js';
import type { StandbySettings } from './app-settings.js';
import type { TaskDirectories } from './state-manager.js';
import { StandbyTask } from './standby-task.js';
import { IdleSleep, toChangelogRecords, type ChangelogReader } from './changelog-reader.js';
import type { PromotedStandby } from './standby-handover.js';

/** What the standby tasks of an instance need. */
export interface StandbyTasksDeps {
  topology: TopologyRuntime;
  config: StandbySettings;
  directories: TaskDirectories;
  /** The instance's changelog reader. */
  changelogs: ChangelogReader;
  /** The instance's record cache (the standbys' stores keep it when promoted). */
  cache: RecordCacheLike | undefined;
  /** The group's committed offsets (-1 where none). */
  committed: (partitions: TopicPartition[]) => Promise<TopicPartitionOffset[]>;
  /** True while an active task of the instance is starting or restoring: the standbys wait (step 0 of a round). */
  activeTasksStarting?: () => boolean;
  logger: Logger;
}

/** How long the updater sleeps after a round that read nothing. */
export const IDLE_MS = 100;
/** Per fetch: small enough that applying one keeps the event loop free for the active tasks (tens of ms). */
const FETCH_BYTES = 256 * 1024;
const COMMITTED_REFRESH_MS = 1000;

/** See the module comment. */
export class StandbyTasks {
  readonly #tasks = new Map<string, StandbyTask>();
  /** Standbys kept, not followed, for their promotion to the active task of the assignment just received. */
  readonly #promoting = new Map<string, StandbyTask>();
  #wanted = new Set<string>();
  #loop: Promise<void> | undefined;
  #closed = false;
  readonly #idle = new IdleSleep();
  #committed = new Map<string, number>();
  #committedAt = 0;

  constructor(private readonly deps: StandbyTasksDeps) {}

  /** Ids of the open standby tasks. */
  get ids(): string[] {
    return [...this.#tasks.keys()];
  }

  /** Per open standby: the sum of its changelog positions (what the subscription reports, Kafka's task offset sums). */
  offsetSums(): Map<string, number> {
    return new Map([...this.#tasks].map(([id, task]) => [id, task.offsetSum()] as const));
  }

  /** Records applied by the standbys since they opened, by task (metrics, tests). */
  appliedRecords(): Map<string, number> {
    return new Map([...this.#tasks].map(([id, task]) => [id, task.applied] as const));
  }

  /** The store `name` of every open standby (stale interactive queries). */
  storesNamed(name: string): Array<{ taskId: string; store: ManagedStateStore }> {
    const found: Array<{ taskId: string; store: ManagedStateStore }> = [];
    for (const [taskId, task] of this.#tasks) {
      const store = task.store(name);
      if (store) found.push({ taskId, store });
    }
    return found;
  }

  /** Steps 0–3 of an update (see the module comment). */
  update(wanted: readonly string[], activeHere: ReadonlySet<string>, activeNext: ReadonlySet<string> = new Set()): void {
    if (this.#closed) return;
    this.#wanted = new Set(wanted);
    // 0. kept for a promotion that did not happen
    for (const task of this.#promoting.values()) this.#closeTask(task, 'kept for its promotion, but no active task took it over');
    this.#promoting.clear();
    // 1. keep for promotion, or close
    for (const [id, task] of this.#tasks) {
      if (this.#wanted.has(id) && !activeHere.has(id)) continue;
      this.#tasks.delete(id);
      if (activeNext.has(id) && !activeHere.has(id) && task.state === 'RUNNING') {
        this.#promoting.set(id, task);
        this.deps.logger.info({ taskId: id, applied: task.applied }, 'standby task kept for its promotion: its task is assigned here as active');
      } else {
        this.#closeTask(task, activeHere.has(id) ? 'its task is active on this instance now' : 'no longer assigned');
      }
    }
    // 2. open
    for (const id of this.#wanted) if (!this.#tasks.has(id) && !activeHere.has(id)) this.#open(id);
    // 3. wake
    if (this.#tasks.size > 0) this.#loop ??= this.#run().finally(() => (this.#loop = undefined));
    this.#idle.wake();
  }

  /** Promotion: the standby of task `id` kept by the last update, handed over to its new active task (see `standby-handover.ts`). */
  takeOver(id: string): PromotedStandby | undefined {
    const task = this.#promoting.get(id);
    if (task === undefined) return undefined;
    this.#promoting.delete(id);
    const promoted = task.handOver();
    this.deps.logger.info({ taskId: id, applied: task.applied, positions: Object.fromEntries(promoted.positions) }, 'standby task promoted: the active task takes its stores');
    return promoted;
  }

  /** Stops the updater and closes every standby (their checkpoint files are written). */
  async closeAll(): Promise<void> {
    this.#closed = true;
    this.#idle.wake();
    await this.#loop;
    for (const task of [...this.#tasks.values(), ...this.#promoting.values()]) this.#closeTask(task, 'the app closes');
    this.#tasks.clear();
    this.#promoting.clear();
  }

  #open(id: string): void {
    const [sub, partition] = id.split('_').map(Number) as [number, number];
    const logger = this.deps.logger.child({ taskId: id, standby: true });
    const { topology, config, directories, cache } = this.deps;
    const processorLogger = componentLogger('stream-task', config.logger, { applicationId: config.applicationId, taskId: id });
    const task = new StandbyTask({ id, taskId: { subtopology: sub, partition }, topology, config, directories, cache, logger, processorLogger });
    try {
      task.open();
    } catch (error) {
      logger.warn({ err: error }, 'cannot open the standby task; retrying at the next assignment');
      return;
    }
    this.#tasks.set(id, task);
    logger.info({ changelogs: task.changelogs.map((c) => ({ changelog: topicPartitionKey(c.tp), from: c.position })) }, 'standby task opened');
  }

  #closeTask(task: StandbyTask, why: string): void {
    try {
      task.close();
      this.deps.logger.info({ taskId: task.id, applied: task.applied, why }, 'standby task closed');
    } catch (error) {
      this.deps.logger.warn({ err: error, taskId: task.id }, 'closing the standby task failed');
    }
  }

  async #run(): Promise<void> {
    while (!this.#closed && this.#tasks.size > 0) {
      if (this.deps.changelogs.port() === undefined) {
        this.deps.logger.warn('the cluster offers no partition reader: standby tasks cannot follow their changelogs');
        return;
      }
      // 0. active tasks first
      if (this.deps.activeTasksStarting?.()) {
        await this.#idle.sleep(IDLE_MS);
        continue;
      }
      // 1. committed offsets of source changelogs
      await this.#refreshCommitted();
      // 2. fetch and apply
      let read = 0;
      for (const task of [...this.#tasks.values()]) {
        for (const changelog of task.changelogs) {
          if (this.#closed || task.state !== 'RUNNING' || this.deps.activeTasksStarting?.()) break;
          read += await this.#follow(task, changelog);
        }
      }
      // 3. idle
      if (read === 0 && !this.#closed) await this.#idle.sleep(IDLE_MS);
    }
  }

  /** Step 2 for one changelog partition; returns the records applied. */
  async #follow(task: StandbyTask, changelog: StandbyTask['changelogs'][number]): Promise<number> {
    const limit = changelog.sourceTopic === undefined ? undefined : (this.#committed.get(topicPartitionKey(changelog.tp)) ?? 0);
    if (limit !== undefined && changelog.position >= limit) return 0;
    try {
      // a changelog record without key is not state (`keyed`, as the active restoration)
      const batch = await this.deps.changelogs.read(changelog.tp, changelog.position, { maxBytes: FETCH_BYTES, maxWaitMs: 0, keyed: true, ...(limit !== undefined ? { end: limit } : {}) });
      if (task.state !== 'RUNNING' || this.#tasks.get(task.id) !== task) return 0;
      if (batch.next > changelog.position || batch.records.length > 0) task.apply(changelog, toChangelogRecords(batch.records, changelog.tp), batch.next);
      return batch.records.length;
    } catch (error) {
      if (error instanceof KafkaProtocolError && error.kafkaCode === KafkaErrorCode.OFFSET_OUT_OF_RANGE) {
        this.deps.logger.warn({ taskId: task.id, changelog: topicPartitionKey(changelog.tp), position: changelog.position }, 'standby position out of range of its changelog (re-created or truncated): wiping the copy and reading it again from the start');
        this.#tasks.delete(task.id);
        task.wipe();
        if (this.#wanted.has(task.id)) this.#open(task.id);
        return 0;
      }
      this.deps.logger.debug({ err: error, taskId: task.id, changelog: topicPartitionKey(changelog.tp) }, 'standby fetch failed; retrying');
      await this.#idle.sleep(IDLE_MS * 5);
      return 0;
    }
  }

  async #refreshCommitted(): Promise<void> {
    const now = Date.now();
    if (now - this.#committedAt < COMMITTED_REFRESH_MS) return;
    const partitions = [...this.#tasks.values()].flatMap((t) => t.changelogs.filter((c) => c.sourceTopic !== undefined).map((c) => c.tp));
    if (partitions.length === 0) return;
    this.#committedAt = now;
    try {
      const offsets = await this.deps.committed(partitions);
      this.#committed = new Map(offsets.filter((o) => o.offset >= 0).map((o) => [topicPartitionKey(o), o.offset] as const));
    } catch (error) {
      this.deps.logger.debug({ err: error }, 'reading the committed offsets of source changelogs failed; keeping the last ones');
    }
  }
}
