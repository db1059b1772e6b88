/**
 * The embedded cluster's {@link RawProducerPort}: encodes each call as one v2
 * record batch (bytes, CRC32C) and hands it to the broker, which decodes and
 * validates those bytes. Keeps producer id, epoch and per-partition
 * sequences; adds partitions to the transaction before the first produce.
 */
import { IllegalStateError, KafkaProtocolError, ProducerFencedError, isProducerFenced } from '../../../errors.js';
import type { ProduceAck, ProduceBatch, RawProducerOptions, RawProducerPort, TopicPartitionOffset, WireRecord } from '../../port.js';
import { BatchAttr, encodeBatch, type RecordHeader } from './record-batch.js';
import type { Broker } from './broker.js';
import { incrementSequence } from './producer-state.js';
import { topicPartitionKey } from '../../../records/topic-partition.js';
import { StateMachine, type GuardTable, type TransitionTable } from '../../../internal/state-machine.js';
import { loadCompression } from '../../../records/compression.js';

/** Client-side producer states. */
type ProducerState = 'UNINITIALIZED' | 'READY' | 'IN_TRANSACTION' | 'ENDING' | 'FATAL' | 'CLOSED';

/** Client-side transitions (any live state may turn FATAL; every state may close). */
const TRANSITIONS: TransitionTable<ProducerState> = {
  UNINITIALIZED: ['READY', 'FATAL', 'CLOSED'],
  READY: ['IN_TRANSACTION', 'FATAL', 'CLOSED'],
  IN_TRANSACTION: ['ENDING', 'FATAL', 'CLOSED'],
  ENDING: ['READY', 'FATAL', 'CLOSED'],
  FATAL: ['CLOSED'],
  CLOSED: [],
};

/** Which methods each state allows. */
const ALLOWED: GuardTable<ProducerState> = {
  connect: ['UNINITIALIZED'],
  beginTransaction: ['READY'],
  produce: ['READY', 'IN_TRANSACTION'],
  sendOffsets: ['IN_TRANSACTION'],
  endTransaction: ['IN_TRANSACTION'],
};

/** Converts port headers to record headers. */
export function toRecordHeaders(headers: WireRecord['headers'] | undefined): RecordHeader[] {
  return Object.entries(headers ?? {}).map(([key, v]) => ({ key, value: typeof v === 'string' ? Buffer.from(v, 'utf8') : v }));
}

/** An idempotent (optionally transactional) producer of the embedded cluster. */
export class EmbeddedRawProducer implements RawProducerPort {
  readonly transactionalId: string | undefined;
  private readonly sm = new StateMachine<ProducerState>('EmbeddedRawProducer', TRANSITIONS, 'UNINITIALIZED', {
    guards: ALLOWED,
    messages: { wrongState: (d) => `${d.method}() is not allowed in producer state ${d.state}; allowed in: ${d.allowed.join(', ')}` },
  });
  private fatalError: Error | undefined;
  private producerId = -1;
  private epoch = -1;
  private readonly sequences = new Map<string, number>();
  private readonly chains = new Map<string, Promise<unknown>>();
  private readonly txnPartitions = new Set<string>();
  private txnGroups = new Set<string>();

  constructor(private readonly broker: Broker, private readonly options: RawProducerOptions) {
    this.transactionalId = options.transactionalId;
  }
  /** The transactional id, for the transactional calls (their state guards admit only a transactional producer). */
  private get txnId(): string {
    if (this.transactionalId === undefined) throw new IllegalStateError('This call needs a producer created with a transactionalId');
    return this.transactionalId;
  }


  private get state(): ProducerState {
    return this.sm.state;
  }

  private guard(method: keyof typeof ALLOWED): void {
    if (this.state === 'FATAL') throw this.fatalError ?? new ProducerFencedError('The producer was fenced; close it and create a new one');
    this.sm.guard(method);
  }

  /**
   * Fencing errors make the producer unusable (port contract): they become a
   * `ProducerFencedError` whose `cause` is the broker's `KafkaProtocolError`,
   * as the kafkajs adapter does; a failed EndTxn is fatal with its own error.
   */
  private failed(e: unknown, fatal = false): never {
    if (e instanceof KafkaProtocolError && isProducerFenced(e)) {
      e = new ProducerFencedError(`${e.message} — the producer is unusable: close it and create a new one`, { cause: e });
      fatal = true;
    }
    if (fatal) {
      this.sm.tryTransition('FATAL'); // not after close (a late send of a closed producer)
      this.fatalError = e as Error;
    }
    throw e;
  }

