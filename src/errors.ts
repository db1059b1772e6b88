/**
 * The one error hierarchy of sluice and its one classification table.
 *
 * Every error sluice raises is a {@link StreamsError}: it carries a stable
 * `code`, its classification (`kind`) and the underlying `cause`. Which kind a
 * Kafka error code or a client failure has, whether a failed write may still
 * be in the log, and what the runtime does with a task that failed with it are
 * decided in {@link KAFKA_ERRORS} and {@link CLIENT_ERRORS} below and nowhere
 * else: both cluster adapters, the producer, the runtime and the test driver
 * read them.
 */

/** How an error is handled (the `kind` column of the tables below). */
export type ErrorKind =
  /** Transient: retried with back-off until the delivery timeout. */
  | 'retriable'
  /** Concerns one record only: the production exception handler decides (CONTINUE or FAIL). */
  | 'record'
  /** The task migrated or the producer was fenced: close the task dirty, never ask a handler. */
  | 'fencing'
  /** Nothing sensible to retry: the task stops; see {@link TaskReaction} for whether the app does. */
  | 'fatal'
  /**
   * A write was given up while the broker may have appended it (REQUEST_TIMED_OUT,
   * NOT_ENOUGH_REPLICAS_AFTER_APPEND, a network error after the request left):
   * never dropped as a record-level failure, even under IGNORE_SEND_ERRORS; the
   * transaction can only be aborted and the task retries.
   */
  | 'unknown_outcome'
  /** A usage error (wrong state, bad config): thrown to the caller, not classified further. */
  | 'usage';

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

/** Kafka error codes sluice names (from Kafka's `Errors.java`). */
export const KafkaErrorCode = {
  NONE: 0,
  OFFSET_OUT_OF_RANGE: 1,
  CORRUPT_MESSAGE: 2,
  UNKNOWN_TOPIC_OR_PARTITION: 3,
  INVALID_FETCH_SIZE: 4,
  LEADER_NOT_AVAILABLE: 5,
  NOT_LEADER_OR_FOLLOWER: 6,
  REQUEST_TIMED_OUT: 7,
  MESSAGE_TOO_LARGE: 10,
  NETWORK_EXCEPTION: 13,
  COORDINATOR_LOAD_IN_PROGRESS: 14,
  COORDINATOR_NOT_AVAILABLE: 15,
  NOT_COORDINATOR: 16,
  INVALID_TOPIC_EXCEPTION: 17,
  RECORD_LIST_TOO_LARGE: 18,
  NOT_ENOUGH_REPLICAS: 19,
  NOT_ENOUGH_REPLICAS_AFTER_APPEND: 20,
  INVALID_REQUIRED_ACKS: 21,
  ILLEGAL_GENERATION: 22,
  UNKNOWN_MEMBER_ID: 25,
  REBALANCE_IN_PROGRESS: 27,
  TOPIC_AUTHORIZATION_FAILED: 29,
  GROUP_AUTHORIZATION_FAILED: 30,
  CLUSTER_AUTHORIZATION_FAILED: 31,
  INVALID_TIMESTAMP: 32,
  UNSUPPORTED_VERSION: 35,
  TOPIC_ALREADY_EXISTS: 36,
  INVALID_CONFIG: 40,
  OUT_OF_ORDER_SEQUENCE_NUMBER: 45,
  DUPLICATE_SEQUENCE_NUMBER: 46,
  INVALID_PRODUCER_EPOCH: 47,
  INVALID_TXN_STATE: 48,
  INVALID_PRODUCER_ID_MAPPING: 49,
  INVALID_TRANSACTION_TIMEOUT: 50,
  CONCURRENT_TRANSACTIONS: 51,
  TRANSACTION_COORDINATOR_FENCED: 52,
  TRANSACTIONAL_ID_AUTHORIZATION_FAILED: 53,
  UNSUPPORTED_FOR_MESSAGE_FORMAT: 43,
  UNKNOWN_PRODUCER_ID: 59,
  KAFKA_STORAGE_ERROR: 56,
  FENCED_LEADER_EPOCH: 74,
  UNKNOWN_LEADER_EPOCH: 75,
  GROUP_MAX_SIZE_REACHED: 81,
  FENCED_INSTANCE_ID: 82,
  INVALID_RECORD: 87,
  PRODUCER_FENCED: 90,
  TRANSACTION_ABORTABLE: 120,
} as const;

