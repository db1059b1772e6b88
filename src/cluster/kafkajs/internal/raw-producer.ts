/**
 * {@link RawProducerPort} over a kafkajs producer.
 *
 * Decisions (DESIGN.md §2):
 * - Every call sends exactly one topic-partition, partition chosen by the
 *   caller (the kafkajs partitioner just returns `message.partition`), acks=-1.
 *   kafkajs rolls the partition's sequence back when the request throws, which
 *   is exact for a single-partition request: the broker wrote nothing.
 * - Transactional producers use `producer.transaction()` (one kafkajs
 *   transaction object per sluice transaction); its eosManager adds the
 *   partition to the transaction before the first produce to it.
 *   Non-transactional producers are kafkajs-idempotent.
 * - kafkajs' retries are bounded (5 tries, ≤ ~3 s): they only repeat retriable
 *   answers (NOT_LEADER, CONCURRENT_TRANSACTIONS after a commit, ...) with the
 *   same sequence; record-level and fencing answers are not retriable for
 *   kafkajs and reach the caller at once. Longer retrying is the eos layer's.
 * - A send that failed without a broker answer (connection lost, timeout) has
 *   an unknown outcome: the broker may have written it, yet kafkajs rolled the
 *   sequence back. Re-sending the same records is safe (the broker
 *   de-duplicates); sending different records to that partition would be
 *   silently dropped as a duplicate, so that is refused with ProducerFencedError.
 * - After fencing, an unknown-outcome violation or a failed EndTxn the producer
 *   is unusable: later calls reject with ProducerFencedError.
 */
import { createHash } from 'node:crypto';
import type { IHeaders, Kafka, Producer, Transaction } from 'kafkajs';
import { IllegalStateError, KafkaProtocolError, KafkaErrorCode, ProducerFencedError, StreamsError, isOutcomeUnknown } from '../../../errors.js';
import type { Logger } from '../../../internal/logger.js';
import type { ProduceAck, ProduceBatch, RawProducerOptions, RawProducerPort, TopicPartitionOffset, WireRecord } from '../../port.js';
import { isProducerFencing, mapProducerError } from './error-mapping.js';
import { kafkaJsRetry } from './retry-options.js';
import { connectionFactsOf, type Access, type ConnectionFacts } from './security-errors.js';
import { topicPartitionKey } from '../../../records/topic-partition.js';
import { compressionCodecId, loadCompression, type CompressionType } from '../../../records/compression.js';

/** kafkajs retry settings of the raw producer (see the module comment). */
export const PRODUCER_RETRY = { retries: 5, initialRetryTime: 100, maxRetryTime: 1000 } as const;

/** Raw producer backed by one kafkajs producer. */
export class KafkaJsRawProducer implements RawProducerPort {
  readonly transactionalId: string | undefined;
  private readonly producer: Producer;
  private readonly logger: Logger;
  private readonly facts: ConnectionFacts | undefined;
  private transaction: Transaction | undefined;
  private unusable: StreamsError | undefined;
  private connected = false;
  private closed = false;
  /** Partitions whose last send has an unknown outcome → fingerprint of its records. */
  private readonly uncertain = new Map<string, string>();
  /** kafkajs' codec number (Kafka's id) of every batch; sluice's Produce encoder compresses with it. */
  private readonly compression: number;
  private readonly compressionType: CompressionType;

  constructor(kafka: Kafka, options: RawProducerOptions, logger: Logger) {
    this.transactionalId = options.transactionalId;
    this.logger = logger;
    this.compressionType = options.compressionType ?? 'none';
    this.compression = compressionCodecId(this.compressionType);
    this.facts = connectionFactsOf(kafka);
    const transactional = options.transactionalId !== undefined;
    this.producer = kafka.producer({
      // For a transactional producer kafkajs makes the transaction's sender idempotent itself;
      // `idempotent: true` would only add a second, unused, non-transactional producer id.
      idempotent: !transactional,
      transactionalId: options.transactionalId,
      transactionTimeout: options.transactionTimeoutMs ?? 60_000,
      allowAutoTopicCreation: false,
      retry: kafkaJsRetry(options.connection ?? {}, { ...PRODUCER_RETRY }),
      createPartitioner: () => ({ message }) => message.partition ?? 0,
    });
  }

