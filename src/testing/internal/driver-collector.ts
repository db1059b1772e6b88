/**
 * The record collector of the TopologyTestDriver, as strict as the runtime's:
 *
 * 1. serialize key and value (checked: a Buffer or null, else a
 *    SerializationError naming serde and topic);
 * 2. validate what a broker would refuse, with the checks the produce path
 *    shares (src/records/record-checks.ts): the partition against the
 *    driver's one partition per topic, the timestamp, the header values;
 * 3. a failure of 1 or 2 goes to the production handler (CONTINUE drops the
 *    record and writes its dead letters, FAIL fails the pipe call), exactly as
 *    a record-level send error does in the runtime;
 * 4. append to the in-memory topic.
 */
import type { Headers } from '../../records/types.js';
import { SerializationError } from '../../errors.js';
import type { ErrorHandlerContext, ProductionExceptionHandler } from '../../handlers/types.js';
import { invokeProductionHandler } from '../../handlers/invoke.js';
import { failedByHandler } from '../../processors/handler-calls.js';
import type { OutputRecord, RecordCollector } from '../../processors/task-contract.js';
import { headersError, partitionError, timestampError } from '../../records/record-checks.js';
import { checkedSerialize } from '../../serdes/checked-serde.js';

/** A record written to an in-memory topic. */
export interface CapturedRecord {
  topic: string;
  partition: number;
  key: Buffer | null;
  value: Buffer | null;
  headers: Headers;
  timestamp: number;
}

/** Every in-memory topic of the driver has one partition. */
export const DRIVER_PARTITIONS = 1;

/** Serializes, validates and captures every output of the driver's tasks. */
export class DriverCollector implements RecordCollector {
  constructor(
    private readonly production: ProductionExceptionHandler,
    private readonly append: (record: CapturedRecord, sink: string) => void,
  ) {}

  partitionsFor(): number {
    return DRIVER_PARTITIONS;
  }

  send(record: OutputRecord, context: ErrorHandlerContext): void {
    let key: Buffer | null;
    let value: Buffer | null;
    try {
      // 1. serialize
      key = checkedSerialize(record.keySerializer, record.topic, record.key, record.headers, 'KEY');
      value = checkedSerialize(record.valueSerializer, record.topic, record.value, record.headers, 'VALUE');
    } catch (error) {
      return this.onRecordError(record, context, error as Error);
    }
    // 2. validate
    const invalid =
      partitionError(record.partition, record.topic, DRIVER_PARTITIONS) ??
      timestampError(record.timestamp, record.topic) ??
      headersError(record.headers, record.topic);
    if (invalid !== null) return this.onRecordError(record, context, invalid);
    // 4. append
    const captured = { topic: record.topic, partition: record.partition ?? 0, key, value, headers: { ...record.headers }, timestamp: record.timestamp };
    this.append(captured, context.processorNodeId);
  }

  /** Step 3. */
  private onRecordError(record: OutputRecord, context: ErrorHandlerContext, error: Error): void {
    const failed = { topic: record.topic, key: record.key, value: record.value, headers: record.headers, timestamp: record.timestamp };
    const origin = error instanceof SerializationError ? (error.origin ?? 'VALUE') : undefined;
    const answer = invokeProductionHandler(this.production, context, failed, error, origin);
    if (answer.response === 'FAIL') {
      throw failedByHandler('PRODUCTION_FAILED', `Cannot produce to '${record.topic}' from sink '${context.processorNodeId}' (handler answered FAIL)`, error);
    }
    for (const dl of answer.deadLetterRecords) {
      const timestamp = dl.timestamp ?? record.timestamp;
      const dead = { topic: dl.topic, partition: 0, key: dl.key, value: dl.value, headers: dl.headers ?? {}, timestamp };
      this.append(dead, context.processorNodeId);
    }
  }
}
