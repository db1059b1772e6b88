/**
 * `EmbeddedKafkaCluster`: an in-process Kafka implementing the cluster port
 * with a Kafka 4 broker's semantics (DESIGN.md §5): v2 record batches as
 * bytes, produce validation of KIP-467 with `record_errors`, a transaction
 * coordinator, a group coordinator, read_committed fetch, and fault injection.
 */
import type {
  AdminPort, ClusterPort, ConsumedRecord, GroupConsumerOptions, GroupConsumerPort, Headers, NewTopic, PartitionReaderOptions,
  PartitionReaderPort, RawProducerOptions, RawProducerPort, TopicDescription, TopicPartition } from '../port.js';
import { Broker } from './internal/broker.js';
import { EmbeddedAdmin } from './internal/admin.js';
import { EmbeddedRawProducer, toRecordHeaders } from './internal/raw-producer.js';
import { EmbeddedGroupConsumer, type EmbeddedConsumerOptions } from './internal/group-consumer.js';
import { EmbeddedPartitionReader } from './internal/partition-reader.js';
import { encodeBatch } from './internal/record-batch.js';
import { loadCompression, type CompressionType } from '../../records/compression.js';
import { partitionFor } from '../../records/partitioner.js';
import type { ProduceFault, Latency, TxnFault } from './faults.js';
import { registerBroker } from './internal/broker-access.js';
import type { TxnState } from './internal/txn-state.js';

export type { ProduceFault, Latency, TxnFault, EmbeddedConsumerOptions };

/** Options of an {@link EmbeddedKafkaCluster}. */
export interface EmbeddedKafkaClusterOptions {
  /**
   * The broker clock (ms since the epoch), default `Date.now`. Timestamp
   * validation, transaction timeouts and session timeouts read it; with a
   * manual clock call {@link EmbeddedKafkaCluster.tick} after advancing it.
   */
  clock?: () => number;
  /** How often timers (transaction and session timeouts) run, default 100 ms; 0 disables (use `tick()`). */
  tickIntervalMs?: number;
}

/** A record for {@link EmbeddedKafkaCluster.produce}. */
export interface PlainRecord {
  key?: string | Buffer | null;
  value: string | Buffer | null;
  /** Explicit partition; otherwise murmur2 of the key, or round-robin for null keys. */
  partition?: number;
  headers?: Headers;
  /** CreateTime, default the cluster clock. */
  timestamp?: number;
}

/** Generation and members' assignments of a group ({@link EmbeddedKafkaCluster.describeGroup}). */
export interface EmbeddedGroupDescription {
  generationId: number;
  members: { memberId: string; generationId: number; assignment: TopicPartition[] }[];
}

/** State of a transactional id ({@link EmbeddedKafkaCluster.describeTransaction}); `state` is Kafka's `TransactionState` name. */
export interface EmbeddedTransactionDescription {
  producerId: number;
  epoch: number;
  state: TxnState;
}

/** Where a plain record was written. */
export interface PlainRecordMetadata extends TopicPartition {
  offset: number;
}

const toBuffer = (v: string | Buffer | null | undefined): Buffer | null => (v === null || v === undefined ? null : typeof v === 'string' ? Buffer.from(v, 'utf8') : v);

/**
 * An in-process Kafka cluster (kind `embedded`), usable wherever a
 * {@link ClusterPort} is expected.
 *
 * Fault injection:
 * - {@link failProduce}: the next N produce requests to a partition (or any partition of a topic) fail with a given code, optionally with record_errors;
 * - {@link failTxnRequest}: the next N AddPartitionsToTxn / AddOffsetsToTxn / TxnOffsetCommit / EndTxn requests of a transactional id fail with a given code;
 * - {@link setLatency}: real milliseconds added before every produce / fetch;
 * - {@link fenceTransactionalId}: bumps the epoch of a transactional id (aborting its open transaction), so its producer gets PRODUCER_FENCED / INVALID_PRODUCER_EPOCH;
 * - {@link expireGroupMember}: removes a group member as if its session expired; it sees UNKNOWN_MEMBER_ID on its next heartbeat or commit and rejoins;
 * - {@link crashGroupMember}: the member's consumer dies without leaving; the group rebalances once its session times out.
 */