  /** 1. load the codec; 2. connect; 3. InitProducerId (a transactional id fences older producers, whose open transaction Kafka completes or aborts). */
  async connect(): Promise<void> {
    this.assertUsable('connect');
    if (this.connected) return;
    try {
      await loadCompression(this.compressionType);
      await this.producer.connect();
      this.connected = true;
      if (this.transactionalId !== undefined) {
        // kafkajs runs InitProducerId lazily in transaction(); an empty transaction ended at once sends no EndTxn.
        const init = await this.producer.transaction();
        await init.abort();
        if (this.facts) this.facts.answered = true;
      }
    } catch (error) {
      throw this.fail(error, 'connect', false);
    }
  }

  async beginTransaction(): Promise<void> {
    this.assertUsable('beginTransaction');
    if (this.transactionalId === undefined) {
      throw new IllegalStateError('beginTransaction() needs a producer created with a transactionalId');
    }
    if (this.transaction) throw new IllegalStateError('beginTransaction(): a transaction is already open; commit or abort it first');
    if (!this.connected) throw new IllegalStateError('beginTransaction(): call connect() first');
    try {
      this.transaction = await this.producer.transaction();
    } catch (error) {
      throw this.fail(error, 'beginTransaction', false);
    }
  }

  async produce(batch: ProduceBatch): Promise<ProduceAck> {
    const { topic, partition, records } = batch;
    const where = `produce to ${topic}-${partition}`;
    this.assertUsable(where);
    if (!this.connected) throw new IllegalStateError(`${where}: call connect() first`);
    const sender = this.transactionalId === undefined ? this.producer : this.transaction;
    if (!sender) throw new IllegalStateError(`${where}: a transactional producer needs beginTransaction() first`);
    if (records.length === 0) throw new IllegalStateError(`${where}: a batch needs at least one record`);
    // 1. Refuse new records after an unknown outcome (see the module comment).
    const key = topicPartitionKey({ topic, partition });
    const pending = this.uncertain.get(key);
    if (pending !== undefined && pending !== fingerprintOf(records)) {
      this.unusable = new ProducerFencedError(
        `${where}: the previous batch to this partition has an unknown outcome and different records were sent; the producer is unusable`,
      );
      throw this.unusable;
    }
    // 2. One request, one partition.
    try {
      const metadata = await sender.send({
        topic,
        acks: -1,
        ...(this.compression === 0 ? {} : { compression: this.compression }),
        // (a numeric timestamp: sluice's Produce encoder takes it as is; kafkajs' own one, used only for
        // compressed requests, computes deltas with it just as well; both write a null header value as
        // length -1, though kafkajs' IHeaders type leaves null out; kafkajs' Message type says a string timestamp)
        messages: records.map((r) => ({ partition, key: r.key, value: r.value, headers: r.headers as IHeaders, timestamp: r.timestamp as unknown as string })),
      });
      this.uncertain.delete(key);
      if (this.facts) this.facts.answered = true;
      const ack = metadata.find((m) => m.topicName === topic && m.partition === partition);
      if (!ack) {
        // kafkajs sends nothing for a partition its metadata does not know, and answers with no ack.
        throw new KafkaProtocolError(
          KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
          `UNKNOWN_TOPIC_OR_PARTITION (3): partition ${partition} of topic '${topic}' does not exist`,
        );
      }
      return { topic, partition, baseOffset: Number(ack.baseOffset ?? ack.offset ?? -1) };
    } catch (error) {
      const mapped = this.fail(error, where, false, [{ resource: 'TOPIC', operation: 'WRITE', name: topic }]);
      // 3. Remember partitions whose outcome is unknown (no broker answer).
      if (isUnknownOutcome(mapped)) this.uncertain.set(key, fingerprintOf(records));
      else this.uncertain.delete(key);
      throw mapped;
    }
  }

