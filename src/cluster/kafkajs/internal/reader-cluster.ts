/**
 * The kafkajs internals the partition reader is built on (kafkajs has no
 * `assign()` consumer): a kafkajs `Cluster` made by the `Kafka` client of
 * sluice's private kafkajs copy (so Fetch goes through the patched, correct
 * read_committed filter of `fetch-aborted-filter.ts`), and the few `Cluster`
 * and `Broker` methods used, typed here (kafkajs ships no types for them).
 */
import type { Kafka } from 'kafkajs';
import { StreamsError } from '../../../errors.js';
import type { FetchedMessage } from './fetch-aborted-filter.js';

/** kafkajs' isolation levels (`protocol/isolationLevel.js`). */
export const ISOLATION_LEVEL = { READ_UNCOMMITTED: 0, READ_COMMITTED: 1 } as const;

/** A decoded Fetch record as kafkajs yields it (v2 record batches: `batchContext` is set). */
export interface ReaderMessage extends FetchedMessage {
  value: Buffer | null;
  timestamp: string;
  headers?: Record<string, Buffer | string | null | (Buffer | string | null)[] | undefined>;
  batchContext: FetchedMessage['batchContext'] & { firstOffset?: string; lastOffsetDelta?: number };
}

/** One partition of a decoded Fetch response (v4+). */
export interface ReaderFetchPartition {
  partition: number;
  errorCode: number;
  highWatermark: string;
  lastStableOffset?: string;
  messages: ReaderMessage[];
}

/** `broker/index.js`, reduced to what the reader calls. */
export interface KafkaJsBroker {
  fetch(request: {
    replicaId: number;
    isolationLevel: number;
    maxWaitTime: number;
    minBytes: number;
    maxBytes: number;
    topics: Array<{ topic: string; partitions: Array<{ partition: number; fetchOffset: string; maxBytes: number }> }>;
  }): Promise<{ responses: Array<{ topicName: string; partitions: ReaderFetchPartition[] }> }>;
}

/** `cluster/index.js`, reduced to what the reader calls. */
export interface KafkaJsCluster {
  connect(): Promise<void>;
  disconnect(): Promise<void>;
  refreshMetadata(): Promise<void>;
  addTargetTopic(topic: string): Promise<void>;
  findTopicPartitionMetadata(topic: string): Array<{ partitionId: number; leader: number | null }>;
  findLeaderForPartitions(topic: string, partitions: number[]): Record<string, number[]>;
  findBroker(target: { nodeId: string }): Promise<KafkaJsBroker>;
  fetchTopicsOffset(
    topics: Array<{ topic: string; partitions: Array<{ partition: number }>; fromBeginning: boolean }>,
  ): Promise<Array<{ topic: string; partitions: Array<{ partition: number; offset: string }> }>>;
}

type CreateCluster = (options: { metadataMaxAge: number; allowAutoTopicCreation: boolean; isolationLevel: number }) => KafkaJsCluster;

/**
 * A new kafkajs `Cluster` of `kafka` (same brokers, client id, timeouts,
 * logger), answering ListOffsets with `isolationLevel`. kafkajs keeps its
 * cluster factory under a private symbol of the `Kafka` instance
 * (`private:Kafka:createCluster`, kafkajs 2.2.4 `src/index.js`); a kafkajs
 * without it throws `UNSUPPORTED_KAFKAJS`.
 */
export function createReaderCluster(kafka: Kafka, isolationLevel: number): KafkaJsCluster {
  const symbol = Object.getOwnPropertySymbols(kafka).find((s) => s.description === 'private:Kafka:createCluster');
  // kafkajs' Kafka type declares no symbol-keyed members; the private createCluster is one
  const create = symbol === undefined ? undefined : (kafka as unknown as Record<symbol, unknown>)[symbol];
  if (typeof create !== 'function') {
    throw new StreamsError(
      'the kafkajs Kafka client has no private cluster factory (private:Kafka:createCluster, kafkajs 2.2.4): the partition reader cannot be built; install kafkajs@2.2.4',
      { code: 'UNSUPPORTED_KAFKAJS', kind: 'fatal' },
    );
  }
  return (create as CreateCluster)({ metadataMaxAge: 300_000, allowAutoTopicCreation: false, isolationLevel });
}
