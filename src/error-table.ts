/**
 * The one classification table of sluice's errors: every Kafka error code and
 * every sluice code → kind, whether a failed write may be in the log, whether
 * the producer is lost, and the runtime's reaction. `src/errors.ts` re-exports
 * it with the error classes; both cluster adapters, the producer, the runtime
 * and the test driver read it.
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
  UNSUPPORTED_SASL_MECHANISM: 33,
  ILLEGAL_SASL_STATE: 34,
  UNSUPPORTED_VERSION: 35,
  TOPIC_ALREADY_EXISTS: 36,
  INVALID_REPLICATION_FACTOR: 38,
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
  SASL_AUTHENTICATION_FAILED: 58,
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
/** The row of a Kafka code the table does not list: fatal, the app stops. */
export const UNLISTED_KAFKA_ERROR: ErrorClass = { kind: 'fatal', reaction: 'stop' };
const stop = UNLISTED_KAFKA_ERROR;
/**
 * Authentication and authorization: retrying cannot help (the credentials, certificates or ACLs must
 * change), so never retried and the app stops in ERROR, the message naming the mechanism and user, or
 * the resource, operation and principal (`src/cluster/kafkajs/internal/security-errors.ts`).
 */
const denied: ErrorClass = { kind: 'fatal', reaction: 'stop' };
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
  /** Another live member uses this static member's `groupInstanceId` (a configuration error): stop, naming the id. */
  [C.FENCED_INSTANCE_ID]: stop,
  [C.ILLEGAL_GENERATION]: groupFenced,
  [C.UNKNOWN_MEMBER_ID]: groupFenced,
  [C.TOPIC_AUTHORIZATION_FAILED]: denied,
  [C.GROUP_AUTHORIZATION_FAILED]: denied,
  [C.CLUSTER_AUTHORIZATION_FAILED]: denied,
  [C.TRANSACTIONAL_ID_AUTHORIZATION_FAILED]: denied,
  [C.SASL_AUTHENTICATION_FAILED]: denied,
  [C.UNSUPPORTED_SASL_MECHANISM]: denied,
  [C.ILLEGAL_SASL_STATE]: denied,
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
  /**
   * A call of an async step (`KStream.mapValuesAsync`, `asyncProcessor`) did
   * not settle within `asyncCallTimeoutMs` (or was still running when a
   * commit's drain ran out of that bound): a processing error of that one
   * record, handed to the processing exception handler like a throw.
   */
  ASYNC_CALL_TIMEOUT: { kind: 'record' },
  /**
   * A source's timestamp extractor threw (not a StreamsError) or returned no
   * whole number of ms: the task fails, naming the extractor, the source and
   * the record (Kafka's "Fatal user code error in TimestampExtractor callback").
   */
  TIMESTAMP_EXTRACTOR_FAILED: { kind: 'fatal', reaction: 'policy' },
  /**
   * An input record's timestamp is negative and the extractor fails on it
   * (FailOnInvalidTimestamp, the default; UsePartitionTimeOnInvalidTimestamp
   * before any partition time): the task fails; the message names the record
   * and the extractors that skip or replace such timestamps.
   */
  INVALID_EXTRACTED_TIMESTAMP: { kind: 'fatal', reaction: 'policy' },
  /** A dead-letter record of a handler could not be written (nothing may be lost silently). */
  DEAD_LETTER_FAILED: { kind: 'record', reaction: 'policy' },
  /** A changelog record could not be written: state changes are never dropped, the task fails (the policy decides). */
  CHANGELOG_WRITE_FAILED: { kind: 'record', reaction: 'policy' },
  /**
   * A store's changelog topic was deleted while the app ran (its records answer UNKNOWN_TOPIC_OR_PARTITION for
   * maxBlockMs): the state can no longer be backed up, restarting the task would only fail again. Stops the
   * app whatever the policy (as Kafka's MissingSourceTopicException); the message names the changelog and what to do.
   */
  CHANGELOG_DELETED: stop,
  /** A persistent store is ahead of its changelog (e.g. the topic was re-created): its folder was wiped, the task is re-created and restores in full. */
  TASK_CORRUPTED: retriable,
  /** A stateful task on a cluster without a partition reader, or a changelog topic that is missing. */
  STATE_RESTORE_FAILED: { kind: 'fatal', reaction: 'policy' },
  /** A broken handler stops the app whatever the policy. */
  HANDLER_THREW: stop,
  INVALID_HANDLER_ANSWER: stop,
  /** Anything else a client library threw: the policy decides. */
  KAFKA_CLIENT_ERROR: { kind: 'fatal', reaction: 'policy' },
  /**
   * The TLS handshake with a broker failed: its certificate is not trusted (`ssl.ca`), its name does not
   * match the address (`ssl.servername`), or it refused the client certificate (`ssl.cert`/`ssl.key`).
   * Never retried: the app stops in ERROR naming what to change.
   */
  SSL_HANDSHAKE_FAILED: denied,
  /**
   * The broker closed the first connection before answering anything: a plaintext client on a TLS
   * listener (set `ssl`), a TLS client on a plaintext one (remove `ssl`), or a listener that needs SASL.
   * Only while the client never got an answer from the cluster; later, a closed connection is retriable.
   */
  SECURITY_PROTOCOL_MISMATCH: denied,
  /**
   * A task state folder is held by another live process (or already by this one): two instances with the
   * same applicationId share a stateDir on one machine. A stale lock of a dead process is taken over, never
   * refused. Fatal for the task; the uncaught-exception policy decides (SHUTDOWN_CLIENT stops the app with
   * the error naming the folder, the holder and the fix; RESTART_TASK tries again later, which succeeds once
   * the holder let go). Refused while another process takes over the same stale lock: retriable instead.
   */
  STATE_DIR_LOCKED: { kind: 'fatal', reaction: 'policy' },
  /** The state directory cannot be created or used (a file in the way, permissions): the policy decides. */
  STATE_DIR_ERROR: { kind: 'fatal', reaction: 'policy' },
  /** A `suppress` buffer with `shutDownWhenFull()` went over its bounds: the task fails (the processing handler, then the policy, decide). */
  SUPPRESSION_BUFFER_FULL: { kind: 'fatal', reaction: 'policy' },
  /**
   * `Suppressed.untilWindowCloses` met a key that is not a `Windowed` (the grace search found a windowed
   * aggregation upstream, but the table was re-keyed since): concerns one record, the processing handler decides.
   */
  SUPPRESSION_NOT_WINDOWED: record,
  /**
   * A state store key longer than the persistent engine accepts (lmdb: 1978
   * bytes less sluice's 1-byte key tag): concerns one record, the processing
   * handler decides; nothing was written.
   */
  STORE_KEY_TOO_LARGE: record,
  /** A persistent store's files cannot be opened even after wiping them (permissions, disk full): the task cannot run. */
  STORE_OPEN_FAILED: { kind: 'fatal', reaction: 'policy' },
  /** An lmdb write transaction (commit, restore) failed and was rolled back: the task fails and is rebuilt from the last checkpoint. */
  STORE_WRITE_FAILED: { kind: 'fatal', reaction: 'policy' },
  /**
   * The subscription or assignment user data of the task assignor cannot be decoded (another
   * program in the group, or a newer sluice whose format this one cannot read): the leader treats
   * such a member as having no state; a member keeps its previous key metadata and logs it.
   */
  ASSIGNMENT_USER_DATA_INVALID: { kind: 'fatal', reaction: 'policy' },
  /**
   * Schema Registry serdes (`SchemaRegistryError`). The registry cannot be reached (network error, timeout,
   * HTTP 5xx/408/429): retriable, the task retries the batch after `taskRestartBackoffMs`, nothing is lost.
   */
  SCHEMA_REGISTRY_UNAVAILABLE: retriable,
  /**
   * A schema id (or a sink topic's schema) was not fetched before a synchronous (de)serialization needed it
   * (a store or a topic chosen per record): the fetch has started; the task retries the record once it is there.
   */
  SCHEMA_NOT_RESOLVED: retriable,
  /** The registry has no such schema id or subject (40401/40402/40403): one record, the handler decides (a dead letter carries the id). */
  SCHEMA_NOT_FOUND: record,
  /** The registry refused to register the schema as incompatible (409): one record, the production handler decides. */
  SCHEMA_INCOMPATIBLE: record,
  /** The registry or the format library rejected the schema (42201, a parse error): one record, the handler decides. */
  SCHEMA_INVALID: record,
  /** The registry refused the request (401/403, another 4xx): the credentials or the URL are wrong; the policy decides. */
  SCHEMA_REGISTRY_REFUSED: { kind: 'fatal', reaction: 'policy' },
  ILLEGAL_STATE: { kind: 'usage' },
  /** An interactive query on a store that is restoring, not local, or of an app that is not running. */
  INVALID_STATE_STORE: { kind: 'usage' },
  /** Key metadata asked for a store the topology does not have (Kafka's `UnknownStateStoreException`); the message names the stores it has. */
  UNKNOWN_STATE_STORE: { kind: 'usage' },
  INVALID_CONFIG: { kind: 'usage' },
  INVALID_TOPOLOGY: { kind: 'usage' },
  /**
   * The topics of a join (a co-partition group) differ in partition count
   * (Kafka's CopartitionedTopicsEnforcer "Topics not co-partitioned"): start
   * fails before any internal topic is created; the message names each topic
   * and its count.
   */
  TOPICS_NOT_COPARTITIONED: { kind: 'usage' },
};

/** The kind of a Kafka error code (a code sluice does not list is fatal). */
export function classifyKafkaErrorCode(code: number): ErrorKind {
  return KAFKA_ERRORS[code]?.kind ?? 'fatal';
}
