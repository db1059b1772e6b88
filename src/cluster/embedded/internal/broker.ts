/**
 * The broker side of the embedded cluster: topics and their partition logs,
 * Produce (validation, transaction verification, producer state, append),
 * Fetch, and the two coordinators. Every request is handled synchronously
 * after the injected latency, so one request never interleaves with another.
 */
import { KafkaErrorCode } from '../../../errors.js';
import { brokerError } from './broker-error.js';
import type { TopicDescription, TopicPartitionOffset } from '../../port.js';
import { PartitionLog, type FetchResult, type Isolation } from './partition-log.js';
import { effectiveConfig, parseTopicConfig, validateTopicConfig } from './topic-config.js';
import { validateProduce } from './validation.js';
import { COMPRESSION_MASK, isTransactional, NO_PRODUCER_ID, recompressBatch } from './record-batch.js';
import { compressionTypeOfId, loadCompression } from '../../../records/compression.js';
import { TxnCoordinator } from './txn-coordinator.js';
import { GroupCoordinator } from './group-coordinator.js';
import { FaultInjector, delay } from './faults.js';
import { topicPartitionKey } from '../../../records/topic-partition.js';

interface Topic {
  name: string;
  config: Record<string, string>;
  /** As asked at creation (-1: the default, 1); one broker holds every replica, the factor is only recorded. */
  replicationFactor: number;
  partitions: PartitionLog[];
}

const err = brokerError;

/** The embedded broker (one node, leader of every partition, also both coordinators). */
export class Broker {
  private readonly topics = new Map<string, Topic>();
  private readonly listeners = new Set<() => void>();
  readonly faults = new FaultInjector();
  readonly txn: TxnCoordinator;
  readonly groups: GroupCoordinator;

  constructor(readonly now: () => number) {
    this.txn = new TxnCoordinator({
      now,
      writeMarker: (topic, partition, pid, epoch, commit) => {
        this.topics.get(topic)?.partitions[partition]?.writeMarker(pid, epoch, commit, now());
        this.notify();
      },
      commitOffsets: (groupId, offsets) => this.groups.commit(groupId, offsets),
      injectedFault: (api, transactionalId) => this.faults.takeTxnError(api, transactionalId),
    });
    this.groups = new GroupCoordinator({ now, partitionsOf: (t) => this.topics.get(t)?.partitions.length ?? 0 });
  }

  /** Registers a listener called after every append (data or marker) and expiry; returns the unsubscribe function. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Calls every change listener. */
  notify(): void {
    for (const l of [...this.listeners]) l();
  }

  /** Runs timers: transaction timeouts and group session timeouts. */
  tick(): void {
    this.txn.expire();
    this.groups.checkSessions();
  }

  private topic(name: string): Topic {
    const t = this.topics.get(name);
    if (!t) throw err(KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION, `Unknown topic '${name}': this cluster does not host it. Create it first with createTopic('${name}', { partitions })`);
    return t;
  }

  /** The log of a partition, or UNKNOWN_TOPIC_OR_PARTITION. */
  log(topic: string, partition: number): PartitionLog {
    const t = this.topic(topic);
    const log = t.partitions[partition];
    if (!log) throw err(KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION, `Topic '${topic}' has ${t.partitions.length} partitions; partition ${partition} does not exist`);
    return log;
  }

  /** Partition logs of a topic. */
  logs(topic: string): PartitionLog[] {
    return this.topic(topic).partitions;
  }

  createTopic(name: string, partitions = 1, config: Record<string, string> = {}, replicationFactor = -1): void {
    if (!/^[a-zA-Z0-9._-]{1,249}$/.test(name) || name === '.' || name === '..')
      throw err(KafkaErrorCode.INVALID_TOPIC_EXCEPTION, `Topic name '${name}' is illegal: use up to 249 of [a-zA-Z0-9._-]`);
    if (this.topics.has(name)) throw err(KafkaErrorCode.TOPIC_ALREADY_EXISTS, `Topic '${name}' already exists.`);
    if (!Number.isInteger(partitions) || partitions < 1) throw err(KafkaErrorCode.INVALID_CONFIG, `Number of partitions must be a positive integer, got ${partitions}`);
    if (!Number.isInteger(replicationFactor) || (replicationFactor < 1 && replicationFactor !== -1)) {
      throw err(KafkaErrorCode.INVALID_REPLICATION_FACTOR, `Replication factor must be larger than 0, or -1 to use the default value, got ${replicationFactor}`);
    }
    validateTopicConfig(config);
    this.topics.set(name, { name, config: { ...config }, replicationFactor: replicationFactor === -1 ? 1 : replicationFactor, partitions: Array.from({ length: partitions }, (_, p) => new PartitionLog(name, p)) });
  }

  deleteTopic(name: string): void {
    this.topic(name);
    this.topics.delete(name);
    this.groups.deleteTopic(name);
  }

  listTopics(): string[] {
    return [...this.topics.keys()].sort();
  }

  describeTopic(name: string): TopicDescription {
    const t = this.topic(name);
    return { name, partitions: t.partitions.length, config: effectiveConfig(t.config), replicationFactor: t.replicationFactor };
  }

  alterTopicConfig(name: string, config: Record<string, string>): void {
    const t = this.topic(name);
    validateTopicConfig(config);
    Object.assign(t.config, config);
  }

  endOffsets(topic: string): number[] {
    return this.logs(topic).map((l) => l.highWatermark);
  }