export class EmbeddedKafkaCluster implements ClusterPort {
  /** Always `embedded`. */
  readonly kind = 'embedded' as const;
  /** The broker internals: private (sluice's own tests reach them through `internal/broker-access.ts`). */
  readonly #broker: Broker;
  private readonly timer: NodeJS.Timeout | undefined;
  private roundRobin = 0;
  private readonly clients = new Set<{ close(): Promise<void> }>();

  constructor(options: EmbeddedKafkaClusterOptions = {}) {
    this.#broker = new Broker(options.clock ?? Date.now);
    registerBroker(this, this.#broker);
    const every = options.tickIntervalMs ?? 100;
    if (every > 0) {
      this.timer = setInterval(() => this.#broker.tick(), every);
      this.timer.unref();
    }
  }

  /** An admin client. */
  admin(): AdminPort {
    return new EmbeddedAdmin(this.#broker);
  }
  /** A raw (idempotent, optionally transactional) producer. */
  producer(options: RawProducerOptions = {}): RawProducerPort {
    const p = new EmbeddedRawProducer(this.#broker, options);
    this.clients.add(p);
    return p;
  }
  /** An assign-based partition reader (restoration; read_committed by default); see PartitionReaderPort. */
  reader(options: PartitionReaderOptions = {}): PartitionReaderPort {
    const r = new EmbeddedPartitionReader(this.#broker, options);
    this.clients.add(r);
    return r;
  }

  /** A group consumer (read_committed by default). */
  consumer(options: GroupConsumerOptions | EmbeddedConsumerOptions): GroupConsumerPort {
    const c = new EmbeddedGroupConsumer(this.#broker, options);
    this.clients.add(c);
    return c;
  }

  /** Creates a topic (default 1 partition); configs default as on a Kafka 4 broker. */
  async createTopic(name: string, options: NewTopic = {}): Promise<void> {
    this.#broker.createTopic(name, options.partitions ?? 1, options.config ?? {}, options.replicationFactor ?? -1);
  }
  /** Deletes a topic and the committed offsets of its partitions. */
  async deleteTopic(name: string): Promise<void> {
    this.#broker.deleteTopic(name);
  }
  /** Sets topic configs incrementally. */
  async alterTopicConfig(name: string, config: Record<string, string>): Promise<void> {
    this.#broker.alterTopicConfig(name, config);
  }
  /** Partitions and effective configs of a topic. */
  async describeTopic(name: string): Promise<TopicDescription> {
    return this.#broker.describeTopic(name);
  }
  /** Names of all topics. */
  async listTopics(): Promise<string[]> {
    return this.#broker.listTopics();
  }

  /**
   * Plain, non-transactional produce (no producer id), one batch per partition,
   * validated like any produce request. Rejects with the broker's
   * `KafkaProtocolError` (batches of other partitions of the call may have been written).
   * `options.compressionType` compresses each batch as a Java producer with that `compression.type` would.
   */
  async produce(topic: string, records: PlainRecord[], options: { compressionType?: CompressionType } = {}): Promise<PlainRecordMetadata[]> {
    const compression = options.compressionType ?? 'none';
    await loadCompression(compression);
    const n = this.#broker.logs(topic).length;
    const now = this.#broker.now();
    const byPartition = new Map<number, { index: number; record: PlainRecord }[]>();
    records.forEach((record, index) => {
      const key = toBuffer(record.key);
      const p = record.partition ?? (key ? partitionFor(key, n) : this.roundRobin++ % n);
      const items = byPartition.get(p) ?? [];
      byPartition.set(p, items);
      items.push({ index, record });
    });
    const out: PlainRecordMetadata[] = new Array(records.length);
    for (const [partition, items] of byPartition) {
      const bytes = encodeBatch({
        compression,
        records: items.map(({ record }) => ({ key: toBuffer(record.key), value: toBuffer(record.value), headers: toRecordHeaders(record.headers), timestamp: record.timestamp ?? now })),
      });
      const base = await this.#broker.produce(topic, partition, bytes);
      items.forEach(({ index }, i) => (out[index] = { topic, partition, offset: base + i }));
    }
    return out;
  }

  /** Next offset (high watermark) per partition. */
  async endOffsets(topic: string): Promise<number[]> {
    return this.#broker.endOffsets(topic);
  }
  /** Committed offset of a group per partition, -1 if none. */
  async committedOffsets(groupId: string, topic: string): Promise<number[]> {
    return this.#broker.committedOffsets(groupId, topic);
  }
  /** Every record visible to a read_committed reader (up to the LSO, aborted data hidden), by partition then offset. */
  async readCommitted(topic: string): Promise<ConsumedRecord[]> {
    return this.#broker.logs(topic).flatMap((log) => log.fetch(log.logStartOffset, 'read_committed').records);
  }
  /** Every data record appended (aborted and open transactions included), by partition then offset. */
  async readUncommitted(topic: string): Promise<ConsumedRecord[]> {
    return this.#broker.logs(topic).flatMap((log) => log.fetch(log.logStartOffset, 'read_uncommitted').records);
  }

  /** Fault: the next `count` (default 1) produce requests to the partition (any, if omitted) fail with `code`. */
  failProduce(fault: ProduceFault): void {
    this.#broker.faults.failProduce(fault);
  }
  /**
   * Fault: the next `count` (default 1) coordinator requests `api` of the
   * transactional id fail with `code` (e.g. CONCURRENT_TRANSACTIONS, as a real
   * coordinator answers AddOffsets/AddPartitions right after EndTxn). A
   * non-fencing code leaves the producer usable.
   */
  failTxnRequest(fault: TxnFault): void {
    this.#broker.faults.failTxn(fault);
  }
  /** Fault: adds real latency (ms) before produce and/or fetch requests are handled. */
  setLatency(latency: Latency): void {
    this.#broker.faults.setLatency(latency);
  }
  /** Removes all injected faults and latency. */
  clearFaults(): void {
    this.#broker.faults.clear();
  }
  /** Fault: bumps the epoch of a transactional id, aborting its open transaction; its producer is fenced. */
  fenceTransactionalId(transactionalId: string): void {
    this.#broker.txn.fence(transactionalId);
  }
  /** Fault: removes a member (all members if omitted) of a group as if its session expired. Returns the removed member ids. */
  expireGroupMember(groupId: string, memberId?: string): string[] {
    return this.#broker.groups.expireMember(groupId, memberId);
  }
  /**
   * Fault: the consumer(s) of a member (all members if omitted) crash: no more
   * batches or callbacks, no heartbeats, no LeaveGroup. The coordinator
   * removes them when `sessionTimeoutMs` passes (advance a manual clock and
   * call {@link tick}). Returns the crashed member ids.
   */
  crashGroupMember(groupId: string, memberId?: string): string[] {
    return this.#broker.groups.crashMember(groupId, memberId);
  }
  /** Generation and members' assignments of a group. */
  describeGroup(groupId: string): EmbeddedGroupDescription {
    return this.#broker.groups.describeGroup(groupId);
  }
  /** State of a transactional id (producer id, epoch, state). */
  describeTransaction(transactionalId: string): EmbeddedTransactionDescription | undefined {
    const m = this.#broker.txn.describe(transactionalId);
    return m && { producerId: m.producerId, epoch: m.epoch, state: m.state };
  }
  /** Runs the timers now: aborts timed-out transactions, expires members whose session timed out. */
  tick(): void {
    this.#broker.tick();
  }
  /** Stops the timers and closes every client it created (consumers leave their groups). Idempotent; nothing is persisted. */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    const clients = [...this.clients];
    this.clients.clear();
    await Promise.allSettled(clients.map((c) => c.close()));
  }
}
