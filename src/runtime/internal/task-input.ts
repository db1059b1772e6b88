/**
 * The input side of a task executor (Kafka's `StreamTask.addRecords` and the
 * partition-group bookkeeping around it): fetched batches go into the task's
 * {@link PartitionGroup}; this class keeps, per input partition,
 * - the fetched position (records below it were buffered already: a batch
 *   re-delivering them is cut),
 * - the end of what the fetches covered (control and aborted records
 *   included): where the task's position moves once the partition's buffer
 *   is drained,
 * - the fetched lag (high watermark minus that end) the group's readiness
 *   reads; a partition that never delivered a batch (caught up from the start:
 *   neither backend hands over an empty fetch) has its lag asked from the
 *   cluster's end offsets, at most every {@link LAG_PROBE_INTERVAL_MS} (the
 *   task manager's tick retries the task after the answer),
 * - back-pressure: a partition with more than `bufferedRecordsPerPartition`
 *   records buffered is paused (its fetching stops) and resumed once the
 *   task took it back down to the bound (Kafka's
 *   `buffered.records.per.partition`).
 */
import type { Logger } from 'pino';
import type { FetchedBatch, GroupConsumerPort, TopicPartition } from '../../cluster/port.js';
import type { ConsumedRecord } from '../../records/types.js';
import { topicPartitionKey as tpKey } from '../../records/topic-partition.js';
import type { TaskMetrics } from '../metrics.js';
import { PartitionGroup } from './partition-group.js';

/** Least time between two end-offset requests of one task for partitions whose lag is unknown. */
export const LAG_PROBE_INTERVAL_MS = 200;

/** What a task's input needs. */
export interface TaskInputOptions {
  partitions: readonly TopicPartition[];
  maxTaskIdleMs: number;
  bufferedRecordsPerPartition: number;
  consumer: Pick<GroupConsumerPort, 'pause' | 'resume'>;
  /** End offsets of `topic` (index = partition); absent: an unknown lag counts as 0 (caught up). */
  endOffsets?: (topic: string) => Promise<number[]>;
  metrics: TaskMetrics;
  logger: Logger;
}

/** See the module comment. */
export class TaskInput {
  readonly group: PartitionGroup;
  readonly #options: TaskInputOptions;
  readonly #fetched = new Map<string, number>();
  readonly #fetchedEnd = new Map<string, number>();
  readonly #lags = new Map<string, number>();
  readonly #highWatermarks = new Map<string, number>();
  readonly #paused = new Set<string>();
  #lastProbeAt = -Infinity;
  /** A lag changed since the group last read them (read once per change, not per record). */
  #lagsChanged = true;
  #probing = false;
  #stopped = false;

  constructor(options: TaskInputOptions) {
    this.#options = options;
    this.group = new PartitionGroup(options.partitions, {
      maxTaskIdleMs: options.maxTaskIdleMs,
      lagProvider: (tp) => this.#lagOf(tpKey(tp)),
      onEnforcedProcessing: () => void options.metrics.enforcedProcessing++,
      logger: options.logger,
    });
  }

  /** The task starts (or restarts) reading at `positions` (next offset per partition key): nothing is buffered. */
  start(positions: ReadonlyMap<string, number>): void {
    this.group.clear();
    this.#lags.clear();
    this.#fetchedEnd.clear();
    this.#lagsChanged = true;
    for (const [key, offset] of positions) this.#fetched.set(key, offset);
    this.#stopped = false;
  }

  /** Drops everything buffered; no lag probe answers after this. */
  stop(): void {
    this.#stopped = true;
    this.group.clear();
  }

