/**
 * The record collector of the TopologyTestDriver: serializes like the
 * runtime's collector (serialization failures go to the production handler),
 * then appends to in-memory topics (partition 0 unless the sink chose one).
 */
import type { Headers } from '../../records/types.js';
import { SerializationError, StreamsError } from '../../errors.js';
import type { ErrorHandlerContext, ProductionExceptionHandler } from '../../handlers/types.js';
import { invokeProductionHandler } from '../../handlers/invoke.js';
import { failedByHandler } from '../../processors/handler-calls.js';
import type { OutputRecord, RecordCollector } from '../../processors/task-contract.js';
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

/** Serializes and captures every output of the driver's tasks. */
export class DriverCollector implements RecordCollector {
  constructor(
    private readonly production: ProductionExceptionHandler,
    private readonly append: (record: CapturedRecord, sink: string) => void,
  ) {}

  partitionsFor(): number {
    return 1;
  }

  send(record: OutputRecord, context: ErrorHandlerContext): void {
    let key: Buffer | null;
    let value: Buffer | null;
    try {
      key = checkedSerialize(record.keySerializer, record.topic, record.key, record.headers, 'KEY');
      value = checkedSerialize(record.valueSerializer, record.topic, record.value, record.headers, 'VALUE');
    } catch (error) {
      const failed = { topic: record.topic, key: record.key, value: record.value, headers: record.headers, timestamp: record.timestamp };
      const origin = error instanceof SerializationError && error.origin ? error.origin : 'VALUE';
      const answer = invokeProductionHandler(this.production, context, failed, error as Error, origin);
      if (answer.response === 'FAIL') {
        throw failedByHandler('PRODUCTION_FAILED', `Cannot produce to '${record.topic}' from sink '${context.processorNodeId}' (handler answered FAIL)`, error);
      }
      for (const dl of answer.deadLetterRecords) {
        this.append({ topic: dl.topic, partition: 0, key: dl.key, value: dl.value, headers: dl.headers ?? {}, timestamp: dl.timestamp ?? record.timestamp }, context.processorNodeId);
      }
      return;
    }
    if (record.partition !== undefined && (!Number.isInteger(record.partition) || record.partition < 0)) {
      throw new StreamsError(`Sink '${context.processorNodeId}': partitioner returned invalid partition ${record.partition}`, { kind: 'fatal' });
    }
    this.append({ topic: record.topic, partition: record.partition ?? 0, key, value, headers: { ...record.headers }, timestamp: record.timestamp }, context.processorNodeId);
  }
}
