/**
 * The task-input keys of {@link KafkaStreamsConfig} (Kafka Streams'
 * `max.task.idle.ms` and `buffered.records.per.partition`, KIP-353/KIP-695):
 * how a task waits for its partitions to have data before it takes the
 * record with the lowest timestamp, and how much it buffers per partition.
 * Every problem is a {@link ConfigError} naming the key.
 */
import { wholeNumberConfig } from './config-number.js';

/** The task-input keys as a user writes them. */
export interface TaskInputConfig {
  /**
   * Kafka's `max.task.idle.ms`: a task whose input partitions (e.g. both sides of a stream–table join)
   * take records in timestamp order waits this long (ms) for an empty partition that is caught up
   * before it processes the others anyway. Default 0: no extra wait, but a task still waits while an
   * empty partition has records on the broker not fetched yet (KIP-695). -1: never wait (process
   * whatever is buffered, at the cost of out-of-order processing across partitions).
   */
  maxTaskIdleMs?: number;
  /**
   * Kafka's `buffered.records.per.partition`: records a task buffers per input partition before the
   * partition's fetching pauses; it resumes once the buffer is back at this bound. Default 1000.
   */
  bufferedRecordsPerPartition?: number;
  /**
   * The bound (ms, default 30 000) of one call of an async step (`KStream.mapValuesAsync`,
   * `asyncProcessor`, ...): a call that has not settled by then fails as a processing error
   * (`ASYNC_CALL_TIMEOUT`, the processing exception handler decides). It also bounds how long a
   * commit (and a clean close) waits for the calls in flight before it fails them the same way.
   * Kafka Streams has no async steps; the migration guide calls it `async.call.timeout.ms`.
   */
  asyncCallTimeoutMs?: number;
}

/** The task-input keys with defaults filled in. */
export interface ResolvedTaskInputConfig {
  maxTaskIdleMs: number;
  bufferedRecordsPerPartition: number;
  asyncCallTimeoutMs: number;
}

/** The keys of {@link TaskInputConfig}. */
export const TASK_INPUT_KEYS: readonly string[] = ['maxTaskIdleMs', 'bufferedRecordsPerPartition', 'asyncCallTimeoutMs'];

/** The default `asyncCallTimeoutMs`. */
export const DEFAULT_ASYNC_CALL_TIMEOUT_MS = 30_000;

/** Kafka's default `buffered.records.per.partition`. */
export const DEFAULT_BUFFERED_RECORDS_PER_PARTITION = 1000;

/** Validates the task-input keys of a config object. */
export function resolveTaskInput(config: Record<string, unknown>): ResolvedTaskInputConfig {
  return {
    maxTaskIdleMs: wholeNumberConfig(config, 'maxTaskIdleMs', 0, -1, 'ms a task waits for an empty, caught-up input partition; 0 waits only for records already on the broker, -1 never waits'),
    bufferedRecordsPerPartition: wholeNumberConfig(config, 'bufferedRecordsPerPartition', DEFAULT_BUFFERED_RECORDS_PER_PARTITION, 1, 'records buffered per input partition before its fetching pauses'),
    asyncCallTimeoutMs: wholeNumberConfig(config, 'asyncCallTimeoutMs', DEFAULT_ASYNC_CALL_TIMEOUT_MS, 1, 'ms one async call may take, and a commit waits for the calls in flight'),
  };
}

