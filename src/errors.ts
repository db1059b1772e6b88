/**
 * The one error hierarchy of sluice, with its one classification table (src/error-table.ts).
 *
 * Every error sluice raises is a {@link StreamsError}: it carries a stable
 * `code`, its classification (`kind`) and the underlying `cause`. Which kind a
 * Kafka error code or a client failure has, whether a failed write may still
 * be in the log, and what the runtime does with a task that failed with it are
 * decided in the tables `KAFKA_ERRORS` and `CLIENT_ERRORS` of
 * `src/error-table.ts` (re-exported here) and nowhere else: both cluster
 * adapters, the producer, the runtime and the test driver read them.
 */
import { CLIENT_ERRORS, KAFKA_ERRORS, UNLISTED_KAFKA_ERROR, classifyKafkaErrorCode, kafkaErrorName, type ErrorClass, type ErrorKind, type TaskReaction } from './error-table.js';

export { CLIENT_ERRORS, KAFKA_ERRORS, KafkaErrorCode, classifyKafkaErrorCode, kafkaErrorName } from './error-table.js';
export type { ErrorClass, ErrorKind, TaskReaction } from './error-table.js';

/** Options accepted by every {@link StreamsError} constructor. */
export interface StreamsErrorOptions {
  /** The underlying error. */
  cause?: unknown;
  /** Overrides the default code of the class. */
  code?: string;
  /** Overrides the default kind of the class. */
  kind?: ErrorKind;
}

/** Base class of every error sluice raises. */
export class StreamsError extends Error {
  /** Stable machine-readable code, e.g. `RECORD_TOO_LARGE`. */
  readonly code: string;
  /** Classification: what sluice does with this error. */
  readonly kind: ErrorKind;

  constructor(message: string, options: StreamsErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = options.code ?? 'STREAMS_ERROR';
    this.kind = options.kind ?? CLIENT_ERRORS[this.code]?.kind ?? 'fatal';
  }

  /** True when retrying the same operation may succeed. */
  get retriable(): boolean {
    return this.kind === 'retriable';
  }
  /** True when the error concerns one record only (handler decides). */
  get recordLevel(): boolean {
    return this.kind === 'record';
  }
  /** True when the producer or task was fenced by a newer owner. */
  get fencing(): boolean {
    return this.kind === 'fencing';
  }
  /** True when the application cannot go on. */
  get fatal(): boolean {
    return this.kind === 'fatal';
  }
}

/** A method was called in a state that does not allow it. The message names the state(s) that do. */
export class IllegalStateError extends StreamsError {
  constructor(message: string, options: StreamsErrorOptions = {}) {
    super(message, { code: 'ILLEGAL_STATE', ...options });
  }
}

/** A configuration value is missing or wrong. The message names the key and what to change. */
export class ConfigError extends StreamsError {
  constructor(message: string, options: StreamsErrorOptions = {}) {
    super(message, { code: 'INVALID_CONFIG', ...options });
  }
}

/**
 * An argument of a call is wrong (e.g. a negative or fractional offset, an
 * unknown topic or an empty group id given to `sendOffsetsToTransaction`).
 * Thrown before any I/O; nothing was changed. The message names the argument,
 * its value and what to change.
 */
export class IllegalArgumentError extends StreamsError {
  constructor(message: string, options: StreamsErrorOptions = {}) {
    super(message, { code: 'ILLEGAL_ARGUMENT', kind: 'usage', ...options });
  }
}

/** A topology cannot be built. The message names the node and the fix. */
export class TopologyError extends StreamsError {
  constructor(message: string, options: StreamsErrorOptions = {}) {
    super(message, { code: 'INVALID_TOPOLOGY', ...options });
  }
}

