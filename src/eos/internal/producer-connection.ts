/**
 * The producer's clients: the raw producer (one per TransactionalProducer) and
 * the admin client used for topic configs, plus the pending client-side
 * `beginTransaction` that every request of the transaction waits for.
 */
import type { AdminPort, ProduceAck, ProduceBatch, RawProducerPort, TopicPartitionOffset } from '../../cluster/port.js';
import { IllegalStateError } from '../../errors.js';
import type { TransactionalProducerOptions } from '../producer-types.js';
import { connectClients } from './cluster-factory.js';

function notInitialised(): never {
  throw new IllegalStateError('The producer is not initialised: call initTransactions() first (state UNINITIALIZED)');
}

/** Raw producer + admin of one TransactionalProducer. */
export class ProducerConnection {
  #raw: RawProducerPort | undefined;
  #admin: AdminPort | undefined;
  #txnBegin: Promise<void> | undefined;

  constructor(private readonly options: TransactionalProducerOptions) {}

  /** The admin client (after {@link connect} started). */
  get admin(): AdminPort {
    return this.#admin ?? notInitialised();
  }

  /** Creates the clients and connects the raw producer (InitProducerId for a transactional one). */
  async connect(): Promise<void> {
    const { admin, raw } = connectClients(this.options);
    this.#admin = admin;
    this.#raw = raw;
    await raw.connect();
  }

  /** Starts a transaction on the raw producer; later requests wait for it. */
  begin(): void {
    const begin = (this.#raw ?? notInitialised()).beginTransaction();
    begin.catch(() => undefined);
    this.#txnBegin = begin;
  }

  /** One produce request (one topic-partition). */
  async produce(batch: ProduceBatch): Promise<ProduceAck> {
    if (this.#txnBegin) await this.#txnBegin;
    return (this.#raw ?? notInitialised()).produce(batch);
  }

  /** AddOffsetsToTxn + TxnOffsetCommit. */
  async sendOffsets(groupId: string, offsets: TopicPartitionOffset[]): Promise<void> {
    if (this.#txnBegin) await this.#txnBegin;
    await (this.#raw ?? notInitialised()).sendOffsets(groupId, offsets);
  }

  /** EndTxn(commit | abort). */
  async endTxn(kind: 'commit' | 'abort'): Promise<void> {
    if (this.#txnBegin) await this.#txnBegin;
    const raw = this.#raw ?? notInitialised();
    await (kind === 'commit' ? raw.commitTransaction() : raw.abortTransaction());
    this.#txnBegin = undefined;
  }

  /** Closes both clients; never rejects. */
  async close(): Promise<void> {
    await Promise.allSettled([this.#raw?.close(), this.#admin?.close()]);
  }
}
