/**
 * The record a task is processing and what the task does when something about
 * it fails: the handler context, the processing and deserialization handler
 * calls (FAIL → a PropagatingError carrying the StreamsError), dead letters,
 * and the hand-over of sink outputs to the collector.
 */
import type { ConsumedRecord, Headers } from '../../records/types.js';
import type { DeadLetterRecord, ErrorHandlerContext } from '../../handlers/types.js';
import { invokeDeserializationHandler, invokeProcessingHandler } from '../../handlers/invoke.js';
import { failedByHandler, PropagatingError } from '../handler-calls.js';
import { bypassesRecordHandlers } from '../../errors.js';
import type { SinkNodeDef } from '../plan.js';
import type { Record } from '../record.js';
import type { OutputRecord, RecordCollector, TaskHandlers } from '../task-contract.js';
import { deadLetterOutput, sinkOutputs } from './task-output.js';

/** The record being processed (or the punctuation's time). */
export interface CurrentRecord {
  topic: string;
  partition: number;
  offset: number;
  timestamp: number;
  headers: Headers;
  /** The raw input bytes (absent in punctuation), handed to handlers so a dead letter can carry the replayable input. */
  key?: Buffer | null;
  value?: Buffer | null;
}

/** No record: between records. */
export const NO_RECORD: CurrentRecord = { topic: '', partition: -1, offset: -1, timestamp: -1, headers: {} };

/** The per-record state and failure handling of one task. */
export class TaskHandling {
  current: CurrentRecord = NO_RECORD;
  inPunctuation = false;
  /** Set when a handler answered CONTINUE for the current record, or an operator dropped it. */
  skipped = false;

  constructor(
    private readonly label: string,
    private readonly collector: RecordCollector,
    private readonly handlers: TaskHandlers,
    /** Kafka's task-level `dropped-records` sensor (see `TaskOptions.onDroppedRecord`). */
    readonly onDroppedRecord?: () => void,
  ) {}

  /** A deserialization failure of `record` at source `sourceName`: FAIL throws; CONTINUE sends the dead letters. */
  onDeserializationError(sourceName: string, record: ConsumedRecord, error: unknown): void {
    const answer = invokeDeserializationHandler(this.handlers.deserialization, this.handlerContext(sourceName), { ...record }, asError(error));
    if (answer.response === 'FAIL') {
      throw failedByHandler('DESERIALIZATION_FAILED', `Task ${this.label} cannot deserialize ${where(record)} (handler answered FAIL)`, error);
    }
    this.onDroppedRecord?.();
    this.sendDeadLetters(answer.deadLetterRecords, sourceName, 'deserializationExceptionHandler');
  }

  /** A node's throw or rejection: a PropagatingError passes on, anything else goes to the processing handler. */
  onNodeError(nodeName: string, record: Record<unknown, unknown>, error: unknown): undefined {
    if (error instanceof PropagatingError) throw error;
    if (bypassesRecordHandlers(error)) throw new PropagatingError(error); // e.g. a store's schema not fetched yet: the task retries
    this.onProcessingError(nodeName, record, error);
    return undefined;
  }

  /**
   * Hands the outputs of sink `def` for `record` to the collector (a failure
   * to build them is a processing error): one, one per partition of a
   * multicast, or none (a partitioner choosing no partition: counted as
   * dropped).
   */
  sink(def: SinkNodeDef, record: Record<unknown, unknown>): void {
    let outputs;
    try {
      outputs = sinkOutputs(def, record, { ...this.current }, this.collector);
    } catch (error) {
      if (error instanceof PropagatingError) throw error;
      return this.onProcessingError(def.name, record, error);
    }
    if (outputs.length === 0) return this.collector.recordDropped?.(this.handlerContext(def.name));
    try {
      for (const output of outputs) this.collector.send(output, this.handlerContext(def.name));
    } catch (error) {
      throw new PropagatingError(error);
    }
  }

  private onProcessingError(nodeName: string, record: Record<unknown, unknown>, error: unknown): void {
    let answer;
    try {
      answer = invokeProcessingHandler(
        this.handlers.processing,
        this.handlerContext(nodeName),
        { key: record.key, value: record.value, timestamp: record.timestamp, headers: { ...record.headers } },
        asError(error),
      );
    } catch (fatal) {
      throw new PropagatingError(fatal);
    }
    if (answer.response === 'FAIL') {
      const at = this.inPunctuation ? 'in a punctuation' : `on ${where(this.current)}`;
      throw new PropagatingError(
        failedByHandler('PROCESSING_FAILED', `Processor '${nodeName}' failed in task ${this.label} ${at} (handler answered FAIL)`, error),
      );
    }
    this.skipped = true;
    this.onDroppedRecord?.();
    this.sendDeadLetters(answer.deadLetterRecords, nodeName, 'processingExceptionHandler');
  }

  private sendDeadLetters(records: DeadLetterRecord[], nodeName: string, slot: NonNullable<OutputRecord['deadLetterOf']>): void {
    for (const dl of records) {
      try {
        this.collector.send(deadLetterOutput(dl, this.current.timestamp, slot), this.handlerContext(nodeName));
      } catch (error) {
        throw new PropagatingError(error);
      }
    }
  }

  private handlerContext(processorNodeId: string): ErrorHandlerContext {
    const { topic, partition, offset, headers, timestamp, key, value } = this.current;
    const context: ErrorHandlerContext = { topic, partition, offset, headers: { ...headers }, timestamp, processorNodeId, taskId: this.label };
    if (key !== undefined || value !== undefined) {
      context.sourceRawKey = key ?? null;
      context.sourceRawValue = value ?? null;
    }
    return context;
  }
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

function where(r: { topic: string; partition: number; offset: number }): string {
  return `record ${r.topic}-${r.partition}@${r.offset}`;
}