/** A key or value could not be serialized or deserialized. */
export class SerializationError extends StreamsError {
  /** Which part of the record failed. */
  readonly origin: 'KEY' | 'VALUE' | undefined;
  /** The topic being written or read. */
  readonly topic: string | undefined;
  constructor(
    message: string,
    options: StreamsErrorOptions & { origin?: 'KEY' | 'VALUE'; topic?: string } = {},
  ) {
    super(message, { code: 'SERIALIZATION', ...options });
    this.origin = options.origin;
    this.topic = options.topic;
  }
}

/**
 * A Schema Registry serde failed (`SchemaRegistrySerdes`): the code says why
 * and its row in the classification table what happens. Record-level
 * (`SCHEMA_NOT_FOUND`, `SCHEMA_INCOMPATIBLE`, `SCHEMA_INVALID`, or
 * `SERIALIZATION` for a payload that does not match its schema): the
 * deserialization or production handler decides, and a dead letter carries
 * the schema id. Retriable (`SCHEMA_REGISTRY_UNAVAILABLE`,
 * `SCHEMA_NOT_RESOLVED`): never handed to a handler; the task waits and
 * retries the batch, nothing is lost.
 */
export class SchemaRegistryError extends SerializationError {
  /** The schema id of the record (when known). */
  readonly schemaId: number | undefined;
  /** The subject concerned (when known). */
  readonly subject: string | undefined;
  /** The registry's error code (`40403` schema not found, `409` incompatible, ...), when it answered one. */
  readonly registryErrorCode: number | undefined;
  constructor(
    message: string,
    options: StreamsErrorOptions & { schemaId?: number; subject?: string; registryErrorCode?: number; origin?: 'KEY' | 'VALUE'; topic?: string } = {},
  ) {
    super(message, { code: 'SERIALIZATION', ...options });
    this.schemaId = options.schemaId;
    this.subject = options.subject;
    this.registryErrorCode = options.registryErrorCode;
  }
}

/**
 * True for an error that no handler may drop: a Schema Registry failure that
 * is not about the record (the registry is down or a schema not fetched yet:
 * retriable, the task retries from its last commit after
 * `taskRestartBackoffMs`, nothing is lost; the registry refused the
 * credentials: fatal, the uncaught-exception policy decides).
 */
export function bypassesRecordHandlers(error: unknown): boolean {
  return error instanceof SchemaRegistryError && error.kind !== 'record';
}

/** A record is larger than the topic's `max.message.bytes` or the producer's max request size. */
export class RecordTooLargeError extends StreamsError {
  constructor(message: string, options: StreamsErrorOptions = {}) {
    super(message, { code: 'RECORD_TOO_LARGE', ...options });
  }
}

/** The broker (or sluice's pre-send validation) rejected this record, e.g. a null key on a compacted topic. */
export class InvalidRecordError extends StreamsError {
  constructor(message: string, options: StreamsErrorOptions = {}) {
    super(message, { code: 'INVALID_RECORD', ...options });
  }
}

/** The record's timestamp is outside the topic's allowed range. */
export class InvalidTimestampError extends StreamsError {
  constructor(message: string, options: StreamsErrorOptions = {}) {
    super(message, { code: 'INVALID_TIMESTAMP', ...options });
  }
}

/** The record could not be delivered before the delivery timeout (retriable errors kept recurring). */
export class DeliveryTimeoutError extends StreamsError {
  constructor(message: string, options: StreamsErrorOptions = {}) {
    super(message, { code: 'DELIVERY_TIMEOUT', ...options });
  }
}

/**
 * A record's topic does not exist: the cluster answered
 * UNKNOWN_TOPIC_OR_PARTITION for the whole metadata wait (`maxBlockMs`).
 * Record-level (nothing was written): the production exception handler
 * decides. A {@link DeliveryTimeoutError} (the record was not delivered in
 * time) with its own code; the message names the topic and says to create it
 * or fix the name.
 */
export class UnknownTopicError extends DeliveryTimeoutError {
  /** The topic the record was sent to. */
  readonly topic: string;
  constructor(message: string, options: StreamsErrorOptions & { topic?: string } = {}) {
    super(message, { code: 'UNKNOWN_TOPIC_OR_PARTITION', kind: 'record', ...options });
    this.topic = options.topic ?? '';
  }
}

