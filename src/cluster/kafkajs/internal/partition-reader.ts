/**
 * {@link PartitionReaderPort} over kafkajs internals: kafkajs has no `assign()`
 * consumer, so the reader talks to the partition leaders itself through a
 * kafkajs `Cluster` of sluice's private kafkajs copy (`reader-cluster.ts`).
 *
 * - `fetch`: Fetch (replica id -1, the reader's isolation level) of one
 *   partition from its leader. The private copy's Fetch decoder marks the
 *   records of aborted transactions as control records
 *   (`fetch-aborted-filter.ts`); as kafkajs' `consumer/batch.js` does, records
 *   below the fetch offset (the head of a compressed batch) and control
 *   records are dropped, and the position moves past everything the answer
 *   covered (see {@link nextOffsetOf}).
 * - `endOffsets`: ListOffsets (latest) with the reader's isolation level: the
 *   last stable offset under read_committed, the high watermark otherwise.
 * - Retriable answers (NOT_LEADER_OR_FOLLOWER, LEADER_NOT_AVAILABLE, a broker
 *   gone, ...; the classification of `src/error-table.ts`) refresh the
 *   metadata and try again with back-off for up to {@link READER_RETRY_TIMEOUT_MS};
 *   UNKNOWN_TOPIC_OR_PARTITION only a few times (a topic just created may not
 *   be in every broker's metadata yet). OFFSET_OUT_OF_RANGE and every other
 *   answer reject at once.
 * - A record batch emptied by compaction (kept for its producer state) comes
 *   as one control record at its last offset (`empty-batch-marker.ts`), so
 *   `nextOffset` moves past it too.
 */
import type { Kafka } from 'kafkajs';
import { IllegalArgumentError, IllegalStateError, KafkaErrorCode, KafkaProtocolError, errorKindOf } from '../../../errors.js';
import { backoffDelay } from '../../../internal/backoff.js';
import type { Logger } from '../../../internal/logger.js';
import { retryWhile } from '../../../internal/retry.js';
import type { ConsumedRecord, PartitionReaderOptions, PartitionReaderPort, PartitionReadResult, TopicPartition } from '../../port.js';
import { toConsumedRecord } from './batch-delivery.js';
import { mapKafkaJsError } from './error-mapping.js';
import { connectionFactsOf, type ConnectionFacts } from './security-errors.js';
import { ISOLATION_LEVEL, createReaderCluster, type KafkaJsCluster, type ReaderFetchPartition, type ReaderMessage } from './reader-cluster.js';

/** How long retriable errors of one call are retried (ms), as Kafka's `default.api.timeout.ms` (60 s) halved. */
export const READER_RETRY_TIMEOUT_MS = 30_000;
/** Attempts of a call answered UNKNOWN_TOPIC_OR_PARTITION before it rejects. */
const UNKNOWN_TOPIC_ATTEMPTS = 5;
const DEFAULT_MAX_BYTES = 1_048_576;
const DEFAULT_MAX_WAIT_MS = 500;

/**
 * The offset after everything a Fetch answer covered: the end of the last
 * record batch seen (its base offset + last offset delta + 1, so records
 * compacted away at a batch's tail and control batches are passed), never
 * below the offset fetched (an answer with no record leaves it unchanged).
 */
export function nextOffsetOf(messages: ReaderMessage[], fetchOffset: number): number {
  const last = messages[messages.length - 1];
  if (last === undefined) return fetchOffset;
  const { firstOffset, lastOffsetDelta } = last.batchContext;
  const batchEnd = firstOffset !== undefined && lastOffsetDelta !== undefined ? Number(firstOffset) + lastOffsetDelta + 1 : 0;
  return Math.max(fetchOffset, Number(last.offset) + 1, batchEnd);
}

/** The port's result of one decoded Fetch partition (see the module comment). */
export function readResultOf(tp: TopicPartition, fetchOffset: number, data: ReaderFetchPartition, readCommitted: boolean): PartitionReadResult {
  const records: ConsumedRecord[] = [];
  for (const m of data.messages) {
    if (m.isControlRecord) continue;
    // kafkajs' decoded message type differs from its public one (Buffer | null fields, a string offset)
    const record = toConsumedRecord(tp.topic, tp.partition, m as unknown as Parameters<typeof toConsumedRecord>[2]);
    if (record.offset >= fetchOffset) records.push(record);
  }
  const endOffset = readCommitted && data.lastStableOffset !== undefined && Number(data.lastStableOffset) >= 0 ? Number(data.lastStableOffset) : Number(data.highWatermark);
  return { records, nextOffset: nextOffsetOf(data.messages, fetchOffset), endOffset };
}

/** An assign-based reader of one kafkajs cluster connection. */
export class KafkaJsPartitionReader implements PartitionReaderPort {
  private readonly cluster: KafkaJsCluster;
  private readonly isolationLevel: number;
  private readonly facts: ConnectionFacts | undefined;
  private connecting: Promise<void> | undefined;
  private closed: Promise<void> | undefined;

