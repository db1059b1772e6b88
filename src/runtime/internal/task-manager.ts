/**
 * The task manager: turns assigned partitions into tasks, routes fetched
 * batches to them, drives commits and punctuation, and recovers failed tasks
 * (DESIGN.md §4 "fencing", §6 step 5). Lifecycle operations (assignment,
 * re-acquisition, close) run one at a time in the lifecycle queue.
 */
import PQueue from 'p-queue';
import type { Logger } from 'pino';
import type { FetchedBatch, GroupConsumerPort, TopicPartition } from '../../cluster/port.js';
import { errorKindOf } from '../../errors.js';
import { recoverFailedTask } from './task-recovery.js';
import { formatTaskId, type AsyncNodeStats, type TopologyRuntime } from '../../processors/task-contract.js';
import type { TaskSettings } from './app-settings.js';
import { aggregateMetrics, asyncProcessorMetrics, newTaskMetrics, type KafkaStreamsMetrics, type TaskMetrics } from '../metrics.js';
import { componentLogger } from '../../internal/logger.js';
import { TaskExecutor, type TaskProducerFactory } from './task-executor.js';
import type { StateRuntime } from './state-manager.js';
import type { ManagedStateStore } from '../../state/store-contract.js';
import { topicPartitionKey as tpKey } from '../../records/topic-partition.js';
import type { StandbyTasks } from './standby-tasks.js';
import type { RepartitionPurger } from './repartition-purge.js';
import type { TaskMetadata } from '../streams-metadata.js';

/** What the task manager needs from the app. */
export interface TaskManagerDeps {
  config: TaskSettings;
  topology: TopologyRuntime;
  consumer: GroupConsumerPort;
  producerFactory: TaskProducerFactory;
  partitionCount: (topic: string) => number | undefined;
  /** End offset per partition of `topic` (index = partition), where `autoOffsetReset: 'latest'` starts a partition with no committed offset. */
  endOffsets?: (topic: string) => Promise<number[]>;
  logger: Logger;
  /** A task failed in a way that stops the app (fatal error, or any non-fencing error under SHUTDOWN_CLIENT). */
  onFatal(error: Error): void;
  /** What the tasks' state managers share (state directory, partition reader, record cache, restore progress). */
  state: StateRuntime;
  /** The instance's standby tasks (`./standby-tasks.ts`); absent: none are kept. */
  standbys?: StandbyTasks;
  /** Deletes committed repartition records (`./repartition-purge.ts`); absent: nothing is purged. */
  purger?: RepartitionPurger;
}



/** See the module comment. */
export class TaskManager {
  readonly #tasks = new Map<string, TaskExecutor>();
  readonly #assigned = new Set<string>();
  readonly #metrics = new Map<string, TaskMetrics>();
  readonly #lifecycle = new PQueue({ concurrency: 1 });
  readonly #subtopologyOf = new Map<string, number>();
  #closing = false;
  #rebalances = 0;
  /** The standby tasks of the last assignment. */
  #standbyIds: readonly string[] = [];
  /** Restorations under way (step 5–6 of a task's recovery sequence). */
  readonly #restoring = new Set<Promise<void>>();

  constructor(private readonly deps: TaskManagerDeps) {
    for (const sub of deps.topology.subtopologies) for (const topic of sub.sourceTopics) this.#subtopologyOf.set(topic, sub.id);
  }

