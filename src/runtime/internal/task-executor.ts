/**
 * The task executor (Kafka Streams' TaskExecutor + StreamTask's commit): one
 * task of the running app — a TaskProcessor (the topology for one subtopology
 * and partition), its own producer (transactional id
 * `<applicationId>-<taskId>`) and record collector, its consumed and committed
 * offsets — driven poll → process → collect → commit. Every operation runs in
 * the task's queue (p-queue, concurrency 1), so processing, punctuation,
 * commits and closing never overlap. Whether a transaction is open is the
 * producer's state (src/eos/streams-producer.ts), not tracked here.
 */
import PQueue from 'p-queue';
import type { FetchedBatch, TopicPartition, TopicPartitionOffset } from '../../cluster/port.js';
import type { TaskRecordCollector } from '../../eos/record-collector.js';
import type { StreamsProducer } from '../../eos/streams-producer.js';
import type { AsyncNodeStats, ManagedStateStore, TaskProcessor } from '../../processors/task-contract.js';
import type { StateMachine } from '../../internal/state-machine.js';
import { createTaskStateMachine, type TaskState } from './task-state.js';
import { topicPartitionKey as tpKey } from '../../records/topic-partition.js';
import { defined } from '../../internal/defined.js';
import type { TaskExecutorDeps } from './task-deps.js';
import type { TaskStateManager } from './state-manager.js';
import { buildTaskParts } from './task-parts.js';
import { resetOffsets } from './offset-reset.js';
import { TaskInput } from './task-input.js';
import { moveDrained, processReady } from './task-processing.js';

export type { TaskExecutorDeps, TaskProducerFactory } from './task-deps.js';

/** One task; see the module comment. */
export class TaskExecutor {
  readonly id: string;
  readonly partitions: TopicPartition[];
  readonly #sm: StateMachine<TaskState>;
  readonly #queue = new PQueue({ concurrency: 1 });
  readonly #exactlyOnce: boolean;
  #producer: StreamsProducer | undefined;
  #processor: TaskProcessor | undefined;
  #collector: TaskRecordCollector | undefined;
  #state: TaskStateManager | undefined;
  /** Next offset to process, per partition. */
  readonly #position = new Map<string, number>();
  /** Last committed next offset, per partition. */
  readonly #committed = new Map<string, number>();
  #dirty = false;
  #lastCommitAt = Date.now();
  #commitQueued = false;
  #punctuateQueued = false;
  /** A prompt pump of async outputs is scheduled (setImmediate) or queued ({@link #onAsyncSettled}). */
  #pumpScheduled = false;
  /** The processing loop runs (it forwards finished calls before each record itself). */
  #processing = false;
  /** A call settled while the processing loop ran: pump once it ends. */
  #settledWhileProcessing = false;
  /** The error of a prompt pump, rethrown by the next tick's {@link punctuate} (the task manager's failure path). */
  #pumpFailure: { error: unknown } | undefined;
  #generation = 0;
  /** Set at once by a close, so a restoration under way stops at its next batch instead of holding up the close. */
  #closeRequested = false;
  /** Fetched records waiting to be processed, in timestamp order across the partitions (`task-input.ts`). */
  readonly #input: TaskInput;
  /** The queued processing job ({@link processBuffered}), if any. */
  #processJob: Promise<void> | undefined;