const NAMES: Record<number, string> = Object.fromEntries(
  Object.entries(KafkaErrorCode).map(([name, code]) => [code, name]),
);

/** The Kafka name of a numeric error code (`UNKNOWN_ERROR_<n>` when sluice does not know it). */
export function kafkaErrorName(code: number): string {
  return NAMES[code] ?? `UNKNOWN_ERROR_${code}`;
}

/**
 * What the runtime does with a task that failed with an error:
 * - `reacquire`: close it dirty (abort) and re-create it if still assigned, whatever the policy;
 * - `policy`: close it dirty; `uncaughtExceptionPolicy` decides (SHUTDOWN_CLIENT stops the app, RESTART_TASK re-creates the task);
 * - `stop`: close it dirty and stop the app in ERROR, whatever the policy.
 */
export type TaskReaction = 'reacquire' | 'policy' | 'stop';

/** One row of the classification table. */
export interface ErrorClass {
  kind: ErrorKind;
  /** Overrides the kind's default {@link TaskReaction}. */
  reaction?: TaskReaction;
  /** A failed write (produce) with this answer may still have been appended by the broker. */
  outcomeUnknown?: true;
  /** After this answer the producer is unusable (fenced, or its epoch/sequence state is lost): recreate it. */
  producerFenced?: true;
}

const retriable: ErrorClass = { kind: 'retriable' };
const mayBeWritten: ErrorClass = { kind: 'retriable', outcomeUnknown: true };
const record: ErrorClass = { kind: 'record' };
const producerFenced: ErrorClass = { kind: 'fencing', producerFenced: true };
const groupFenced: ErrorClass = { kind: 'fencing' };
const stop: ErrorClass = { kind: 'fatal', reaction: 'stop' };
const C = KafkaErrorCode;

/**
 * Kafka error codes → class (`DESIGN.md` §4). A code missing here is fatal and
 * stops the app (authorization, UNSUPPORTED_VERSION, ...).
 *
 * Retriable codes are retried with back-off until the delivery timeout; the
 * three `outcomeUnknown` ones (REQUEST_TIMED_OUT, NETWORK_EXCEPTION,
 * NOT_ENOUGH_REPLICAS_AFTER_APPEND) are safe to retry with the same batch (the
 * broker de-duplicates by sequence) but giving up on them is `unknown_outcome`,
 * never a record-level failure.
 */
export const KAFKA_ERRORS: Readonly<Record<number, ErrorClass>> = {
  [C.CORRUPT_MESSAGE]: retriable,
  [C.UNKNOWN_TOPIC_OR_PARTITION]: retriable,
  [C.LEADER_NOT_AVAILABLE]: retriable,
  [C.NOT_LEADER_OR_FOLLOWER]: retriable,
  [C.REQUEST_TIMED_OUT]: mayBeWritten,
  [C.NETWORK_EXCEPTION]: mayBeWritten,
  [C.COORDINATOR_LOAD_IN_PROGRESS]: retriable,
  [C.COORDINATOR_NOT_AVAILABLE]: retriable,
  [C.NOT_COORDINATOR]: retriable,
  [C.NOT_ENOUGH_REPLICAS]: retriable,
  [C.NOT_ENOUGH_REPLICAS_AFTER_APPEND]: mayBeWritten,
  [C.CONCURRENT_TRANSACTIONS]: retriable,
  [C.KAFKA_STORAGE_ERROR]: retriable,
  [C.FENCED_LEADER_EPOCH]: retriable,
  [C.UNKNOWN_LEADER_EPOCH]: retriable,
  [C.REBALANCE_IN_PROGRESS]: retriable,
  [C.MESSAGE_TOO_LARGE]: record,
  [C.RECORD_LIST_TOO_LARGE]: record,
  [C.INVALID_RECORD]: record,
  [C.INVALID_TIMESTAMP]: record,
  [C.PRODUCER_FENCED]: producerFenced,
  [C.INVALID_PRODUCER_EPOCH]: producerFenced,
  [C.OUT_OF_ORDER_SEQUENCE_NUMBER]: producerFenced,
  [C.UNKNOWN_PRODUCER_ID]: producerFenced,
  [C.INVALID_TXN_STATE]: producerFenced,
  [C.INVALID_PRODUCER_ID_MAPPING]: producerFenced,
  [C.TRANSACTION_COORDINATOR_FENCED]: producerFenced,
  [C.FENCED_INSTANCE_ID]: groupFenced,
  [C.ILLEGAL_GENERATION]: groupFenced,
  [C.UNKNOWN_MEMBER_ID]: groupFenced,
};