/** A newer producer with the same transactional id exists (or the epoch/sequence state was lost): the task migrated. */
export class ProducerFencedError extends StreamsError {
  constructor(message: string, options: StreamsErrorOptions = {}) {
    super(message, { code: 'PRODUCER_FENCED', ...options });
  }
}

/** A record sent with `TxnSendOption.NONE` failed: the transaction can only be aborted. */
export class TransactionAbortableError extends StreamsError {
  constructor(message: string, options: StreamsErrorOptions = {}) {
    super(message, { code: 'TRANSACTION_ABORTABLE', ...options });
  }
}

/** One culprit of a rejected batch, as named by the broker (Produce v8 `record_errors`). */
export interface RecordErrorEntry {
  /** Index of the record inside the batch that was sent. */
  batchIndex: number;
  /** The broker's message for this record, if any. */
  message: string | null;
}

/**
 * An error answer of a Kafka broker (or of the embedded cluster) to a request.
 * `kafkaCode` is the numeric Kafka error code; `kind` is derived from it by
 * {@link classifyKafkaErrorCode}.
 */
export class KafkaProtocolError extends StreamsError {
  /** Numeric Kafka error code, e.g. 87 for INVALID_RECORD. */
  readonly kafkaCode: number;
  /** Per-record errors of a rejected batch (Produce v8+), empty when the broker named none. */
  readonly recordErrors: RecordErrorEntry[];
  /** The broker's partition-level error message, if any. */
  readonly errorMessage: string | null;
  constructor(
    kafkaCode: number,
    message?: string,
    options: StreamsErrorOptions & { recordErrors?: RecordErrorEntry[]; errorMessage?: string | null } = {},
  ) {
    const name = kafkaErrorName(kafkaCode);
    super(message ?? `${name} (${kafkaCode})${options.errorMessage ? `: ${options.errorMessage}` : ''}`, {
      code: name,
      kind: classifyKafkaErrorCode(kafkaCode),
      ...options,
    });
    this.kafkaCode = kafkaCode;
    this.recordErrors = options.recordErrors ?? [];
    this.errorMessage = options.errorMessage ?? null;
  }
}


/** The classification of any thrown value: sluice errors keep theirs, anything else is fatal. */
export function errorKindOf(error: unknown): ErrorKind {
  return error instanceof StreamsError ? error.kind : 'fatal';
}

/** The table row of an error: by Kafka code for broker answers, else by sluice code. */
export function errorClassOf(error: unknown): ErrorClass | undefined {
  if (error instanceof KafkaProtocolError) return KAFKA_ERRORS[error.kafkaCode] ?? UNLISTED_KAFKA_ERROR;
  return error instanceof StreamsError ? CLIENT_ERRORS[error.code] : undefined;
}

/**
 * True when a failed write may nevertheless be in the log: a broker answer
 * marked `outcomeUnknown`, or a failure that is no broker answer at all.
 */
export function isOutcomeUnknown(error: unknown): boolean {
  if (error instanceof KafkaProtocolError) return KAFKA_ERRORS[error.kafkaCode]?.outcomeUnknown === true;
  return errorKindOf(error) === 'unknown_outcome' || !(error instanceof StreamsError);
}

/** True for an error after which a producer is unusable (fenced, or epoch/sequence state lost). */
export function isProducerFenced(error: unknown): boolean {
  return error instanceof ProducerFencedError || errorClassOf(error)?.producerFenced === true;
}

/** What the runtime does with a task that failed with `error` (see {@link TaskReaction}). */
export function taskReactionTo(error: unknown): TaskReaction {
  const row = errorClassOf(error);
  const kind = errorKindOf(error);
  if (row?.reaction && row.kind === kind) return row.reaction;
  return kind === 'retriable' || kind === 'fencing' || kind === 'unknown_outcome' ? 'reacquire' : 'policy';
}
