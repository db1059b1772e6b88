/**
 * The synchronous steps of collecting one output record, shared by the
 * runtime's `TaskRecordCollector` (./record-collector.ts) and the
 * TopologyTestDriver's collector, so that a record handled one way in a test
 * is handled the same way in production:
 *
 * 1. serialize key and value with the sink's serializers, checked (a Buffer
 *    or null; anything else, or a throwing serializer, is a
 *    SerializationError with origin KEY or VALUE);
 * 2. choose the partition: the sink's (its partitioner's), else murmur2 of
 *    the key bytes when the partition count is known, else none (the
 *    producer chooses);
 * 3. decide on a record-level failure: fencing, unknown-outcome and fatal
 *    errors (a SerializationError excepted) fail the task without asking;
 *    otherwise the ProductionExceptionHandler is asked
 *    (`handleSerializationException` for a serialization error): CONTINUE
 *    yields its dead-letter records, FAIL a PRODUCTION_FAILED task failure,
 *    a throwing handler its fatal error;
 * 4. a handler's dead-letter record becomes a record to write, partitioned as
 *    in step 2.
 *
 * What follows is each collector's own: the runtime sends asynchronously and
 * decides in the send callback; the driver validates and appends in memory.
 */
import { SerializationError, StreamsError, errorKindOf } from '../errors.js';
import { invokeProductionHandler } from '../handlers/invoke.js';
import type { DeadLetterRecord, ErrorHandlerContext, FailedOutputRecord, ProductionExceptionHandler } from '../handlers/types.js';
import { failedByHandler } from '../processors/handler-calls.js';
import type { OutputRecord } from '../processors/task-contract.js';
import { partitionFor } from '../records/partitioner.js';
import type { Headers } from '../records/types.js';
import { checkedSerialize } from '../serdes/checked-serde.js';

/** A serialized record ready to write: bytes, the chosen partition (if any), headers and timestamp. */
export interface CollectedRecord {
  topic: string;
  key: Buffer | null;
  value: Buffer | null;
  /** Undefined: no partition chosen (keyless, or the count is unknown); the producer partitions. */
  partition: number | undefined;
  headers: Headers;
  timestamp: number;
}

/** The partition count of a topic when known. */
export type PartitionCount = (topic: string) => number | undefined;

/** Steps 1 and 2 for one output record; `failed` is what the handler sees if the record fails now or later. */
export type PreparedOutput =
  | { ok: true; record: CollectedRecord; failed: FailedOutputRecord }
  | { ok: false; error: SerializationError; failed: FailedOutputRecord };

/** Step 3's answer. */
export type ProductionDecision =
  | { response: 'CONTINUE'; deadLetterRecords: DeadLetterRecord[] }
  /**
   * `error` is what the task fails with: FAIL (PRODUCTION_FAILED, cause = the
   * record's error), a broken handler (fatal), or, with `asked` false, the
   * record's own error when it must never reach the handler.
   */
  | { response: 'FAIL'; error: StreamsError; asked: boolean };

/** Step 2: the explicit partition, else murmur2 of the key bytes when the count is known, else undefined. */
export function choosePartition(topic: string, key: Buffer | null, explicit: number | undefined, partitionCount: PartitionCount): number | undefined {
  if (explicit !== undefined) return explicit;
  if (key === null) return undefined;
  const count = partitionCount(topic);
  return count === undefined ? undefined : partitionFor(key, count);
}

/** Steps 1 and 2: serializes `record` and chooses its partition; a serialization failure is returned, not thrown. */
export function prepareOutput(record: OutputRecord, partitionCount: PartitionCount): PreparedOutput {
  const { topic, headers, timestamp } = record;
  const failed: FailedOutputRecord = { topic, partition: record.partition, key: record.key, value: record.value, headers, timestamp };
  let key: Buffer | null;
  let value: Buffer | null;
  try {
    key = checkedSerialize(record.keySerializer, topic, record.key, headers, 'KEY');
    failed.keyBytes = key;
    value = checkedSerialize(record.valueSerializer, topic, record.value, headers, 'VALUE');
    failed.valueBytes = value;
  } catch (error) {
    return { ok: false, error: error as SerializationError, failed };
  }
  const partition = choosePartition(topic, key, record.partition, partitionCount);
  return { ok: true, record: { topic, key, value, partition, headers, timestamp }, failed };
}

/** Step 3: what to do about `error` of output `record` (see the module comment). Never throws. */
export function decideOnRecordError(
  handler: ProductionExceptionHandler,
  context: ErrorHandlerContext,
  record: FailedOutputRecord,
  error: Error,
): ProductionDecision {
  const kind = errorKindOf(error);
  if (kind === 'fencing' || kind === 'unknown_outcome' || (kind === 'fatal' && !(error instanceof SerializationError))) {
    // never asked: the task migrated, the producer cannot go on, or the record may be in the log
    return { response: 'FAIL', error: error instanceof StreamsError ? error : new StreamsError(String(error.message), { cause: error }), asked: false };
  }
  let answer;
  try {
    answer = invokeProductionHandler(handler, context, record, error, error instanceof SerializationError ? (error.origin ?? 'VALUE') : undefined);
  } catch (thrown) {
    const fatal = thrown instanceof StreamsError && thrown.kind === 'fatal';
    const broken = fatal ? thrown : new StreamsError(`productionExceptionHandler failed: ${String((thrown as Error)?.message ?? thrown)}`, { code: 'HANDLER_THREW', cause: thrown });
    return { response: 'FAIL', error: broken, asked: true };
  }
  if (answer.response === 'CONTINUE') return { response: 'CONTINUE', deadLetterRecords: answer.deadLetterRecords };
  const where =
    `Output record of task ${context.taskId} from sink '${context.processorNodeId}' to topic ${record.topic} failed ` +
    `(input ${context.topic}-${context.partition}@${context.offset}) and productionExceptionHandler answered FAIL`;
  return { response: 'FAIL', error: failedByHandler('PRODUCTION_FAILED', where, error), asked: true };
}

/** Step 4: dead-letter record `dead` as a record to write; `timestamp` is used when it has none. */
export function deadLetterToWrite(dead: DeadLetterRecord, partitionCount: PartitionCount, timestamp: number): CollectedRecord {
  return {
    topic: dead.topic,
    key: dead.key,
    value: dead.value,
    partition: choosePartition(dead.topic, dead.key, undefined, partitionCount),
    headers: dead.headers ?? {},
    timestamp: dead.timestamp ?? timestamp,
  };
}
