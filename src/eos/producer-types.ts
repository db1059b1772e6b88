/**
 * Public record, metadata, callback and option types of {@link TransactionalProducer}.
 */
import type { ClusterPort } from '../cluster/port.js';
import type { Logger } from '../internal/logger.js';

/** A record to send. Keys and values are already bytes or strings (UTF-8 encoded on send). */
export interface ProducerRecord {
  topic: string;
  /** `null`/absent: a keyless record (sticky partitioning; refused on compacted topics). */
  key?: string | Buffer | null;
  value: string | Buffer | null;
  /** Explicit partition; otherwise murmur2(key) for keyed records, sticky for keyless ones. */
  partition?: number;
  headers?: Record<string, string | Buffer>;
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

/** Options of {@link TransactionalProducer}. */
export interface TransactionalProducerOptions {
  /** With it the producer is transactional; without it, idempotent and non-transactional. */
  transactionalId?: string;
  /** The cluster to use; otherwise one is created from `bootstrapServers` (kafkajs). */
  cluster?: ClusterPort;
  /** Brokers of a real Kafka cluster, used when `cluster` is absent. */
  bootstrapServers?: string[];
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
  /** pino logger; a child logger is derived from it. */
  logger?: Logger;
}