  async sendOffsets(groupId: string, offsets: TopicPartitionOffset[]): Promise<void> {
    this.assertUsable('sendOffsets');
    const transaction = this.requireTransaction('sendOffsets');
    const byTopic = new Map<string, Array<{ partition: number; offset: string }>>();
    for (const o of offsets) {
      const list = byTopic.get(o.topic) ?? [];
      list.push({ partition: o.partition, offset: String(o.offset) });
      byTopic.set(o.topic, list);
    }
    try {
      await transaction.sendOffsets({
        consumerGroupId: groupId,
        topics: [...byTopic].map(([topic, partitions]) => ({ topic, partitions })),
      });
    } catch (error) {
      throw this.fail(error, `sendOffsets for group '${groupId}'`, false, [{ resource: 'GROUP', operation: 'READ', name: groupId }]);
    }
  }

  commitTransaction(): Promise<void> {
    return this.endTransaction(true);
  }

  abortTransaction(): Promise<void> {
    return this.endTransaction(false);
  }

  /** EndTxn; any failure makes the producer unusable (kafkajs' state machine stays in COMMITTING/ABORTING). */
  private async endTransaction(commit: boolean): Promise<void> {
    const what = commit ? 'commitTransaction' : 'abortTransaction';
    this.assertUsable(what);
    const transaction = this.requireTransaction(what);
    try {
      await (commit ? transaction.commit() : transaction.abort());
      this.transaction = undefined;
    } catch (error) {
      this.transaction = undefined;
      throw this.fail(error, what, true);
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.transaction = undefined;
    try {
      await this.producer.disconnect();
    } catch (error) {
      this.logger.debug({ err: error }, 'producer disconnect failed');
    }
  }

  private requireTransaction(what: string): Transaction {
    if (this.transactionalId === undefined) throw new IllegalStateError(`${what}() needs a producer created with a transactionalId`);
    if (!this.transaction) throw new IllegalStateError(`${what}(): no open transaction; call beginTransaction() first`);
    return this.transaction;
  }

  private assertUsable(what: string): void {
    if (this.closed) throw new IllegalStateError(`${what}: the producer is closed`);
    if (this.unusable) {
      throw new ProducerFencedError(`${what}: the producer is unusable after an earlier error (${this.unusable.message}); close it and create a new one`, {
        cause: this.unusable,
      });
    }
  }

  /**
   * Maps an error; fencing (or any failure when `fatal`) makes the producer unusable. `access`: the resources
   * the call needs besides the transactional id (or, idempotent, the cluster), named by an authorization failure.
   */
  private fail(error: unknown, context: string, fatal: boolean, access: readonly Access[] = []): StreamsError {
    const own: Access =
      this.transactionalId === undefined
        ? { resource: 'CLUSTER', operation: 'IDEMPOTENT_WRITE' }
        : { resource: 'TRANSACTIONAL_ID', operation: 'WRITE', name: this.transactionalId };
    const mapped = mapProducerError(error, context, { facts: this.facts, access: [...access, own] });
    if (fatal || isProducerFencing(mapped)) {
      // Once per producer; fencing is how a task moves to another instance (the runtime logs that once per task at WARN).
      if (!this.unusable) this.logger[isProducerFencing(mapped) ? 'debug' : 'warn']({ err: mapped, transactionalId: this.transactionalId }, 'producer is unusable');
      this.unusable ??= mapped;
    }
    return mapped;
  }
}

/** True when the send may or may not have been written (the `outcomeUnknown` rows of `src/errors.ts`). */
function isUnknownOutcome(error: StreamsError): boolean {
  return error instanceof KafkaProtocolError && isOutcomeUnknown(error);
}

/** A digest of the records of a batch, to recognise a re-send of the same batch. */
function fingerprintOf(records: WireRecord[]): string {
  const hash = createHash('sha1');
  for (const r of records) {
    hash.update(r.key === null ? '\u0000n' : `\u0000k${r.key.length}`);
    if (r.key) hash.update(r.key);
    hash.update(r.value === null ? '\u0000n' : `\u0000v${r.value.length}`);
    if (r.value) hash.update(r.value);
    hash.update(`\u0000t${r.timestamp}`);
  }
  return `${records.length}:${hash.digest('hex')}`;
}