  async connect(): Promise<void> {
    this.guard('connect');
    await loadCompression(this.options.compressionType ?? 'none');
    const { producerId, epoch } = this.broker.txn.initProducerId(this.transactionalId, this.options.transactionTimeoutMs ?? 60_000);
    this.producerId = producerId;
    this.epoch = epoch;
    this.sm.transition('READY');
  }

  async beginTransaction(): Promise<void> {
    if (this.transactionalId === undefined) throw new IllegalStateError('beginTransaction() needs a producer created with a transactionalId');
    this.guard('beginTransaction');
    this.txnPartitions.clear();
    this.txnGroups = new Set();
    this.sm.transition('IN_TRANSACTION');
  }

  /**
   * Sends one batch. Steps: 1. state guard (a transactional producer needs an
   * open transaction); 2. serialize behind earlier calls for the partition;
   * 3. AddPartitionsToTxn on first use; 4. encode with the next sequence;
   * 5. broker Produce; 6. advance the sequence only on success.
   */
  produce(batch: ProduceBatch): Promise<ProduceAck> {
    // 1.
    this.guard('produce');
    if (this.transactionalId !== undefined && this.state !== 'IN_TRANSACTION')
      return Promise.reject(new IllegalStateError('produce() of a transactional producer needs an open transaction (beginTransaction first); allowed in: IN_TRANSACTION'));
    // 2.
    const key = topicPartitionKey(batch);
    const run = (this.chains.get(key) ?? Promise.resolve()).catch(() => undefined).then(() => this.send(key, batch));
    this.chains.set(key, run);
    return run;
  }

  private async send(key: string, batch: ProduceBatch): Promise<ProduceAck> {
    if (this.state === 'FATAL') throw this.fatalError;
    try {
      // 3.
      const transactional = this.transactionalId !== undefined;
      if (transactional && !this.txnPartitions.has(key)) {
        this.broker.log(batch.topic, batch.partition);
        this.broker.txn.addPartitions(this.txnId, this.producerId, this.epoch, [batch]);
        this.txnPartitions.add(key);
      }
      // 4.
      const seq = this.sequences.get(key) ?? 0;
      const bytes = encodeBatch({
        attributes: transactional ? BatchAttr.TRANSACTIONAL : 0,
        producerId: this.producerId,
        producerEpoch: this.epoch,
        baseSequence: seq,
        compression: this.options.compressionType ?? 'none',
        records: batch.records.map((r) => ({ key: r.key, value: r.value, headers: toRecordHeaders(r.headers), timestamp: r.timestamp })),
      });
      // 5.
      const baseOffset = await this.broker.produce(batch.topic, batch.partition, bytes);
      // 6.
      this.sequences.set(key, incrementSequence(seq, batch.records.length));
      return { topic: batch.topic, partition: batch.partition, baseOffset };
    } catch (e) {
      return this.failed(e);
    }
  }

  async sendOffsets(groupId: string, offsets: TopicPartitionOffset[]): Promise<void> {
    this.guard('sendOffsets');
    try {
      if (!this.txnGroups.has(groupId)) {
        this.broker.txn.addOffsets(this.txnId, this.producerId, this.epoch, groupId);
        this.txnGroups.add(groupId);
      }
      this.broker.txn.txnOffsetCommit(this.txnId, this.producerId, this.epoch, groupId, offsets);
    } catch (e) {
      this.failed(e);
    }
  }

  commitTransaction(): Promise<void> {
    return this.endTransaction(true);
  }

  abortTransaction(): Promise<void> {
    return this.endTransaction(false);
  }

  /** EndTxn: waits for in-flight produces; skipped (like Java) when nothing was added to the transaction. */
  private async endTransaction(commit: boolean): Promise<void> {
    this.guard('endTransaction');
    this.sm.transition('ENDING');
    await Promise.allSettled([...this.chains.values()]);
    if (this.state !== 'ENDING') throw this.fatalError;
    try {
      if (this.txnPartitions.size > 0 || this.txnGroups.size > 0) this.broker.txn.endTxn(this.txnId, this.producerId, this.epoch, commit);
      this.sm.transition('READY');
    } catch (e) {
      this.failed(e, true);
    }
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.chains.values()]);
    this.sm.tryTransition('CLOSED'); // idempotent
  }
}
