/**
 * Declarations of the producer (`StreamsProducer`, and its public face
 * `TransactionalProducer`): record, metadata, callback and option types; the
 * state names with their transition and guard tables and the
 * `TxnStateMachine` built on the shared `src/internal/state-machine.ts`;
 * option defaults.
 */
import { durationProblem } from '../internal/durations.js';
import { DEFAULT_BUFFER_MEMORY_BYTES } from './internal/buffer-memory.js';
import { DEFAULT_MAX_BLOCK_MS } from './internal/metadata-wait.js';
import type { ClientConnectionOptions, ClusterPort } from '../cluster/port.js';
import { ConfigError, IllegalStateError } from '../errors.js';
import { COMPRESSION_TYPES, isCompressionType, type CompressionType } from '../records/compression.js';
import type { Logger } from '../internal/logger.js';
import type { TopicMetadataCache } from './topic-metadata.js';
import { StateMachine, type TransitionTable } from '../internal/state-machine.js';

/** A record to send. Keys and values are already bytes or strings (UTF-8 encoded on send). */
export interface ProducerRecord {
  topic: string;
  /** `null`/absent: a keyless record (sticky partitioning; refused on compacted topics). */
  key?: string | Buffer | null;
  value: string | Buffer | null;
  /** Explicit partition; otherwise murmur2(key) for keyed records, sticky for keyless ones. */
  partition?: number;
  /** Header values: strings (UTF-8), bytes, or `null` (written as Kafka's null header value, length -1). */
  headers?: Record<string, string | Buffer | null>;
  /** CreateTime in ms since the epoch; default: now. */
  timestamp?: number;
}

/** Where a record was written. */
export interface RecordMetadata {
  topic: string;
  partition: number;
  offset: number;
  /** The record's CreateTime. */
  timestamp: number;
}

/**
 * Node-style completion callback, called exactly once per record, before the
 * record counts as settled for `flush()` / `commitTransaction()` (so a callback
 * may call `markAbortable` or send more records in the same transaction).
 */
export type SendCallback = (error: Error | null, metadata: RecordMetadata | null) => void;

/** Options of a `StreamsProducer` (the cluster is given; `TransactionalProducer` also takes `bootstrapServers`). */
export interface StreamsProducerOptions {
  /** With it the producer is transactional; without it, idempotent and non-transactional. */
  transactionalId?: string;
  /** The cluster to use. */
  cluster: ClusterPort;
  /** How long a partition batch waits for more records before it is sent (ms), default 5. */
  lingerMs?: number;
  /** Target batch size in bytes, default 512 KiB; always capped under the topic's `max.message.bytes`. */
  batchBytes?: number;
  /** Largest produce request (like Java `max.request.size`), default 1048576. */
  maxRequestSize?: number;
  /** Time a record may take from `send` to its acknowledgement, retries included (ms), default 120000. */
  deliveryTimeoutMs?: number;
  /**
   * How long a send may wait for the metadata of a topic the cluster does not
   * know (Java's `max.block.ms`, ms), default 5000; then the record fails alone
   * with `UnknownTopicError` (UNKNOWN_TOPIC_OR_PARTITION) and the handler decides.
   */
  maxBlockMs?: number;
  /**
   * Bound of the memory held by records sent and not yet acknowledged (Java's
   * `buffer.memory`, bytes), default 32 MiB. Each record counts its encoded size
   * plus a fixed per-record estimate of its bookkeeping. When the buffer is full,
   * `send()` does not throw: the record waits (its promise resolves later);
   * await `bufferAvailable()` between sends to keep a sending loop bounded.
   */
  bufferMemoryBytes?: number;
  /** Initial back-off between retries (ms), doubled per attempt, default 100. */
  retryBackoffMs?: number;
  /** How many partitions send concurrently, default 8. */
  maxInFlightPartitions?: number;
  /** Transaction timeout (ms) handed to the coordinator. */
  transactionTimeoutMs?: number;
  /** Network settings of the cluster producer under it (Kafka's `request.timeout.ms`, back-off; see the cluster port). */
  connection?: ClientConnectionOptions;
  /**
   * Codec of every record batch the producer writes (Java's `compression.type`):
   * `'none'` (default), `'gzip'`, `'snappy'`, `'lz4'` or `'zstd'`, in the byte
   * formats Java's producer writes.
   */
  compressionType?: CompressionType;
  /** pino logger; a child logger is derived from it. */
  logger?: Logger;
  /**
   * A topic-metadata cache shared with others (the runtime passes the app's,
   * built on the app's admin client, to every task producer). With it the
   * producer creates no admin client of its own and closes none; without it
   * (a standalone producer) it builds its own cache on its own admin client.
   * Its own `maxBlockMs`, delivery timeout and back-off still bound its lookups.
   * @internal
   */
  topicMetadata?: TopicMetadataCache;
}