  constructor(private readonly deps: TaskExecutorDeps) {
    this.id = deps.id;
    this.partitions = deps.partitions;
    this.#exactlyOnce = deps.config.guarantee.exactlyOnce;
    this.#sm = createTaskStateMachine(deps.id);
    this.#input = new TaskInput({
      partitions: deps.partitions,
      maxTaskIdleMs: deps.config.maxTaskIdleMs,
      bufferedRecordsPerPartition: deps.config.bufferedRecordsPerPartition,
      consumer: deps.consumer,
      ...(deps.endOffsets ? { endOffsets: deps.endOffsets } : {}),
      metrics: deps.metrics,
      logger: deps.logger,
    });
  }

  get state(): TaskState {
    return this.#sm.state;
  }
  /** The producer, processor and collector exist from `initialize()` on (steps 1 and 4); only later steps use these. */
  get #liveProducer(): StreamsProducer {
    return defined(this.#producer, `producer of task ${this.id}`);
  }

  get #liveProcessor(): TaskProcessor {
    return defined(this.#processor, `processor of task ${this.id}`);
  }

  get #liveCollector(): TaskRecordCollector {
    return defined(this.#collector, `record collector of task ${this.id}`);
  }

  /** The task's instance of state store `name` (from step 4 of the recovery sequence on). */
  store(name: string): ManagedStateStore | undefined {
    return this.#processor?.stores.find((s) => s.name === name);
  }

  /** Adds the records each node of this task received to `into`, by node name (the live UI's node rates). */
  nodeRecordCounts(into: Map<string, number>): void {
    this.#processor?.nodeRecordCounts?.(into);
  }

  /** Adds the metrics of this task's async steps to `into`, by node name. */
  asyncStats(into: Map<string, AsyncNodeStats>): void {
    this.#processor?.asyncStats?.(into);
  }

  /** Outputs sent and not yet acknowledged. */
  get pendingOutputs(): number {
    return this.#collector?.pending ?? 0;
  }

  /** Incremented by every seek: a batch delivered before it is stale. */
  get generation(): number {
    return this.#generation;
  }

  /** The last committed offsets (where a rewind goes). */
  get committedOffsets(): TopicPartitionOffset[] {
    return this.partitions.map((tp) => ({ ...tp, offset: this.#committed.get(tpKey(tp)) ?? 0 }));
  }

  /**
   * The recovery sequence, run on assignment and on every re-acquisition
   * (`initialize()` runs steps 1–4 inside the rebalance callback,
   * `restoreAndStart()` steps 5–6 afterwards, so a restoring task never holds
   * up the rebalance or the other tasks):
   * 1. create and initialise the task's producer (InitProducerId fences the
   *    previous owner and completes or aborts its open transaction);
   * 2. re-read the task's committed offsets from the group coordinator (only
   *    now are they final);
   * 3. seek every input partition there and keep it paused; one with no
   *    committed offset starts per `autoOffsetReset`: offset 0 (`earliest`)
   *    or its end offset (`latest`);
   * 4. create the processors, their stores and the record collector (state RESTORING);
   * 5. restore the state stores from their changelogs (`TaskStateManager`:
   *    lock the task folder, init the stores, read each changelog to its end);
   * 6. prepare the sink serializers (`TaskProcessor.prepareOutput`: a Schema
   *    Registry serde registers or looks up its schema; a promise only then),
   *    call the processors' `init`, seek again to the positions of step 3 and
   *    resume the partitions (state RUNNING).
   */
  initialize(): Promise<void> {
    return this.#queue.add(async () => {
      this.#sm.require('initialize', ['CREATED']);
      const { config, consumer, id } = this.deps;
      // 1. init the producer
      const producer = this.deps.producerFactory({ transactionalId: config.guarantee.transactionalIdOf(id), taskId: id });
      this.#producer = producer;
      await producer.initTransactions();
      if (this.state !== 'CREATED') return;
      // 2. re-read committed offsets
      const committed = await consumer.committed(this.partitions);
      if (this.state !== 'CREATED') return;
      // 3. seek
      const resetTo = await resetOffsets(this.partitions, committed, this.deps);
      if (this.state !== 'CREATED') return;
      for (const tp of this.partitions) {
        const found = committed.find((c) => c.topic === tp.topic && c.partition === tp.partition);
        const offset = found && found.offset >= 0 ? found.offset : (resetTo.get(tpKey(tp)) ?? 0);
        consumer.seek({ ...tp, offset });
        this.#position.set(tpKey(tp), offset);
        this.#committed.set(tpKey(tp), offset);
      }
      // 4. processors, stores and collector
      const groupCommitted = new Map(committed.filter((c) => c.offset >= 0).map((c) => [c.topic, c.offset]));
      const parts = buildTaskParts(this.deps, producer, {
        exactlyOnce: this.#exactlyOnce,
        beforeSend: () => this.#ensureTransaction(),
        restorationStopped: () => this.state !== 'RESTORING' || this.#closeRequested,
        committedOffset: (topic) => groupCommitted.get(topic),
      });
      this.#collector = parts.collector;
      this.#processor = parts.processor;
      this.#state = parts.state;
      this.#sm.transition('RESTORING');
    });
  }

  /** Steps 5 and 6 of the recovery sequence (see {@link initialize}); rejects when restoration fails (the task manager recovers the task). */
  restoreAndStart(): Promise<void> {
    return this.#queue.add(async () => {
      if (this.state !== 'RESTORING') return;
      // 5. restore
      await defined(this.#state, `state manager of task ${this.id}`).initializeAndRestore();
      if (this.state !== 'RESTORING') return;
      // 6. prepare the sink serializers (Schema Registry: register / look up), init processors, resume
      const preparing = this.#liveProcessor.prepareOutput?.();
      if (preparing) await preparing;
      if (this.state !== 'RESTORING') return;
      this.#liveProcessor.init();
      this.#liveProcessor.onAsyncSettled?.(() => this.#onAsyncSettled());
      const { consumer } = this.deps;
      for (const tp of this.partitions) consumer.seek({ ...tp, offset: defined(this.#position.get(tpKey(tp)), `position of ${tpKey(tp)}`) });
      this.#generation++;
      this.#input.start(this.#position);
      consumer.resume(this.partitions);
      this.#lastCommitAt = Date.now();
      this.#sm.transition('RUNNING');
      this.deps.logger.info({ offsets: this.committedOffsets }, 'task initialized at the committed offsets');
    });
  }

  /**
   * Takes a fetched batch: first the I/O its sources' deserializers need
   * (`TaskProcessor.resolveInput`: unknown Schema Registry ids; awaited only
   * when it returns a promise, and the state and generation are checked again
   * after it), then buffers it in the task's input (`task-input.ts`;
   * stale or late batches are ignored), then processes what is ready
   * ({@link processBuffered}). Resolves once the records that may be processed
   * now are, not when every record of the batch is: one waiting for another
   * partition stays buffered, and the fetch goes on meanwhile.
   */
  processBatch(batch: FetchedBatch, generation: number): Promise<void> {
    if (this.state !== 'RUNNING' || generation !== this.#generation) return Promise.resolve();
    // the source deserializers' I/O (Schema Registry: unknown schema ids) before the batch is buffered; a promise only then
    const resolving = this.#processor?.resolveInput?.(batch.records);
    if (resolving) return resolving.then(() => this.#takeBatch(batch, generation));
    return this.#takeBatch(batch, generation);
  }

  #takeBatch(batch: FetchedBatch, generation: number): Promise<void> {
    if (this.state !== 'RUNNING' || generation !== this.#generation) return Promise.resolve();
    if (!this.#input.add(batch)) return Promise.resolve();
    if (this.#input.group.numBuffered(batch) === 0 && moveDrained(this.#input, this.#position, tpKey(batch))) this.#dirty = true;
    return this.processBuffered();
  }

  /** True while records wait in the task's input buffer. */
  get hasBuffered(): boolean {
    return this.#input.group.numBuffered() > 0;
  }

  /** Processes buffered records in the task queue (`task-processing.ts`); one such job is queued at a time. */
  processBuffered(): Promise<void> {
    if (this.#processJob) return this.#processJob;
    const generation = this.#generation;
    let started = false; // p-queue may start the job inside add(): then it is not pending
    const job = this.#queue.add(async () => {
      started = true;
      this.#processJob = undefined;
      const running = (): boolean => this.state === 'RUNNING' && generation === this.#generation;
      if (!running()) return false;
      this.#processing = true;
      try {
        return await processReady({
          input: this.#input, processor: this.#liveProcessor, collector: this.#liveCollector, metrics: this.deps.metrics,
          maxPendingOutputs: this.deps.config.maxPendingOutputRecordsPerTask, partitions: this.partitions, position: this.#position,
          running, markDirty: () => void (this.#dirty = true), commitWaiting: () => this.#commitQueued,
        });
      } finally {
        this.#processing = false;
        // calls that settled after the last record was taken: their outputs now (step 0 of #onAsyncSettled)
        if (this.#settledWhileProcessing) {
          this.#settledWhileProcessing = false;
          this.#onAsyncSettled();
        }
      }
    });
    // gave way to a queued commit with records still buffered: process again after it (queued behind it)
    const processed = job.then((yielded) => (yielded === true ? this.processBuffered() : undefined));
    if (!started) this.#processJob = processed;
    return processed;
  }

  /** Resolves once the task's unacknowledged outputs are within the configured bound. */
  waitForBackpressure(): Promise<void> {
    return this.#collector?.waitForPendingAtMost(this.deps.config.maxPendingOutputRecordsPerTask) ?? Promise.resolve();
  }

  /** True when the commit interval elapsed with uncommitted work, or a processor requested a commit. */
  commitDue(now: number): boolean {
    if (this.state !== 'RUNNING' || this.#commitQueued) return false;
    if (this.#processor?.commitRequested) return true;
    return (this.#dirty || this.#inTransaction()) && now - this.#lastCommitAt >= this.deps.config.commitIntervalMs;
  }

  /** Commits (the numbered steps of `#commitNow`) in the task queue; at most one commit is queued at a time. */
  commit(): Promise<void> {
    if (this.#commitQueued) return Promise.resolve();
    this.#commitQueued = true;
    return this.#queue.add(async () => {
      this.#commitQueued = false;
      if (this.state === 'RUNNING') await this.#commitNow();
    });
  }

  /**
   * Forwards the outputs of finished async calls, then runs due wall-clock
   * punctuators (at most one such job is queued at a time).
   */
  punctuate(now: number): Promise<void> {
    if (this.#punctuateQueued) return Promise.resolve();
    this.#punctuateQueued = true;
    return this.#queue.add(async () => {
      this.#punctuateQueued = false;
      if (this.state !== 'RUNNING') return;
      this.#rethrowPumpFailure();
      // the outputs of async calls that finished since the last record (a promise only when a child is async)
      const pumped = this.#liveProcessor.pumpAsync?.();
      if (pumped) await pumped;
      if (this.state !== 'RUNNING') return;
      const punctuated = this.#liveProcessor.punctuateWallClock(Math.max(now, Date.now()));
      if (punctuated) await punctuated; // a promise only when a punctuator is async
      this.#liveCollector.checkHealthy();
    });
  }

  /**
   * A call of an async step settled (called from its promise callback, so it
   * forwards nothing itself): its outputs are forwarded soon, from the task's
   * queue, instead of at the next tick (up to 50 ms later, the whole tail of
   * calls still running when the input ran dry, or while the task waits for
   * its next batch):
   * 0. while the processing loop runs, only note it: the loop forwards before
   *    each record, and the pump follows once it ends;
   * 1. coalesce: one setImmediate for every call settling in the same turn;
   * 2. then queue one pump job (skipped when one is already queued or the task
   *    stopped running); behind a commit or a punctuation it waits its turn;
   * 3. the job forwards every finished call (`pumpAsync`: per key in input
   *    order, each output as its own input record's, in the open transaction);
   *    a failure is kept and rethrown by the next tick's {@link punctuate}, so
   *    it takes the task manager's failure path as a tick's pump failure would.
   */
  #onAsyncSettled(): void {
    // 0.
    if (this.#processing) {
      this.#settledWhileProcessing = true;
      return;
    }
    // 1.
    if (this.#pumpScheduled) return;
    this.#pumpScheduled = true;
    setImmediate(() => {
      // 2.
      if (this.state !== 'RUNNING') {
        this.#pumpScheduled = false;
        return;
      }
      void this.#queue.add(async () => {
        this.#pumpScheduled = false;
        if (this.state !== 'RUNNING' || this.#pumpFailure !== undefined) return;
        // 3.
        try {
          const pumped = this.#liveProcessor.pumpAsync?.();
          if (pumped) await pumped;
        } catch (error) {
          this.#pumpFailure = { error };
        }
      });
    });
  }

  #rethrowPumpFailure(): void {
    const failure = this.#pumpFailure;
    if (failure === undefined) return;
    this.#pumpFailure = undefined;
    throw failure.error;
  }

  /** Marks the task failed (synchronously, so concurrent batches stop). False if it already was failed or closed. */
  markFailed(): boolean {
    const failed = this.#sm.tryTransition('FAILED');
    // a record waiting for an async step's free slot must not hold up the dirty close until a call ends
    if (failed) this.#processor?.abandonAsync?.();
    return failed;
  }

  /** Clean close (revocation, app close): commit, then close. A failing commit falls back to a dirty close and rethrows. */
  closeClean(): Promise<void> {
    this.#closeRequested = true;
    return this.#queue.add(async () => {
      if (this.state === 'CLOSED') return;
      if (this.state === 'RUNNING') {
        try {
          await this.#commitNow();
        } catch (error) {
          this.#sm.tryTransition('FAILED');
          await this.#shutdown(true);
          throw error;
        }
      }
      await this.#shutdown(this.state !== 'RUNNING');
    });
  }

  /** Dirty close: abort the open transaction (nothing of it becomes visible), close processors and producer. */
  closeDirty(): Promise<void> {
    this.#closeRequested = true;
    return this.#queue.add(() => this.#shutdown(true));
  }

  /** True while the task's producer has a transaction open (the producer's state is the only record of it). */
  #inTransaction(): boolean {
    const state = this.#producer?.state;
    return state === 'IN_TRANSACTION' || state === 'ABORTABLE_ERROR';
  }

  /** Opens the transaction lazily, on the first send or commit (exactly_once). */
  #ensureTransaction(): void {
    if (this.#exactlyOnce && this.#producer?.state === 'READY') this.#producer.beginTransaction();
  }

  /**
   * The commit sequence (DESIGN.md §6 step 4); throws on any failure, the task manager aborts and recovers:
   * 0. drain async calls: wait until no call of an async processor is in flight and every output of
   *    the calls is forwarded (bounded by `asyncCallTimeoutMs`; a call still running then is a processing
   *    error), so the offsets below never pass a record whose call has not finished;
   * 1. nothing consumed and no transaction open: only reset the interval;
   * 2. flush the task's state stores; when that forwarded into an async step, drain it and flush again;
   * 3. `producer.flush()`: wait for every send and its callback (handler decisions, dead letters);
   * 4. stop if the collector recorded a failure (FAIL, a throwing handler, fencing, an unknown outcome);
   * 5. exactly_once: `sendOffsetsToTransaction` with the next offsets of every consumed input record
   *    (records skipped by a handler included), group = applicationId, then `commitTransaction()`;
   *    at_least_once: `consumer.commitOffsets` (only now that every output of those inputs is acknowledged);
   * 6. the state stores commit (a persistent store applies its buffered writes with the new checkpoint);
   *    record the committed offsets and metrics; the next transaction begins lazily.
   */
  async #commitNow(): Promise<void> {
    const producer = this.#liveProducer;
    // 0.
    const draining = this.#liveProcessor.drainAsync?.();
    if (draining) await draining;
    const offsets = this.#dirty
      ? this.partitions.map((tp) => ({ ...tp, offset: defined(this.#position.get(tpKey(tp)), `position of ${tpKey(tp)}`) })).filter((o) => o.offset !== this.#committed.get(tpKey(o)))
      : [];
    // 1.
    if (offsets.length === 0 && !this.#inTransaction()) {
      this.#dirty = false;
      this.#lastCommitAt = Date.now();
      this.#processor?.clearCommitRequest();
      return;
    }
    // 2. (again after a drain: a flush that forwarded into an async step admitted calls whose outputs may reach a cache)
    for (;;) {
      this.#liveProcessor.flushStores();
      const forwarding = this.#liveProcessor.whenIdle?.();
      if (forwarding) await forwarding; // a flush that forwarded into an async processor
      const drainingAgain = this.#liveProcessor.drainAsync?.();
      if (!drainingAgain) break;
      await drainingAgain;
    }
    // 3.
    await producer.flush();
    // 4.
    this.#liveCollector.checkHealthy();
    // 5.
    if (this.#exactlyOnce) {
      if (offsets.length > 0) {
        this.#ensureTransaction();
        await producer.sendOffsetsToTransaction(offsets, this.deps.config.applicationId);
      }
      await producer.commitTransaction();
    } else if (offsets.length > 0) {
      await this.deps.consumer.commitOffsets(offsets);
    }
    // 6.
    this.#state?.committed(new Map(offsets.map((o) => [o.topic, o.offset])));
    for (const o of offsets) this.#committed.set(tpKey(o), o.offset);
    this.#dirty = false;
    this.#lastCommitAt = Date.now();
    this.#liveProcessor.clearCommitRequest();
    this.deps.metrics.commits++;
    this.deps.logger.debug({ offsets }, 'committed');
  }

  async #shutdown(dirty: boolean): Promise<void> {
    if (this.state === 'CLOSED') return;
    const log = this.deps.logger;
    this.#collector?.close();
    if (dirty && (this.#inTransaction() || this.#dirty)) {
      this.deps.metrics.aborts++;
      if (this.#inTransaction()) {
        await this.#liveProducer.abortTransaction().catch((error: unknown) => log.debug({ err: error }, 'abort failed (producer unusable)'));
      }
    }
    this.#dirty = false;
    this.#input.stop();
    try {
      this.#processor?.close();
    } catch (error) {
      log.warn({ err: error }, 'closing the processors failed');
    }
    await this.#producer?.close().catch((error: unknown) => log.debug({ err: error }, 'closing the producer failed'));
    this.#state?.release();
    this.deps.metrics.lag = {};
    this.#sm.transition('CLOSED');
    log.debug({ dirty }, 'task closed');
  }
}