  /** Resolves once no task of this instance is restoring (tasks created meanwhile included). */
  async whenRestored(): Promise<void> {
    while (this.#restoring.size > 0) await Promise.all([...this.#restoring]);
  }

  /**
   * The instance of store `name` of every task this instance runs, with the task's id and state (for
   * interactive queries); with `stale`, also the copies of its standby tasks (state RUNNING: they are readable).
   */
  storesNamed(name: string, stale = false): Array<{ taskId: string; state: TaskExecutor['state']; store: ManagedStateStore }> {
    const found: Array<{ taskId: string; state: TaskExecutor['state']; store: ManagedStateStore }> = [];
    for (const [taskId, task] of this.#tasks) {
      const store = task.store(name);
      if (store) found.push({ taskId, state: task.state, store });
    }
    if (stale) for (const s of this.deps.standbys?.storesNamed(name) ?? []) found.push({ ...s, state: 'RUNNING' });
    return found;
  }

  /**
   * The standby tasks of a new assignment (its user data, handed over before its `onAssignment`):
   * queued in the lifecycle queue, so a standby whose task became active here is stopped before the
   * active task opens its folder: kept for its promotion when `activeIds` (the assignment's active
   * tasks of this instance) name it, else closed; {@link onAssignment} opens those whose active task
   * it closed, and closes those kept that no active task took over.
   */
  onStandbyAssignment(standbyIds: readonly string[], activeIds: readonly string[] = []): Promise<void> {
    this.#standbyIds = [...standbyIds];
    const activeNext = new Set(activeIds);
    return this.#lifecycle.add(() => this.#syncStandbys(activeNext));
  }

  /** The active and standby tasks of this instance with their input partitions (`metadataForLocalThreads`). */
  localTasks(): { active: TaskMetadata[]; standby: TaskMetadata[] } {
    const partitionsOf = (id: string): TopicPartition[] => {
      const [sub, partition] = id.split('_').map(Number) as [number, number];
      return (this.deps.topology.subtopologies.find((s) => s.id === sub)?.sourceTopics ?? []).map((topic) => ({ topic, partition }));
    };
    const active = [...this.#tasks.values()].map((t) => ({ taskId: t.id, topicPartitions: [...t.partitions] }));
    const standby = (this.deps.standbys?.ids ?? []).map((id) => ({ taskId: id, topicPartitions: partitionsOf(id) }));
    return { active, standby };
  }

  /** True while a task of this instance is being created, initialised or restored (the standbys wait meanwhile). */
  activeTasksStarting(): boolean {
    for (const task of this.#tasks.values()) if (task.state === 'CREATED' || task.state === 'RESTORING') return true;
    return false;
  }

  /** Per standby task: the sum of its changelog positions (the subscription's task offset sums). */
  standbyOffsetSums(): Map<string, number> {
    return this.deps.standbys?.offsetSums() ?? new Map();
  }

  #syncStandbys(activeNext?: ReadonlySet<string>): void {
    if (!this.#closing) this.deps.standbys?.update(this.#standbyIds, new Set(this.#tasks.keys()), activeNext);
  }

  /** Ids of the tasks this instance runs now. */
  get taskIds(): string[] {
    return [...this.#tasks.keys()];
  }

  /** The task id of an input partition. */
  taskIdOf(tp: TopicPartition): string | undefined {
    const sub = this.#subtopologyOf.get(tp.topic);
    return sub === undefined ? undefined : formatTaskId({ subtopology: sub, partition: tp.partition });
  }

  /**
   * Handles a rebalance:
   * 1. close every task that lost a partition (or gained one): commit if clean, else abort; close its producer;
   * 2. record the new assignment;
   * 3. create a task for every affected task id still (partly) assigned and run its recovery sequence;
   * 4. open the standby tasks of the assignment that could not open while their task was active here.
   */
  onAssignment(change: { assigned: TopicPartition[]; revoked: TopicPartition[] }): Promise<void> {
    return this.#lifecycle.add(async () => {
      if (this.#closing) return;
      this.#rebalances++;
      const affected = new Set<string>();
      for (const tp of [...change.revoked, ...change.assigned]) {
        const id = this.taskIdOf(tp);
        if (id !== undefined) affected.add(id);
      }
      // 1. close affected tasks
      await Promise.all(
        [...affected].map(async (id) => {
          const task = this.#tasks.get(id);
          if (!task) return;
          this.#tasks.delete(id);
          await task.closeClean().catch((error: unknown) => this.#logDirtyClose(id, error, 'revocation'));
        }),
      );
      // 2. new assignment
      for (const tp of change.revoked) this.#assigned.delete(tpKey(tp));
      for (const tp of change.assigned) this.#assigned.add(tpKey(tp));
      // 3. create and initialise tasks
      await Promise.all([...affected].map((id) => this.#createTask(id)));
      // 4. standbys whose active task was just closed here
      this.#syncStandbys();
    });
  }

  /** Routes a fetched batch to its task: buffer and process what is ready, wait for backpressure, commit when due. */
  async onBatch(batch: FetchedBatch): Promise<void> {
    const id = this.taskIdOf(batch);
    const task = id === undefined ? undefined : this.#tasks.get(id);
    if (!task || this.#closing) return;
    const generation = task.generation;
    try {
      await task.processBatch(batch, generation);
      await task.waitForBackpressure();
      if (task.commitDue(Date.now())) await task.commit();
    } catch (error) {
      void this.#onTaskFailure(task, error);
    }
  }

  /**
   * Timer tick: every running task processes what became ready in its input buffer (an idle deadline
   * passed, a lag became known), runs its wall-clock punctuation and commits when due; then a purge of
   * committed repartition records when due.
   */
  tick(now: number): void {
    if (this.#closing) return;
    for (const task of this.#tasks.values()) {
      if (task.state !== 'RUNNING') continue;
      if (task.hasBuffered) task.processBuffered().catch((error: unknown) => this.#onTaskFailure(task, error));
      task.punctuate(now).catch((error: unknown) => this.#onTaskFailure(task, error));
      if (task.commitDue(now)) task.commit().catch((error: unknown) => this.#onTaskFailure(task, error));
    }
    this.deps.purger?.maybePurge(now, () => [...this.#tasks.values()].filter((t) => t.state === 'RUNNING').flatMap((t) => t.committedOffsets));
  }

  /** Closes every task: clean ones commit, failed ones abort. No new task is created afterwards. */
  async closeAll(): Promise<void> {
    this.#closing = true;
    await this.#lifecycle.add(async () => {
      await this.deps.standbys?.closeAll();
      const tasks = [...this.#tasks.values()];
      this.#tasks.clear();
      await Promise.all(
        tasks.map((task) =>
          task.closeClean().catch((error: unknown) => {
            this.#logDirtyClose(task.id, error, 'close');
            // A final commit that failed for another reason than fencing is a task failure: the app
            // records it (app.error), so a worker stopped by a signal still exits non-zero.
            if (errorKindOf(error) !== 'fencing') this.deps.onFatal(error instanceof Error ? error : new Error(String(error)));
          }),
        ),
      );
    });
  }

  /** Aggregated metrics. */
  metrics(): KafkaStreamsMetrics {
    const result = aggregateMetrics(this.#metrics, new Set(this.#tasks.keys()), this.#rebalances);
    for (const [id, task] of this.#tasks) {
      const entry = result.tasks[id];
      if (entry) entry.pendingOutputs = task.pendingOutputs;
    }
    const asyncStats = new Map<string, AsyncNodeStats>();
    for (const task of this.#tasks.values()) task.asyncStats(asyncStats);
    if (asyncStats.size > 0) result.asyncProcessors = asyncProcessorMetrics(asyncStats);
    const standbys = this.deps.standbys;
    if (standbys) {
      const applied = standbys.appliedRecords();
      result.standbyTasks = Object.fromEntries([...standbys.offsetSums()].map(([id, offsetSum]) => [id, { recordsApplied: applied.get(id) ?? 0, offsetSum }]));
    }
    return result;
  }

  /** The tasks this instance runs now: id, state and input partitions (the live UI's task table). */
  taskStates(): Array<{ id: string; state: TaskExecutor['state']; partitions: ReadonlyArray<{ topic: string; partition: number }> }> {
    return [...this.#tasks.values()].map((task) => ({ id: task.id, state: task.state, partitions: task.partitions }));
  }

  /** Records each node received, summed over the tasks running now, by node name. */
  nodeRecordCounts(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const task of this.#tasks.values()) task.nodeRecordCounts(counts);
    return counts;
  }

  #log(taskId: string): Logger {
    return this.deps.logger.child({ taskId });
  }

  /** A fenced commit on revocation is normal (the new owner initialised first): info; anything else: warn. */
  #logDirtyClose(id: string, error: unknown, when: 'revocation' | 'close'): void {
    const fenced = errorKindOf(error) === 'fencing';
    this.#log(id)[fenced ? 'info' : 'warn']({ err: error }, `commit on ${when} failed${fenced ? ' (fenced by the new owner)' : ''}; transaction aborted, task closed dirty`);
  }

  #metricsOf(id: string): TaskMetrics {
    let metrics = this.#metrics.get(id);
    if (!metrics) this.#metrics.set(id, (metrics = newTaskMetrics()));
    return metrics;
  }

  /** Creates the task `id` for its assigned partitions (if any) and runs its recovery sequence. */
  async #createTask(id: string): Promise<void> {
    if (this.#closing || this.#tasks.has(id)) return;
    const [sub, partition] = id.split('_').map(Number) as [number, number];
    const info = this.deps.topology.subtopologies.find((s) => s.id === sub);
    const partitions = (info?.sourceTopics ?? []).map((topic) => ({ topic, partition })).filter((tp) => this.#assigned.has(tpKey(tp)));
    if (partitions.length === 0) return;
    const task = new TaskExecutor({
      taskId: { subtopology: sub, partition },
      id,
      partitions,
      topology: this.deps.topology,
      consumer: this.deps.consumer,
      producerFactory: this.deps.producerFactory,
      config: this.deps.config,
      partitionCount: this.deps.partitionCount,
      ...(this.deps.endOffsets ? { endOffsets: this.deps.endOffsets } : {}),
      metrics: this.#metricsOf(id),
      logger: componentLogger('stream-task', this.deps.config.logger, { applicationId: this.deps.config.applicationId, taskId: id }),
      // a standby of this task kept for its promotion hands its stores over (./standby-handover.ts)
      state: { ...this.deps.state, takeOverStandby: (taskId) => this.deps.standbys?.takeOver(taskId) },
    });
    this.#tasks.set(id, task);
    try {
      await task.initialize();
    } catch (error) {
      void this.#onTaskFailure(task, error);
      return;
    }
    // Steps 5–6 (restore, then run) go on outside the rebalance: other tasks are not held up.
    const restoring: Promise<void> = task.restoreAndStart().catch((error: unknown) => void this.#onTaskFailure(task, error)).finally(() => this.#restoring.delete(restoring));
    this.#restoring.add(restoring);
  }

  /** Recovery of a failed task (`task-recovery.ts`). */
  #onTaskFailure(task: TaskExecutor, error: unknown): Promise<void> {
    return recoverFailedTask(task, error, {
      consumer: this.deps.consumer, config: this.deps.config, log: this.#log(task.id), closing: () => this.#closing,
      countRestart: () => void this.#metricsOf(task.id).restarts++, reacquire: () => this.#reacquire(task), onFatal: this.deps.onFatal,
    });
  }

  /** Replaces a failed task by a fresh one if it is still this instance's and still assigned. */
  #reacquire(old: TaskExecutor): Promise<void> {
    return this.#lifecycle.add(async () => {
      if (this.#closing || this.#tasks.get(old.id) !== old) return;
      this.#tasks.delete(old.id);
      await this.#createTask(old.id);
    });
  }
}