/** Names of the producer states. */
export const ProducerState = {
  /** Created; `initTransactions()` not called yet. */
  UNINITIALIZED: 'UNINITIALIZED',
  /** `initTransactions()` running (connect + InitProducerId). */
  INITIALIZING: 'INITIALIZING',
  /** Initialised, no transaction open (an idempotent producer sends here). */
  READY: 'READY',
  /** A transaction is open (also while `commitTransaction()` waits for pending sends). */
  IN_TRANSACTION: 'IN_TRANSACTION',
  /** EndTxn(commit) in flight. */
  COMMITTING: 'COMMITTING',
  /** Pending sends are being drained and EndTxn(abort) is in flight. */
  ABORTING: 'ABORTING',
  /** A NONE send failed (or `markAbortable`): only `abortTransaction()` is allowed. */
  ABORTABLE_ERROR: 'ABORTABLE_ERROR',
  /** Fenced or fatal: only `close()` is allowed; the producer must be recreated. */
  FATAL_ERROR: 'FATAL_ERROR',
  /** Closed. */
  CLOSED: 'CLOSED',
} as const;

/** A producer state name. */
export type ProducerStateName = (typeof ProducerState)[keyof typeof ProducerState];

const S = ProducerState;

/** The producer's transition table (used by `TxnStateMachine` in streams-producer.ts): from → to[]. */
export const PRODUCER_TRANSITIONS: TransitionTable<ProducerStateName> = {
  UNINITIALIZED: [S.INITIALIZING, S.FATAL_ERROR, S.CLOSED],
  INITIALIZING: [S.READY, S.UNINITIALIZED, S.FATAL_ERROR, S.CLOSED],
  READY: [S.IN_TRANSACTION, S.FATAL_ERROR, S.CLOSED],
  IN_TRANSACTION: [S.COMMITTING, S.ABORTING, S.ABORTABLE_ERROR, S.FATAL_ERROR, S.CLOSED],
  COMMITTING: [S.READY, S.FATAL_ERROR, S.CLOSED],
  ABORTING: [S.READY, S.FATAL_ERROR, S.CLOSED],
  ABORTABLE_ERROR: [S.ABORTING, S.FATAL_ERROR, S.CLOSED],
  FATAL_ERROR: [S.CLOSED],
  CLOSED: [],
};

/** Which states allow each producer method (the guard table). */
export const PRODUCER_GUARDS: Readonly<Record<string, readonly ProducerStateName[]>> = {
  initTransactions: [S.UNINITIALIZED],
  beginTransaction: [S.READY],
  sendTransactional: [S.IN_TRANSACTION, S.ABORTABLE_ERROR, S.FATAL_ERROR],
  sendIdempotent: [S.UNINITIALIZED, S.INITIALIZING, S.READY, S.FATAL_ERROR],
  sendOffsetsToTransaction: [S.IN_TRANSACTION],
  commitTransaction: [S.IN_TRANSACTION],
  abortTransaction: [S.IN_TRANSACTION, S.ABORTABLE_ERROR],
  markAbortable: [S.IN_TRANSACTION, S.ABORTABLE_ERROR, S.ABORTING, S.FATAL_ERROR],
  flush: [S.UNINITIALIZED, S.INITIALIZING, S.READY, S.IN_TRANSACTION, S.COMMITTING, S.ABORTING, S.ABORTABLE_ERROR, S.FATAL_ERROR],
};

