/**
 * The transaction coordinator: producer ids and epochs, the state of each
 * transactional id, partitions and offsets in a transaction, EndTxn writing
 * control markers, and transaction timeouts (checked lazily on every call and
 * by {@link TxnCoordinator.expire}).
 */
import { KafkaErrorCode } from '../../../errors.js';
import { brokerError } from './broker-error.js';
import type { TopicPartitionOffset } from '../../port.js';
import { transition, type TxnState } from './txn-state.js';
import { parseTopicPartitionKey, topicPartitionKey } from '../../../records/topic-partition.js';

/** Metadata of one transactional id. */
export interface TxnMetadata {
  transactionalId: string;
  producerId: number;
  epoch: number;
  state: TxnState;
  timeoutMs: number;
  /** `<topic>-<partition>` keys (records/topic-partition.ts). */
  partitions: Set<string>;
  /** Offsets sent with TxnOffsetCommit, per group, committed on EndTxn(commit). */
  pendingOffsets: Map<string, Map<string, TopicPartitionOffset>>;
  groups: Set<string>;
  startedAt: number;
}

/** What the coordinator needs from the broker. */
export interface TxnCoordinatorDeps {
  now(): number;
  writeMarker(topic: string, partition: number, producerId: number, epoch: number, commit: boolean): void;
  commitOffsets(groupId: string, offsets: TopicPartitionOffset[]): void;
  /** Fault injection: an error to answer instead of handling the request, if any. */
  injectedFault?(api: TxnApi, transactionalId: string): Error | undefined;
}

/** Coordinator requests that can be failed by fault injection. */
export type TxnApi = 'AddPartitionsToTxn' | 'AddOffsetsToTxn' | 'TxnOffsetCommit' | 'EndTxn';

/** Max epoch before a new producer id is allocated (Kafka: Short.MAX_VALUE - 1). */
const MAX_EPOCH = 32766;

const err = brokerError;

/** The coordinator of every transactional id of the cluster. */
export class TxnCoordinator {
  private nextProducerId = 1000;
  private readonly txns = new Map<string, TxnMetadata>();
  private readonly byProducerId = new Map<number, TxnMetadata>();
  private readonly issued = new Set<number>();

  constructor(private readonly deps: TxnCoordinatorDeps) {}

  /** True when this cluster handed out the producer id. */
  isKnownProducerId(producerId: number): boolean {
    return this.issued.has(producerId);
  }

  /** Metadata of a transactional id (tests and fault injection). */
  describe(transactionalId: string): TxnMetadata | undefined {
    return this.txns.get(transactionalId);
  }

  private fault(api: TxnApi, transactionalId: string): void {
    const e = this.deps.injectedFault?.(api, transactionalId);
    if (e) throw e;
  }

  private allocate(): number {
    const id = this.nextProducerId++;
    this.issued.add(id);
    return id;
  }

  /**
   * InitProducerId. Steps:
   * 1. without a transactional id: a fresh producer id, epoch 0 (idempotent producer);
   * 2. expire timed-out transactions;
   * 3. new transactional id: fresh producer id, epoch 0;
   * 4. existing id with an open transaction: fence it (epoch + 1) and abort it (markers);
   * 5. bump the epoch (a new producer id when the epoch is exhausted); state Empty.
   */
  initProducerId(transactionalId: string | undefined, timeoutMs: number): { producerId: number; epoch: number } {
    // 1.
    if (transactionalId === undefined) return { producerId: this.allocate(), epoch: 0 };
    if (!(timeoutMs > 0) || timeoutMs > 900_000)
      throw err(KafkaErrorCode.INVALID_TRANSACTION_TIMEOUT, `The transaction timeout ${timeoutMs} is larger than transaction.max.timeout.ms (900000) or not positive`);
    // 2.
    this.expire();
    let meta = this.txns.get(transactionalId);
    // 3.
    if (!meta) {
      const producerId = this.allocate();
      meta = { transactionalId, producerId, epoch: 0, state: 'Empty', timeoutMs, partitions: new Set(), pendingOffsets: new Map(), groups: new Set(), startedAt: 0 };
      this.txns.set(transactionalId, meta);
      this.byProducerId.set(producerId, meta);
      return { producerId, epoch: 0 };
    }
    // 4.
    if (meta.state === 'Ongoing') this.fenceAndAbort(meta);
    // 5.
    if (meta.epoch >= MAX_EPOCH) {
      this.byProducerId.delete(meta.producerId);
      meta.producerId = this.allocate();
      meta.epoch = 0;
      this.byProducerId.set(meta.producerId, meta);
    } else {
      meta.epoch += 1;
    }
    meta.timeoutMs = timeoutMs;
    transition(meta, 'Empty');
    this.clearTxn(meta);
    return { producerId: meta.producerId, epoch: meta.epoch };
  }