  /**
   * Buffers a fetched batch:
   * 1. cut records below the fetched position (already buffered);
   * 2. append the rest to the partition's queue; the fetched position and end move to the batch's end;
   * 3. the fetched lag is the high watermark minus that end;
   * 4. over the bound: pause the partition.
   * Returns false for a partition that is not the task's.
   */
  add(batch: FetchedBatch): boolean {
    const key = tpKey(batch);
    const from = this.#fetched.get(key);
    if (from === undefined) return false;
    // 1.
    let records: readonly ConsumedRecord[] = batch.records;
    const first = records[0];
    if (first !== undefined && first.offset < from) records = records.filter((r) => r.offset >= from);
    // 2.
    const last = records[records.length - 1];
    const end = Math.max(from, batch.nextOffset ?? (last === undefined ? from : last.offset + 1));
    const size = this.group.addRecords(batch, records);
    this.#fetched.set(key, end);
    this.#fetchedEnd.set(key, end);
    // 3.
    this.#highWatermarks.set(key, batch.highWatermark);
    this.#lags.set(key, Math.max(0, batch.highWatermark - end));
    this.#lagsChanged = true;
    // 4.
    if (size > this.#options.bufferedRecordsPerPartition && !this.#paused.has(key)) {
      this.#paused.add(key);
      this.#options.consumer.pause([{ topic: batch.topic, partition: batch.partition }]);
    }
    return true;
  }

  /** Where the position of partition `key` moves once its buffer is drained (the end of its fetches), if known. */
  fetchedEnd(key: string): number | undefined {
    return this.#fetchedEnd.get(key);
  }

  /** The partition's high watermark from its last batch (for the lag metric). */
  highWatermark(key: string): number | undefined {
    return this.#highWatermarks.get(key);
  }

  /** Reads the lags and asks the group whether the task may take a record; when it may not, asks the unknown lags. */
  ready(now: number): boolean {
    if (this.#lagsChanged) {
      this.#lagsChanged = false;
      this.group.updateLags();
    }
    if (this.group.readyToProcess(now)) return true;
    this.#probeUnknownLags(now);
    return false;
  }

  /** After the task took a record of `tp` (the group's last partition): resumes the partition once its buffer is back at the bound. */
  taken(key: string, buffered: number, tp: TopicPartition): void {
    if (buffered <= this.#options.bufferedRecordsPerPartition && this.#paused.delete(key)) this.#options.consumer.resume([{ topic: tp.topic, partition: tp.partition }]);
  }

  #lagOf(key: string): number | undefined {
    const lag = this.#lags.get(key);
    if (lag !== undefined) return lag;
    return this.#options.endOffsets === undefined ? 0 : undefined;
  }

  /**
   * The partitions with nothing buffered and no lag known yet get one from the end offsets
   * (end minus the fetched position), unless a batch told it meanwhile. Failures are logged
   * at debug and asked again after the interval.
   */
  #probeUnknownLags(now: number): void {
    const { endOffsets, partitions, logger } = this.#options;
    if (endOffsets === undefined || this.#probing || now - this.#lastProbeAt < LAG_PROBE_INTERVAL_MS) return;
    const unknown = partitions.filter((tp) => !this.#lags.has(tpKey(tp)) && this.group.numBuffered(tp) === 0);
    if (unknown.length === 0) return;
    this.#probing = true;
    this.#lastProbeAt = now;
    const topics = [...new Set(unknown.map((tp) => tp.topic))];
    void Promise.all(topics.map(async (topic) => [topic, await endOffsets(topic)] as const))
      .then((answers) => {
        if (this.#stopped) return;
        const ends = new Map(answers);
        for (const tp of unknown) {
          const key = tpKey(tp);
          const end = ends.get(tp.topic)?.[tp.partition];
          const fetched = this.#fetched.get(key);
          if (end === undefined || fetched === undefined || this.#lags.has(key)) continue;
          this.#lags.set(key, Math.max(0, end - fetched));
          this.#lagsChanged = true;
        }
      })
      .catch((error: unknown) => logger.debug({ err: error }, 'reading the end offsets of idle input partitions failed; asked again later'))
      .finally(() => {
        this.#probing = false;
      });
  }
}