/** The producer's state, and the cause of it: the abortable error, the error unsent records get while ABORTING, the fatal error, the close error. */
export class TxnStateMachine extends StateMachine<ProducerStateName> {
  /** Why the producer is in its current state (error states only). */
  cause: Error | undefined;
  constructor() {
    super('TransactionalProducer', PRODUCER_TRANSITIONS, S.UNINITIALIZED);
  }

  /** Throws `IllegalStateError` naming the allowed states unless `method` is allowed now. */
  override guard(method: string, label = method): void {
    const allowed = PRODUCER_GUARDS[method] ?? [];
    if (allowed.includes(this.state)) return;
    throw new IllegalStateError(`Cannot call ${label}() in state ${this.state}; allowed in state(s): ${allowed.join(', ') || 'none'}`);
  }

  /** Moves to `to` with `cause` (a no-op when already there); throws `IllegalStateError` when the table forbids it. */
  override transition(to: ProducerStateName, cause?: Error): void {
    if (this.state === to) return;
    if (!this.canTransitionTo(to)) {
      throw new IllegalStateError(`Invalid producer state transition ${this.state} -> ${to}; from ${this.state} allowed: ${PRODUCER_TRANSITIONS[this.state].join(', ') || 'none'}`);
    }
    super.transition(to);
    this.cause = cause;
  }

  /** The cause when in `state`, else undefined. */
  causeIn(...states: ProducerStateName[]): Error | undefined {
    return states.includes(this.state) ? this.cause : undefined;
  }
}

/** The numeric options of {@link StreamsProducerOptions}, resolved. */
export type ProducerSettings = Required<Pick<StreamsProducerOptions, 'lingerMs' | 'batchBytes' | 'maxRequestSize' | 'deliveryTimeoutMs' | 'retryBackoffMs' | 'maxInFlightPartitions' | 'maxBlockMs' | 'bufferMemoryBytes'>>;

/** Defaults (linger 5 ms, batch 512 KiB, request 1 MiB, delivery 120 s, back-off 100 ms, 8 partitions in flight, max block 5 s, buffer 32 MiB), validated. */
export function resolveSettings(options: StreamsProducerOptions): ProducerSettings {
  const settings: ProducerSettings = {
    lingerMs: options.lingerMs ?? 5,
    batchBytes: options.batchBytes ?? 512 * 1024,
    maxRequestSize: options.maxRequestSize ?? 1048576,
    deliveryTimeoutMs: options.deliveryTimeoutMs ?? 120_000,
    retryBackoffMs: options.retryBackoffMs ?? 100,
    maxInFlightPartitions: options.maxInFlightPartitions ?? 8,
    maxBlockMs: options.maxBlockMs ?? DEFAULT_MAX_BLOCK_MS,
    bufferMemoryBytes: options.bufferMemoryBytes ?? DEFAULT_BUFFER_MEMORY_BYTES,
  };
  if (options.compressionType !== undefined && !isCompressionType(options.compressionType)) {
    throw new ConfigError(`TransactionalProducer option 'compressionType' must be one of ${COMPRESSION_TYPES.map((t) => `'${t}'`).join(', ')}, got ${JSON.stringify(options.compressionType)}`);
  }
  for (const [key, value] of Object.entries(settings)) {
    const min = key === 'lingerMs' || key === 'retryBackoffMs' || key === 'maxBlockMs' ? 0 : 1;
    // durations reach Node timers: 2^31-1 ms at most (issue 28 item 7), the one check every duration key goes through
    const duration = key.endsWith('Ms') ? durationProblem(value, min) : undefined;
    if (duration) throw new ConfigError(`TransactionalProducer option '${key}' ${duration}`);
    if (typeof value !== 'number' || !Number.isFinite(value) || value < min) {
      throw new ConfigError(`TransactionalProducer option '${key}' must be a number >= ${min}, got ${String(value)}`);
    }
  }
  return settings;
}