  /** Checks producer id and epoch of a coordinator request; PRODUCER_FENCED for an older epoch. */
  private checkProducer(transactionalId: string, producerId: number, epoch: number, staleCode: number = KafkaErrorCode.PRODUCER_FENCED): TxnMetadata {
    this.expire();
    const meta = this.txns.get(transactionalId);
    if (!meta) throw err(KafkaErrorCode.INVALID_PRODUCER_ID_MAPPING, `The transactional id ${transactionalId} is unknown: call InitProducerId first`);
    if (meta.producerId !== producerId)
      throw err(KafkaErrorCode.INVALID_PRODUCER_ID_MAPPING, `Producer id ${producerId} does not belong to transactional id ${transactionalId} (current: ${meta.producerId})`);
    if (epoch !== meta.epoch)
      throw err(staleCode, `There is a newer producer with the same transactionalId ${transactionalId} which fences the current one (epoch ${epoch} < ${meta.epoch})`);
    return meta;
  }

  private begin(meta: TxnMetadata): void {
    if (meta.state === 'Ongoing') return;
    if (meta.state.startsWith('Prepare')) throw err(KafkaErrorCode.CONCURRENT_TRANSACTIONS, `Transaction ${meta.transactionalId} is completing (${meta.state})`);
    transition(meta, 'Ongoing');
    this.clearTxn(meta);
    meta.startedAt = this.deps.now();
  }

  /** AddPartitionsToTxn. */
  addPartitions(transactionalId: string, producerId: number, epoch: number, partitions: { topic: string; partition: number }[]): void {
    this.fault('AddPartitionsToTxn', transactionalId);
    const meta = this.checkProducer(transactionalId, producerId, epoch);
    this.begin(meta);
    for (const p of partitions) meta.partitions.add(topicPartitionKey(p));
  }

  /** AddOffsetsToTxn. */
  addOffsets(transactionalId: string, producerId: number, epoch: number, groupId: string): void {
    this.fault('AddOffsetsToTxn', transactionalId);
    const meta = this.checkProducer(transactionalId, producerId, epoch);
    this.begin(meta);
    meta.groups.add(groupId);
  }

  /** TxnOffsetCommit: offsets become committed only when the transaction commits. Stale epoch: INVALID_PRODUCER_EPOCH. */
  txnOffsetCommit(transactionalId: string, producerId: number, epoch: number, groupId: string, offsets: TopicPartitionOffset[]): void {
    this.fault('TxnOffsetCommit', transactionalId);
    const meta = this.checkProducer(transactionalId, producerId, epoch, KafkaErrorCode.INVALID_PRODUCER_EPOCH);
    if (meta.state !== 'Ongoing' || !meta.groups.has(groupId))
      throw err(KafkaErrorCode.INVALID_TXN_STATE, `Group ${groupId} was not added to transaction ${transactionalId} (AddOffsetsToTxn first)`);
    let pending = meta.pendingOffsets.get(groupId);
    if (!pending) meta.pendingOffsets.set(groupId, (pending = new Map()));
    for (const o of offsets) pending.set(topicPartitionKey(o), o);
  }