  constructor(
    kafka: Kafka,
    options: PartitionReaderOptions,
    private readonly logger: Logger,
  ) {
    this.isolationLevel = (options.isolationLevel ?? 'read_committed') === 'read_committed' ? ISOLATION_LEVEL.READ_COMMITTED : ISOLATION_LEVEL.READ_UNCOMMITTED;
    this.cluster = createReaderCluster(kafka, this.isolationLevel);
    this.facts = connectionFactsOf(kafka);
  }

  /**
   * Runs `op` for `topic`: 1. connect (once) and add the topic to the metadata;
   * 2. `op`; 3. on a retriable error refresh the metadata, back off, go to 1.
   */
  private call<T>(what: string, topic: string, op: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new IllegalStateError(`${what}: the partition reader is closed`));
    const deadline = Date.now() + READER_RETRY_TIMEOUT_MS;
    let refresh = false;
    return retryWhile(
      async () => {
        try {
          // 1.
          this.connecting ??= this.cluster.connect().catch((error: unknown) => {
            this.connecting = undefined;
            throw error;
          });
          await this.connecting;
          if (refresh) await this.cluster.refreshMetadata();
          await this.cluster.addTargetTopic(topic);
          // 2.
          const result = await op();
          if (this.facts) this.facts.answered = true;
          return result;
        } catch (error) {
          // 3.
          refresh = true;
          throw mapKafkaJsError(error, what, { facts: this.facts, access: [{ resource: 'TOPIC', operation: 'READ', name: topic }] });
        }
      },
      {
        retryIf: (error, attempt) => {
          if (this.closed || errorKindOf(error) !== 'retriable' || Date.now() >= deadline) return false;
          if (error instanceof KafkaProtocolError && error.kafkaCode === KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION && attempt + 1 >= UNKNOWN_TOPIC_ATTEMPTS) return false;
          this.logger.debug({ err: error, attempt }, 'partition reader: retrying after a retriable error');
          return true;
        },
        delayMs: (attempt) => Math.min(backoffDelay(attempt, 100), Math.max(0, deadline - Date.now())),
      },
    );
  }

  private unknownPartition(tp: TopicPartition): KafkaProtocolError {
    return new KafkaProtocolError(
      KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
      `UNKNOWN_TOPIC_OR_PARTITION (3): partition ${tp.partition} of topic '${tp.topic}' does not exist (or has no leader yet)`,
    );
  }

  async endOffsets(topic: string): Promise<number[]> {
    return this.call(`end offsets of '${topic}'`, topic, async () => {
      const partitions = this.cluster.findTopicPartitionMetadata(topic).map((p) => ({ partition: p.partitionId }));
      if (partitions.length === 0) throw this.unknownPartition({ topic, partition: 0 });
      const answer = await this.cluster.fetchTopicsOffset([{ topic, partitions, fromBeginning: false }]);
      const result: number[] = new Array<number>(partitions.length).fill(0);
      for (const p of answer.find((t) => t.topic === topic)?.partitions ?? []) result[p.partition] = Number(p.offset);
      return result;
    });
  }

  /** 1. check the offset; 2. find the leader; 3. Fetch; 4. the port's result (retries: {@link call}). */
  async fetch(tp: TopicPartition, offset: number, options: { maxBytes?: number; maxWaitMs?: number } = {}): Promise<PartitionReadResult> {
    // 1.
    if (!Number.isSafeInteger(offset) || offset < 0) {
      throw new IllegalArgumentError(`fetch(${tp.topic}-${tp.partition}): offset must be a non-negative integer, got ${offset}`);
    }
    const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
    const maxWaitTime = options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
    return this.call(`fetch ${tp.topic}-${tp.partition} at ${offset}`, tp.topic, async () => {
      // 2.
      const [nodeId] = Object.keys(this.cluster.findLeaderForPartitions(tp.topic, [tp.partition]));
      if (nodeId === undefined) throw this.unknownPartition(tp);
      const broker = await this.cluster.findBroker({ nodeId });
      // 3.
      const answer = await broker.fetch({
        replicaId: -1,
        isolationLevel: this.isolationLevel,
        maxWaitTime,
        minBytes: 1,
        maxBytes,
        topics: [{ topic: tp.topic, partitions: [{ partition: tp.partition, fetchOffset: String(offset), maxBytes }] }],
      });
      const data = answer.responses.find((t) => t.topicName === tp.topic)?.partitions.find((p) => p.partition === tp.partition);
      if (!data) throw this.unknownPartition(tp);
      // 4.
      return readResultOf(tp, offset, data, this.isolationLevel === ISOLATION_LEVEL.READ_COMMITTED);
    });
  }

  /** Disconnects from every broker. Idempotent. */
  close(): Promise<void> {
    this.closed ??= (async () => {
      await this.connecting?.catch(() => undefined);
      await this.cluster.disconnect().catch((error: unknown) => this.logger.debug({ err: error }, 'partition reader disconnect failed'));
    })();
    return this.closed;
  }
}
