/**
 * The three exception-handler contracts (DESIGN.md §4, §6; API.md "Running it").
 * A handler answers `'CONTINUE'` or `'FAIL'`; a production handler may also
 * answer `{ response, deadLetterRecords }`.
 */
import type { Logger } from '../internal/logger.js';
import type { Headers } from '../records/types.js';

/** Responses of a production exception handler. */
export const ProductionExceptionHandlerResponse = { CONTINUE: 'CONTINUE', FAIL: 'FAIL' } as const;
/** Responses of a deserialization exception handler. */
export const DeserializationHandlerResponse = { CONTINUE: 'CONTINUE', FAIL: 'FAIL' } as const;
/** Responses of a processing exception handler. */
export const ProcessingHandlerResponse = { CONTINUE: 'CONTINUE', FAIL: 'FAIL' } as const;

/** `'CONTINUE'` or `'FAIL'`. */
export type HandlerResponse = 'CONTINUE' | 'FAIL';

/** Where the failing record came from: the input record that led to it. */
export interface ErrorHandlerContext {
  /** Input topic, partition, offset of the record being processed (-1 / '' for punctuation). */
  topic: string;
  partition: number;
  offset: number;
  headers: Headers;
  timestamp: number;
  /** The processor node that was running (for production errors: the sink node). */
  processorNodeId: string;
  /** The task, printed by `formatTaskId` (`<subtopology>_<partition>`, e.g. `0_1`; `parseTaskId` reads it back). */
  taskId: string;
  /**
   * The raw (still serialized) key of the input record, when the executor
   * supplies it. Dead-letter handlers use it for processing and output
   * serialization errors (where no bytes of the failing record exist).
   */
  sourceRawKey?: Buffer | null;
  /** The raw (still serialized) value of the input record, when the executor supplies it. */
  sourceRawValue?: Buffer | null;
}

/** A record written to a dead-letter topic inside the same transaction. */
export interface DeadLetterRecord {
  /** The dead-letter topic (must exist; should not be compacted, as keys may be null). */
  topic: string;
  /** Key bytes, `null` for none. */
  key: Buffer | null;
  /** Value bytes, `null` for none. */
  value: Buffer | null;
  /** Headers; the built-in dead-letter handlers add `sluice.*` headers describing the failure. */
  headers?: Headers;
  /** CreateTime; when absent the executor picks one (the built-ins always set the failing record's own). */
  timestamp?: number;
}

/** A handler answer with dead-letter records to write in the same transaction. */
export interface HandlerResult {
  /** `'CONTINUE'` or `'FAIL'`. */
  response: HandlerResponse;
  /** Records to write in the task's transaction (under exactly-once they abort with it on `'FAIL'`). */
  deadLetterRecords?: DeadLetterRecord[];
}

/** What a handler may return. */
export type HandlerAnswer = HandlerResponse | HandlerResult;

/** The output record that could not be produced, as the sink produced it. */
export interface FailedOutputRecord {
  topic: string;
  partition?: number;
  key: unknown;
  value: unknown;
  /** The serialized bytes, when serialization succeeded. */
  keyBytes?: Buffer | null;
  valueBytes?: Buffer | null;
  headers: Headers;
  timestamp: number;
}

/**
 * Optional hooks of every handler, read by `KafkaStreams` (the built-in
 * handlers implement both).
 */
export interface HandlerHooks {
  /**
   * The topics the handler writes dead-letter records to. `start()` checks that
   * they exist (a missing one would otherwise stall the task for the producer's
   * delivery timeout).
   */
  deadLetterTopics?(): readonly string[];
  /**
   * Called by the `KafkaStreams` constructor with the app's `logger` (when the
   * config has one), so a handler that was given no logger of its own logs
   * through the app's.
   */
  useAppLogger?(logger: Logger): void;
}

/** Decides what happens to an output record that could not be produced. */
export interface ProductionExceptionHandler extends HandlerHooks {
  handle(context: ErrorHandlerContext, record: FailedOutputRecord, error: Error): HandlerAnswer;
  /** Serialization failures; defaults to `handle` when absent. */
  handleSerializationException?(
    context: ErrorHandlerContext,
    record: FailedOutputRecord,
    error: Error,
    origin: 'KEY' | 'VALUE',
  ): HandlerAnswer;
}

/** The raw input record that could not be deserialized. */
export interface RawInputRecord {
  topic: string;
  partition: number;
  offset: number;
  key: Buffer | null;
  value: Buffer | null;
  headers: Headers;
  timestamp: number;
}

/** Decides what happens to an input record that cannot be deserialized. CONTINUE skips it. */
export interface DeserializationExceptionHandler extends HandlerHooks {
  handle(context: ErrorHandlerContext, record: RawInputRecord, error: Error): HandlerAnswer;
}

/** The (deserialized) record a processor threw on. */
export interface ProcessingFailedRecord {
  key: unknown;
  value: unknown;
  timestamp: number;
  headers: Headers;
}

/** Decides what happens when a processor throws on a record. CONTINUE skips the record. */
export interface ProcessingExceptionHandler extends HandlerHooks {
  handle(context: ErrorHandlerContext, record: ProcessingFailedRecord, error: Error): HandlerAnswer;
}