  /**
   * EndTxn. Steps:
   * 1. check producer id and epoch (PRODUCER_FENCED);
   * 2. a retry of the just-completed outcome succeeds; Empty or the other outcome is INVALID_TXN_STATE;
   * 3. Ongoing -> PrepareCommit/PrepareAbort;
   * 4. write a marker to every partition of the transaction;
   * 5. on commit, commit the transaction's offsets to their groups;
   * 6. -> CompleteCommit/CompleteAbort.
   */
  endTxn(transactionalId: string, producerId: number, epoch: number, commit: boolean): void {
    this.fault('EndTxn', transactionalId);
    // 1.
    const meta = this.checkProducer(transactionalId, producerId, epoch);
    // 2.
    if ((commit && meta.state === 'CompleteCommit') || (!commit && meta.state === 'CompleteAbort')) return;
    if (meta.state !== 'Ongoing')
      throw err(KafkaErrorCode.INVALID_TXN_STATE, `EndTxn(${commit ? 'commit' : 'abort'}) for ${transactionalId} in state ${meta.state}; allowed only in Ongoing`);
    this.complete(meta, commit);
  }

  private complete(meta: TxnMetadata, commit: boolean): void {
    // 3.
    transition(meta, commit ? 'PrepareCommit' : 'PrepareAbort');
    // 4.
    for (const key of meta.partitions) {
      const { topic, partition } = parseTopicPartitionKey(key);
      this.deps.writeMarker(topic, partition, meta.producerId, meta.epoch, commit);
    }
    // 5.
    if (commit) for (const [groupId, offsets] of meta.pendingOffsets) this.deps.commitOffsets(groupId, [...offsets.values()]);
    // 6.
    transition(meta, commit ? 'CompleteCommit' : 'CompleteAbort');
  }

  private clearTxn(meta: TxnMetadata): void {
    meta.partitions = new Set();
    meta.pendingOffsets = new Map();
    meta.groups = new Set();
  }

  /** Bumps the epoch of an open transaction and aborts it with the new epoch (fencing the old producer). */
  private fenceAndAbort(meta: TxnMetadata): void {
    transition(meta, 'PrepareEpochFence');
    meta.epoch += 1;
    this.complete(meta, false); // PrepareEpochFence -> PrepareAbort -> CompleteAbort
  }

  /**
   * Fences a transactional id (fault injection / timeout): bumps the epoch so
   * the current producer's next request fails, aborting its open transaction.
   */
  fence(transactionalId: string): void {
    const meta = this.txns.get(transactionalId);
    if (!meta) throw err(KafkaErrorCode.INVALID_PRODUCER_ID_MAPPING, `The transactional id ${transactionalId} is unknown`);
    if (meta.state === 'Ongoing') this.fenceAndAbort(meta);
    else meta.epoch += 1;
  }

  /** Aborts (and fences) every transaction open longer than its timeout. */
  expire(): void {
    const now = this.deps.now();
    for (const meta of this.txns.values()) {
      if (meta.state === 'Ongoing' && now - meta.startedAt > meta.timeoutMs) this.fenceAndAbort(meta);
    }
  }

  /**
   * Broker-side verification of a transactional produce: the producer's
   * epoch must be current (INVALID_PRODUCER_EPOCH) and the partition part of
   * its open transaction (INVALID_TXN_STATE).
   */
  verifyTransactionalProduce(producerId: number, epoch: number, topic: string, partition: number): void {
    this.expire();
    const meta = this.byProducerId.get(producerId);
    // Kafka 4 answers INVALID_PRODUCER_ID_MAPPING when transaction verification finds no such producer
    if (!meta) throw err(KafkaErrorCode.INVALID_PRODUCER_ID_MAPPING, `Transactional producer id ${producerId} is not mapped to any transactional id`);
    if (epoch < meta.epoch)
      throw err(KafkaErrorCode.INVALID_PRODUCER_EPOCH, `Epoch of producer ${producerId} is ${epoch}, which is smaller than the current epoch ${meta.epoch}`);
    if (meta.state !== 'Ongoing' || !meta.partitions.has(topicPartitionKey({ topic, partition })))
      throw err(KafkaErrorCode.INVALID_TXN_STATE, `Partition ${topic}-${partition} was not added to the transaction of producer ${producerId} (AddPartitionsToTxn first)`);
  }
}