/**
 * sluice's own codes (client-side failures) → class. The error classes take
 * their default kind from here.
 */
export const CLIENT_ERRORS: Readonly<Record<string, ErrorClass>> = {
  /** Pre-send checks and the serializers: one record. */
  SERIALIZATION: record,
  RECORD_TOO_LARGE: record,
  INVALID_RECORD: record,
  INVALID_TIMESTAMP: record,
  /** Retries ended and every attempt was answered "not written" (or none was sent). */
  DELIVERY_TIMEOUT: record,
  /** Retries ended after an attempt whose outcome is unknown (see `outcomeUnknown`). */
  DELIVERY_OUTCOME_UNKNOWN: { kind: 'unknown_outcome' },
  /** A NONE send failed or `markAbortable`: the transaction can only abort. */
  TRANSACTION_ABORTABLE: record,
  PRODUCER_FENCED: producerFenced,
  /** A send to a collector whose task is closing (it migrated). */
  TASK_CLOSED: groupFenced,
  /**
   * A handler answered FAIL. PRODUCTION_FAILED keeps the kind of the send
   * error (`record`); the other two are `fatal` (processing cannot go on) but,
   * as in Kafka Streams, the uncaught-exception policy decides.
   */
  PRODUCTION_FAILED: { kind: 'record', reaction: 'policy' },
  DESERIALIZATION_FAILED: { kind: 'fatal', reaction: 'policy' },
  PROCESSING_FAILED: { kind: 'fatal', reaction: 'policy' },
  /** A dead-letter record of a handler could not be written (nothing may be lost silently). */
  DEAD_LETTER_FAILED: { kind: 'record', reaction: 'policy' },
  /** A broken handler stops the app whatever the policy. */
  HANDLER_THREW: stop,
  INVALID_HANDLER_ANSWER: stop,
  /** Anything else a client library threw: the policy decides. */
  KAFKA_CLIENT_ERROR: { kind: 'fatal', reaction: 'policy' },
  ILLEGAL_STATE: { kind: 'usage' },
  INVALID_CONFIG: { kind: 'usage' },
  INVALID_TOPOLOGY: { kind: 'usage' },
};

/** The kind of a Kafka error code (a code sluice does not list is fatal). */
export function classifyKafkaErrorCode(code: number): ErrorKind {
  return KAFKA_ERRORS[code]?.kind ?? 'fatal';
}

/** The classification of any thrown value: sluice errors keep theirs, anything else is fatal. */
export function errorKindOf(error: unknown): ErrorKind {
  return error instanceof StreamsError ? error.kind : 'fatal';
}

/** The table row of an error: by Kafka code for broker answers, else by sluice code. */
export function errorClassOf(error: unknown): ErrorClass | undefined {
  if (error instanceof KafkaProtocolError) return KAFKA_ERRORS[error.kafkaCode] ?? stop;
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
