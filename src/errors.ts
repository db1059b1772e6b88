/**
 * The one error hierarchy of sluice.
 *
 * Every error sluice raises is a {@link StreamsError}: it carries a stable
 * `code`, its classification (`kind`: retriable, record-level, fencing or
 * fatal, see `DESIGN.md` §4) and the underlying `cause`. Classification of
 * Kafka protocol error codes lives here and nowhere else
 * ({@link classifyKafkaErrorCode}).
 */

/** How an error is handled: see the table in `DESIGN.md` §4. */
export type ErrorKind =
  /** Transient: retried with back-off until the delivery timeout. */
  | 'retriable'
  /** Concerns one record only: the production exception handler decides (CONTINUE or FAIL). */
  | 'record'
  /** The task migrated or the producer was fenced: close the task dirty, never ask a handler. */
  | 'fencing'
  /** Nothing sensible to retry: the application goes to ERROR. */
  | 'fatal'
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
    this.kind = options.kind ?? 'fatal';
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
    super(message, { code: 'ILLEGAL_STATE', kind: 'usage', ...options });
  }
}

/** A configuration value is missing or wrong. The message names the key and what to change. */
export class ConfigError extends StreamsError {
  constructor(message: string, options: StreamsErrorOptions = {}) {
    super(message, { code: 'INVALID_CONFIG', kind: 'usage', ...options });
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
    super(message, { code: 'INVALID_TOPOLOGY', kind: 'usage', ...options });
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
    super(message, { code: 'SERIALIZATION', kind: 'record', ...options });
    this.origin = options.origin;
    this.topic = options.topic;
  }
}

/** A record is larger than the topic's `max.message.bytes` or the producer's max request size. */
export class RecordTooLargeError extends StreamsError {
  constructor(message: string, options: StreamsErrorOptions = {}) {
    super(message, { code: 'RECORD_TOO_LARGE', kind: 'record', ...options });
  }
}

/** The broker (or sluice's pre-send validation) rejected this record, e.g. a null key on a compacted topic. */
export class InvalidRecordError extends StreamsError {
  constructor(message: string, options: StreamsErrorOptions = {}) {
    super(message, { code: 'INVALID_RECORD', kind: 'record', ...options });
  }
}

/** The record's timestamp is outside the topic's allowed range. */
export class InvalidTimestampError extends StreamsError {
  constructor(message: string, options: StreamsErrorOptions = {}) {
    super(message, { code: 'INVALID_TIMESTAMP', kind: 'record', ...options });
  }
}

/** The record could not be delivered before the delivery timeout (retriable errors kept recurring). */
export class DeliveryTimeoutError extends StreamsError {
  constructor(message: string, options: StreamsErrorOptions = {}) {
    super(message, { code: 'DELIVERY_TIMEOUT', kind: 'record', ...options });
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
    super(message, { code: 'PRODUCER_FENCED', kind: 'fencing', ...options });
  }
}

/** A record sent with `TxnSendOption.NONE` failed: the transaction can only be aborted. */
export class TransactionAbortableError extends StreamsError {
  constructor(message: string, options: StreamsErrorOptions = {}) {
    super(message, { code: 'TRANSACTION_ABORTABLE', kind: 'record', ...options });
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

const RETRIABLE = new Set<number>([
  KafkaErrorCode.CORRUPT_MESSAGE,
  KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
  KafkaErrorCode.LEADER_NOT_AVAILABLE,
  KafkaErrorCode.NOT_LEADER_OR_FOLLOWER,
  KafkaErrorCode.REQUEST_TIMED_OUT,
  KafkaErrorCode.NETWORK_EXCEPTION,
  KafkaErrorCode.COORDINATOR_LOAD_IN_PROGRESS,
  KafkaErrorCode.COORDINATOR_NOT_AVAILABLE,
  KafkaErrorCode.NOT_COORDINATOR,
  KafkaErrorCode.NOT_ENOUGH_REPLICAS,
  KafkaErrorCode.NOT_ENOUGH_REPLICAS_AFTER_APPEND,
  KafkaErrorCode.CONCURRENT_TRANSACTIONS,
  KafkaErrorCode.KAFKA_STORAGE_ERROR,
  KafkaErrorCode.FENCED_LEADER_EPOCH,
  KafkaErrorCode.UNKNOWN_LEADER_EPOCH,
  KafkaErrorCode.REBALANCE_IN_PROGRESS,
]);

const RECORD_LEVEL = new Set<number>([
  KafkaErrorCode.MESSAGE_TOO_LARGE,
  KafkaErrorCode.RECORD_LIST_TOO_LARGE,
  KafkaErrorCode.INVALID_RECORD,
  KafkaErrorCode.INVALID_TIMESTAMP,
]);

const FENCING = new Set<number>([
  KafkaErrorCode.PRODUCER_FENCED,
  KafkaErrorCode.INVALID_PRODUCER_EPOCH,
  KafkaErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER,
  KafkaErrorCode.UNKNOWN_PRODUCER_ID,
  KafkaErrorCode.INVALID_TXN_STATE,
  KafkaErrorCode.INVALID_PRODUCER_ID_MAPPING,
  KafkaErrorCode.TRANSACTION_COORDINATOR_FENCED,
  KafkaErrorCode.FENCED_INSTANCE_ID,
  KafkaErrorCode.ILLEGAL_GENERATION,
  KafkaErrorCode.UNKNOWN_MEMBER_ID,
]);

/**
 * Classifies a Kafka error code (`DESIGN.md` §4):
 * record-level codes go to the production exception handler, retriable codes
 * are retried until the delivery timeout, fencing codes close the task dirty,
 * anything else (authorization, UNSUPPORTED_VERSION, ...) is fatal.
 */
export function classifyKafkaErrorCode(code: number): ErrorKind {
  if (RETRIABLE.has(code)) return 'retriable';
  if (RECORD_LEVEL.has(code)) return 'record';
  if (FENCING.has(code)) return 'fencing';
  return 'fatal';
}

/** The classification of any thrown value: sluice errors keep theirs, anything else is fatal. */
export function errorKindOf(error: unknown): ErrorKind {
  return error instanceof StreamsError ? error.kind : 'fatal';
}
