/**
 * A task's input buffer, Kafka Streams' `PartitionGroup` with its
 * `RecordQueue`s (KIP-353, KIP-695): fetched records wait here per input
 * partition, and the task takes the head record with the lowest timestamp
 * across its partitions next. Before it takes one while some partition has
 * nothing buffered, {@link PartitionGroup.readyToProcess} decides whether to
 * wait, as Kafka's `readyToProcess` does:
 * - `maxTaskIdleMs` -1: never wait (whatever is buffered is processed);
 * - every partition has records buffered: ready;
 * - an empty partition whose fetched lag is unknown, or known and above 0
 *   (records are on the broker, not fetched yet): wait;
 * - an empty partition known to be caught up (lag 0): wait until
 *   `maxTaskIdleMs` after the wait began, then process anyway ("enforced
 *   processing": counted and logged at trace).
 *
 * The order uses each record's own timestamp (create or log-append time);
 * the task still extracts the timestamp it processes with (a custom
 * extractor changes the record's time, not the order it is taken in). The
 * queues are arrays read from a head index: no allocation per record beyond
 * the fetched records themselves. Not thread-safe and synchronous; the task
 * executor owns one per task.
 */
import type { Logger } from 'pino';
import { IllegalStateError } from '../../errors.js';
import type { ConsumedRecord, TopicPartition } from '../../records/types.js';
import { topicPartitionKey as tpKey } from '../../records/topic-partition.js';

/** Kafka's `RecordQueue.UNKNOWN`: no timestamp yet. */
export const UNKNOWN_TIME = -1;
/** Kafka's `StreamsConfig.MAX_TASK_IDLE_MS_DISABLED`: never wait for an empty partition. */
export const MAX_TASK_IDLE_MS_DISABLED = -1;

/** The logger calls the group makes (trace lines as Kafka's). */
export type PartitionGroupLogger = Pick<Logger, 'trace' | 'isLevelEnabled'>;

/** How a {@link PartitionGroup} is set up. */
export interface PartitionGroupOptions {
  /** Kafka's `max.task.idle.ms`: -1 never waits; 0 waits only for data known to be on the broker; more also waits that long for a caught-up partition. */
  maxTaskIdleMs: number;
  /** The fetched lag of a partition (records on the broker not buffered yet); undefined: unknown. Read by {@link PartitionGroup.updateLags}. */
  lagProvider: (tp: TopicPartition) => number | undefined;
  /** Called on each enforced processing (Kafka's enforced-processing sensor). */
  onEnforcedProcessing?: (wallClockTime: number) => void;
  logger?: PartitionGroupLogger;
}

/** The records of one input partition waiting for the task (Kafka's `RecordQueue`). */
class RecordQueue {
  records: ConsumedRecord[] = [];
  head = 0;
  partitionTime = UNKNOWN_TIME;
  constructor(readonly tp: TopicPartition, readonly key: string) {}

  get size(): number {
    return this.records.length - this.head;
  }

  headTimestamp(): number {
    return this.head < this.records.length ? (this.records[this.head] as ConsumedRecord).timestamp : UNKNOWN_TIME;
  }

  add(records: readonly ConsumedRecord[]): void {
    if (this.head === this.records.length) {
      // drained: start a fresh array (the old one's slots are garbage now)
      this.records = records.slice();
      this.head = 0;
      return;
    }
    for (const r of records) this.records.push(r);
  }

  poll(): ConsumedRecord {
    const record = this.records[this.head] as ConsumedRecord;
    // a slot behind the head is never read again: cleared so the record can be collected, without widening the hot array's type
    this.records[this.head] = undefined as unknown as ConsumedRecord;
    this.head++;
    if (this.head === this.records.length) {
      this.records = [];
      this.head = 0;
    }
    if (record.timestamp > this.partitionTime) this.partitionTime = record.timestamp;
    return record;
  }

  clear(): void {
    this.records = [];
    this.head = 0;
    this.partitionTime = UNKNOWN_TIME;
  }
}

/** See the module comment. */
export class PartitionGroup {
  readonly #queues: RecordQueue[];
  readonly #byKey = new Map<string, RecordQueue>();
  readonly #idlePartitionDeadlines = new Map<string, number>();
  readonly #fetchedLags = new Map<string, number>();
  readonly #options: PartitionGroupOptions;
  #streamTime = UNKNOWN_TIME;
  #totalBuffered = 0;
  #nonEmpty = 0;
  /** The queue of the record {@link nextRecord} returned last (Kafka's `RecordInfo.queue`). */
  #lastQueue: RecordQueue | undefined;
  /** Kafka's record-lateness metric, last value: stream time minus the timestamp of the record taken (0 when it advanced stream time). */
  lastLateness = 0;

