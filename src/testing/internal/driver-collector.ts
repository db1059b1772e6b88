/**
 * The record collector of the TopologyTestDriver, as strict as the runtime's;
 * steps 1, 2 and the handler decision of 4 are the synchronous part it
 * shares with the runtime's collector (src/eos/record-collection.ts):
 *
 * 1. serialize key and value (checked: a Buffer or null, else a
 *    SerializationError naming serde and topic);
 * 2. choose the partition (the sink's, else murmur2 of the key bytes over the
 *    driver's one partition per topic: always 0);
 * 3. validate what a broker would refuse, with the checks the produce path
 *    shares (src/records/record-checks.ts): the partition against the
 *    driver's one partition per topic, the timestamp, the header values;
 * 4. a failure of 1 or 3 goes to the production handler (CONTINUE drops the
 *    record and writes its dead letters, FAIL fails the pipe call), exactly as
 *    a record-level send error does in the runtime;
 * 5. append to the in-memory topic.
 */
import type { Headers } from '../../records/types.js';
import { type CollectedRecord, deadLetterToWrite, decideOnRecordError, prepareOutput } from '../../eos/record-collection.js';
import type { ErrorHandlerContext, FailedOutputRecord, ProductionExceptionHandler } from '../../handlers/types.js';
import type { OutputRecord, RecordCollector } from '../../processors/task-contract.js';
import { headersError, partitionError, timestampError } from '../../records/record-checks.js';

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

const driverPartitions = (): number => DRIVER_PARTITIONS;

/** Serializes, validates and captures every output of the driver's tasks. */
export class DriverCollector implements RecordCollector {
  constructor(
    private readonly production: ProductionExceptionHandler,
    private readonly append: (record: CapturedRecord, sink: string) => void,
    /** Kafka's task-level `dropped-records` sensor: a record the production handler answered CONTINUE for. */
    private readonly onDropped: (taskId: string) => void = () => undefined,
  ) {}

  partitionsFor(): number {
    return DRIVER_PARTITIONS;
  }

  /** One output a sink dropped on purpose: counted in its task's `droppedRecords`. */
  recordDropped(context: ErrorHandlerContext): void {
    this.onDropped(context.taskId);
  }

  send(record: OutputRecord, context: ErrorHandlerContext): void {
    // 1. serialize; 2. partition
    const prepared = prepareOutput(record, driverPartitions);
    if (!prepared.ok) return this.onRecordError(prepared.failed, context, prepared.error, record.timestamp);
    const { record: collected, failed } = prepared;
    // 3. validate
    const invalid =
      partitionError(record.partition, record.topic, DRIVER_PARTITIONS) ??
      timestampError(record.timestamp, record.topic) ??
      headersError(record.headers, record.topic);
    if (invalid !== null) return this.onRecordError({ ...failed, partition: collected.partition ?? failed.partition }, context, invalid, record.timestamp);
    // 5. append
    this.append(captured({ ...collected, headers: { ...collected.headers } }), context.processorNodeId);
  }

  /** Step 4. */
  private onRecordError(failed: FailedOutputRecord, context: ErrorHandlerContext, error: Error, timestamp: number): void {
    const decision = decideOnRecordError(this.production, context, failed, error);
    if (decision.response === 'FAIL') throw decision.error;
    this.onDropped(context.taskId);
    for (const dead of decision.deadLetterRecords) this.append(captured(deadLetterToWrite(dead, driverPartitions, timestamp)), context.processorNodeId);
  }
}

/** A collected record in the driver's one partition. */
function captured(record: CollectedRecord): CapturedRecord {
  return { ...record, partition: record.partition ?? 0 };
}