  /** Log start offset per partition. */
  startOffsets(topic: string): number[] {
    return this.logs(topic).map((l) => l.logStartOffset);
  }

  /**
   * DeleteRecords: per partition, records below the offset are deleted (the log start offset moves there).
   * Steps, as a Kafka leader: 1. every partition exists and no offset is beyond the high watermark
   * (OFFSET_OUT_OF_RANGE, nothing deleted); 2. move each log start offset.
   */
  deleteRecords(topic: string, offsets: ReadonlyMap<number, number>): void {
    // 1.
    for (const [partition, offset] of offsets) {
      const log = this.log(topic, partition);
      if (!Number.isSafeInteger(offset) || offset < 0 || offset > log.highWatermark) {
        throw err(KafkaErrorCode.OFFSET_OUT_OF_RANGE, `Cannot delete records of ${topic}-${partition} before offset ${offset}: the high watermark is ${log.highWatermark}`);
      }
    }
    // 2.
    for (const [partition, offset] of offsets) this.log(topic, partition).deleteRecordsBefore(offset);
  }

  /**
   * Produce of one partition's batch bytes, after the injected latency.
   * Steps: 1. injected fault (an `afterAppend` one is answered after step 7); 2. partition lookup; 3. validation of the bytes
   * (seed 001 rules; a compressed batch is decompressed to validate its records, and stored as the producer compressed
   * it unless the topic's `compression.type` names another codec, which rebuilds it, as Kafka's `LogValidator`); 4. producer id issued by this cluster (UNKNOWN_PRODUCER_ID);
   * 5. transactional batch: partition in the producer's open transaction;
   * 6. epoch/sequence, duplicate of a recent batch answered with its offset;
   * 7. append and notify.
   */
  async produce(topic: string, partition: number, bytes: Buffer): Promise<number> {
    await delay(this.faults.latency.produceMs);
    const target = this.topics.has(topic) ? parseTopicConfig(effectiveConfig(this.topic(topic).config)).compression : 'producer';
    if (target !== 'producer') await loadCompression(target);
    return this.produceNow(topic, partition, bytes);
  }

  /** {@link produce} without latency (synchronous). */
  produceNow(topic: string, partition: number, bytes: Buffer): number {
    // 1.
    const fault = this.faults.takeProduceError(topic, partition);
    if (fault && !fault.afterAppend) throw fault;
    // 2.
    const log = this.log(topic, partition);
    const tp = topicPartitionKey({ topic, partition });
    // 3.
    const config = parseTopicConfig(effectiveConfig(this.topic(topic).config));
    let batch = validateProduce(bytes, { tp, config, now: this.now() });
    if (config.compression !== 'producer' && compressionTypeOfId(batch.attributes & COMPRESSION_MASK) !== config.compression) {
      ({ bytes, batch } = recompressBatch(batch, config.compression));
    }
    if (batch.producerId !== NO_PRODUCER_ID) {
      // 5. (transactional: Kafka's transaction verification answers first)
      if (isTransactional(batch)) this.txn.verifyTransactionalProduce(batch.producerId, batch.producerEpoch, topic, partition);
      // 4. (a Kafka 4 leader accepts unknown producer ids; the embedded cluster knows every id it issued
      //    and answers the seed's UNKNOWN_PRODUCER_ID, which a real client never provokes)
      else if (!this.txn.isKnownProducerId(batch.producerId))
        throw err(KafkaErrorCode.UNKNOWN_PRODUCER_ID, `Producer id ${batch.producerId} was not issued by this cluster (InitProducerId first) for ${tp}`);
    }
    // 6.
    const check = log.producers.check(batch, tp, log.highWatermark);
    if (check.kind === 'duplicate') {
      if (fault) throw fault;
      return check.metadata.firstOffset;
    }
    // 7.
    const entry = log.appendBatch(bytes, batch, config.logAppendTime ? this.now() : undefined);
    this.notify();
    if (fault) throw fault;
    return entry.baseOffset;
  }

  /** Fetch of one partition after the injected latency. */
  async fetch(topic: string, partition: number, offset: number, isolation: Isolation, maxBytes?: number): Promise<FetchResult> {
    await delay(this.faults.latency.fetchMs);
    this.txn.expire();
    const log = this.log(topic, partition);
    if (offset < log.logStartOffset) {
      throw err(KafkaErrorCode.OFFSET_OUT_OF_RANGE, `Offset ${offset} of ${topic}-${partition} is below the log start offset ${log.logStartOffset}: those records were deleted`);
    }
    return log.fetch(offset, isolation, maxBytes);
  }

  /** First offset a reader can use for `latest` (LSO for read_committed, HW otherwise). */
  latestOffset(topic: string, partition: number, isolation: Isolation): number {
    const log = this.log(topic, partition);
    return isolation === 'read_committed' ? log.lastStableOffset : log.highWatermark;
  }

  /** Per partition the first offset with a record timestamp at or after `timestamp` (read_uncommitted), -1 when none. */
  offsetsForTime(topic: string, timestamp: number): number[] {
    return this.logs(topic).map((log) => log.fetch(0, 'read_uncommitted').records.find((r) => r.timestamp >= timestamp)?.offset ?? -1);
  }

  /** Committed offsets of a group for every partition of a topic. */
  committedOffsets(groupId: string, topic: string): number[] {
    const n = this.logs(topic).length;
    return this.groups.fetchOffsets(groupId, Array.from({ length: n }, (_, p) => ({ topic, partition: p }))).map((o: TopicPartitionOffset) => o.offset);
  }
}