  constructor(partitions: readonly TopicPartition[], options: PartitionGroupOptions) {
    this.#options = options;
    this.#queues = partitions.map((tp) => new RecordQueue({ topic: tp.topic, partition: tp.partition }, tpKey(tp)));
    for (const q of this.#queues) this.#byKey.set(q.key, q);
  }

  /**
   * Kafka's `readyToProcess(wallClockTime)`: whether the task may take the
   * next record now (see the module comment for the rules).
   */
  readyToProcess(wallClockTime: number): boolean {
    const { maxTaskIdleMs, logger } = this.#options;
    const trace = logger?.isLevelEnabled('trace') === true ? logger : undefined;
    if (maxTaskIdleMs === MAX_TASK_IDLE_MS_DISABLED) {
      if (trace && this.#nonEmpty < this.#queues.length && this.#totalBuffered > 0) {
        trace.trace(
          'Ready for processing because max.task.idle.ms is disabled.\n\tThere may be out-of-order processing for this task as a result.' +
            `\n\tBuffered partitions: ${this.#keys((q) => q.size > 0)}\n\tNon-buffered partitions: ${this.#keys((q) => q.size === 0)}`,
        );
      }
      return true;
    }
    if (this.#nonEmpty === this.#queues.length) {
      if (this.#idlePartitionDeadlines.size > 0) this.#idlePartitionDeadlines.clear();
      trace?.trace('All partitions were buffered locally, so this task is ready for processing.');
      return true;
    }
    let queued = 0;
    let enforced: Map<string, number> | undefined;
    for (const queue of this.#queues) {
      const { key } = queue;
      if (queue.size > 0) {
        this.#idlePartitionDeadlines.delete(key);
        queued++;
        continue;
      }
      const fetchedLag = this.#fetchedLags.get(key) ?? -1;
      trace?.trace(`Fetched lag for ${key} is ${fetchedLag}`);
      if (fetchedLag === -1) {
        // must wait to fetch metadata for the partition
        this.#idlePartitionDeadlines.delete(key);
        trace?.trace(`Waiting to fetch data for ${key}`);
        return false;
      }
      if (fetchedLag > 0) {
        // must wait to poll the data we know to be on the broker
        this.#idlePartitionDeadlines.delete(key);
        trace?.trace(`Lag for ${key} is currently ${fetchedLag}, but no data is buffered locally. Waiting to buffer some records.`);
        return false;
      }
      // known to have zero lag: wait for maxTaskIdleMs to see if more data shows up
      let deadline = this.#idlePartitionDeadlines.get(key);
      if (deadline === undefined) this.#idlePartitionDeadlines.set(key, (deadline = wallClockTime + maxTaskIdleMs));
      if (wallClockTime < deadline) {
        trace?.trace(
          `Lag for ${key} is currently 0 and current time is ${wallClockTime}. Waiting for new data to be produced for configured idle time ${maxTaskIdleMs} (deadline is ${deadline}).`,
        );
        return false;
      }
      (enforced ??= new Map()).set(key, deadline);
    }
    if (enforced === undefined) {
      trace?.trace('All partitions were buffered locally, so this task is ready for processing.');
      return true;
    }
    if (queued === 0) {
      trace?.trace('No partitions were buffered locally, so this task is not ready for processing.');
      return false;
    }
    this.#options.onEnforcedProcessing?.(wallClockTime);
    trace?.trace(
      'Continuing to process although some partitions are empty on the broker.\n\tThere may be out-of-order processing for this task as a result.' +
        `\n\tPartitions with local data: ${this.#keys((q) => q.size > 0)}.` +
        `\n\tPartitions we gave up waiting for, with their corresponding deadlines: {${[...enforced].map(([k, d]) => `${k}=${d}`).join(', ')}}.` +
        `\n\tConfigured max.task.idle.ms: ${maxTaskIdleMs}.\n\tCurrent wall-clock time: ${wallClockTime}.`,
    );
    return true;
  }

  /** Appends fetched records of `tp` (in offset order); returns the partition's buffered count after. */
  addRecords(tp: TopicPartition, records: readonly ConsumedRecord[]): number {
    const queue = this.#queue(tp);
    if (records.length === 0) return queue.size;
    if (queue.size === 0) this.#nonEmpty++;
    queue.add(records);
    this.#totalBuffered += records.length;
    return queue.size;
  }

  /**
   * Takes the head record with the lowest timestamp across the partitions
   * (ties: the partition listed first); undefined when nothing is buffered.
   * Advances the partition's time and the stream time (never backwards).
   */
  nextRecord(): ConsumedRecord | undefined {
    let best: RecordQueue | undefined;
    let bestTime = 0;
    for (const queue of this.#queues) {
      if (queue.size === 0) continue;
      const time = queue.headTimestamp();
      if (best === undefined || time < bestTime) {
        best = queue;
        bestTime = time;
      }
    }
    this.#lastQueue = best;
    if (best === undefined) return undefined;
    const record = best.poll();
    this.#totalBuffered--;
    if (best.size === 0) this.#nonEmpty--;
    if (record.timestamp > this.#streamTime) {
      this.#streamTime = record.timestamp;
      this.lastLateness = 0;
    } else {
      this.lastLateness = this.#streamTime - record.timestamp;
    }
    return record;
  }

  /** The partition of the record {@link nextRecord} returned last (undefined: none). */
  get lastPartition(): TopicPartition | undefined {
    return this.#lastQueue?.tp;
  }

  /** The `topic-partition` key of {@link lastPartition} ('' when none; precomputed, no allocation). */
  get lastPartitionKey(): string {
    return this.#lastQueue?.key ?? '';
  }

  /** Records still buffered for {@link lastPartition}. */
  get lastPartitionBuffered(): number {
    return this.#lastQueue?.size ?? 0;
  }

  /** Kafka's `updateLags()`: reads every partition's fetched lag from the lag provider (not while idling is disabled). */
  updateLags(): void {
    if (this.#options.maxTaskIdleMs === MAX_TASK_IDLE_MS_DISABLED) return;
    for (const queue of this.#queues) {
      const lag = this.#options.lagProvider(queue.tp);
      if (lag === undefined) this.#fetchedLags.delete(queue.key);
      else this.#fetchedLags.set(queue.key, lag);
    }
  }

  /** The largest timestamp taken from `tp` so far ({@link UNKNOWN_TIME}: none). */
  partitionTimestamp(tp: TopicPartition): number {
    return this.#queue(tp).partitionTime;
  }

  /** Sets the partition's time (and raises stream time to it). */
  setPartitionTime(tp: TopicPartition, partitionTime: number): void {
    const queue = this.#queue(tp);
    if (this.#streamTime < partitionTime) this.#streamTime = partitionTime;
    queue.partitionTime = partitionTime;
  }

  /** The largest timestamp taken from any partition ({@link UNKNOWN_TIME}: none). */
  streamTime(): number {
    return this.#streamTime;
  }

  /** Offset of the partition's head record (undefined: nothing buffered). */
  headRecordOffset(tp: TopicPartition): number | undefined {
    const queue = this.#queue(tp);
    return queue.size === 0 ? undefined : queue.records[queue.head]?.offset;
  }

  /** Records buffered for `tp`, or for every partition without an argument. */
  numBuffered(tp?: TopicPartition): number {
    return tp === undefined ? this.#totalBuffered : this.#queue(tp).size;
  }

  /** True when every partition has records buffered. */
  allPartitionsBufferedLocally(): boolean {
    return this.#nonEmpty === this.#queues.length;
  }

  /** Drops every buffered record, the times and the fetched lags (a task closing or rewinding). */
  clear(): void {
    for (const queue of this.#queues) queue.clear();
    this.#totalBuffered = 0;
    this.#nonEmpty = 0;
    this.#streamTime = UNKNOWN_TIME;
    this.#fetchedLags.clear();
    this.#idlePartitionDeadlines.clear();
    this.#lastQueue = undefined;
  }

  #queue(tp: TopicPartition): RecordQueue {
    const queue = this.#queues.length === 1 ? this.#queues[0] : this.#byKey.get(tpKey(tp));
    if (queue === undefined || queue.tp.topic !== tp.topic || queue.tp.partition !== tp.partition) {
      throw new IllegalStateError(`Partition ${tpKey(tp)} not found.`);
    }
    return queue;
  }

  #keys(filter: (q: RecordQueue) => boolean): string {
    return `[${this.#queues.filter(filter).map((q) => q.key).join(', ')}]`;
  }
}
