/**
 * `TransactionalProducer`: a Java-style transactional producer on top of the
 * cluster port, with KIP-1059's {@link TxnSendOption} (DESIGN.md §3) and
 * KIP-467-style culprit isolation (DESIGN.md §4).
 */
import type { AdminPort, ClusterPort, RawProducerPort, TopicPartitionOffset } from '../client/port.js';
import { ConfigError, IllegalStateError, TransactionAbortableError, errorKindOf } from '../errors.js';
import { componentLogger, type Logger } from '../internal/logger.js';
import { resolveCluster } from './internal/cluster-factory.js';
import { FailureState } from './internal/failure-state.js';
import { retryRetriable } from './internal/retry.js';
import { SendPipeline, type PipelineSettings } from './internal/send-pipeline.js';
import { resolveSettings } from './internal/settings.js';
import { TopicConfigCache } from './internal/topic-config-cache.js';
import { ProducerState, TxnStateMachine, type ProducerStateName } from './internal/txn-state.js';
import type { ProducerRecord, RecordMetadata, SendCallback, TransactionalProducerOptions } from './producer-types.js';
import { TxnSendOption } from './txn-send-option.js';

export type { ProducerRecord, RecordMetadata, SendCallback, TransactionalProducerOptions } from './producer-types.js';
export { ProducerState, type ProducerStateName } from './internal/txn-state.js';

const S = ProducerState;

/**
 * A transactional (or, without `transactionalId`, idempotent) producer.
 *
 * - `send(record, callback?, option)` validates the record against the topic's
 *   cached configs, batches per partition and delivers batch by batch; a record
 *   that fails gets its own error (never an innocent record).
 * - With `TxnSendOption.NONE` a failed record makes the transaction
 *   abortable-only; with `IGNORE_SEND_ERRORS` only that record is dropped.
 * - Fencing and fatal errors put the producer into `FATAL_ERROR`: only
 *   `close()` is allowed; create a new producer.
 *
 * Returned send promises never cause an unhandled rejection: a caller may rely
 * on the callback or on `commitTransaction()` alone.
 */
export class TransactionalProducer {
  readonly #options: TransactionalProducerOptions;
  readonly #settings: PipelineSettings;
  readonly #sm = new TxnStateMachine();
  readonly #log: Logger;
  readonly #cache: TopicConfigCache;
  readonly #pipeline: SendPipeline;
  #raw: RawProducerPort | undefined;
  #admin: AdminPort | undefined;
  #initPromise: Promise<void> | undefined;
  #txnBegin: Promise<void> | undefined;
  readonly #failure: FailureState;
  #aborting: Error | undefined;
  #endingTxn: Promise<unknown> | undefined;
  #closing: Error | undefined;
  #closePromise: Promise<void> | undefined;

  constructor(options: TransactionalProducerOptions) {
    const settings = resolveSettings(options);
    this.#settings = settings;
    this.#options = options;
    this.#log = componentLogger('transactional-producer', options.logger, { transactionalId: options.transactionalId });
    this.#failure = new FailureState(this.#sm, this.#log, options.transactionalId, (err) => this.#pipeline.failUnsent(err));
    this.#cache = new TopicConfigCache(() => this.#requireAdmin(), {
      deliveryTimeoutMs: settings.deliveryTimeoutMs,
      retryBackoffMs: settings.retryBackoffMs,
      isClosed: () => this.#sm.state === S.CLOSED,
    });
    this.#pipeline = new SendPipeline(settings, this.#cache, {
      produce: async (batch) => {
        if (this.#txnBegin) await this.#txnBegin;
        return this.#requireRaw().produce(batch);
      },
      stopError: () => this.#failure.fatal ?? this.#aborting ?? this.#closing,
      onFatal: (err) => this.#failure.toFatal(err),
      onRecordFailure: (err, option) => this.#onRecordFailure(err, option),
      onCallbackError: (err) => this.#onCallbackError(err),
      ready: () => this.#initPromise ?? Promise.resolve(),
    });
  }

  /** The current state (`UNINITIALIZED`, `READY`, `IN_TRANSACTION`, `ABORTABLE_ERROR`, `FATAL_ERROR`, ...). */
  get state(): ProducerStateName {
    return this.#sm.state;
  }

  /** The transactional id, if any. */
  get transactionalId(): string | undefined {
    return this.#options.transactionalId;
  }

  /** True when the producer has a transactional id. */
  get transactional(): boolean {
    return this.#options.transactionalId !== undefined;
  }

  /** Records sent and not yet settled. */
  get pendingSends(): number {
    return this.#pipeline.pending;
  }

  /**
   * Connects and, for a transactional producer, runs InitProducerId: older
   * producers of the same transactional id are fenced and their open
   * transaction completed or aborted. Allowed in state UNINITIALIZED.
   * A retriable failure returns to UNINITIALIZED (call again); any other is fatal.
   */
  initTransactions(): Promise<void> {
    try {
      this.#sm.guard('initTransactions');
    } catch (err) {
      return Promise.reject(err);
    }
    this.#sm.transition(S.INITIALIZING);
    this.#initPromise = (async () => {
      try {
        const cluster: ClusterPort = this.#options.cluster ?? resolveCluster(this.#options.bootstrapServers ?? [], this.#options.logger);
        this.#admin = cluster.admin();
        this.#raw = cluster.producer({
          transactionalId: this.#options.transactionalId,
          transactionTimeoutMs: this.#options.transactionTimeoutMs,
          clientId: this.#options.transactionalId ?? 'sluice-idempotent-producer',
        });
        await this.#raw.connect();
        if (this.#sm.state === S.INITIALIZING) this.#sm.transition(S.READY);
      } catch (err) {
        if (errorKindOf(err) === 'retriable' && this.#sm.state === S.INITIALIZING) {
          this.#sm.transition(S.UNINITIALIZED);
          throw err;
        }
        throw this.#failure.toFatal(err);
      }
    })();
    this.#initPromise.catch(() => undefined);
    return this.#initPromise;
  }

  /** Opens a transaction. Synchronous, as in Java. Allowed in state READY of a transactional producer. */
  beginTransaction(): void {
    if (!this.transactional) {
      throw new IllegalStateError('beginTransaction() needs a transactional producer: set `transactionalId` (state READY)');
    }
    this.#sm.guard('beginTransaction');
    this.#failure.clearAbortable();
    this.#aborting = undefined;
    const begin = this.#requireRaw().beginTransaction();
    begin.catch(() => undefined);
    this.#txnBegin = begin;
    this.#sm.transition(S.IN_TRANSACTION);
  }

  /**
   * Sends a record. Resolves with its metadata once written; rejects with the
   * record's own error. The callback is called once, before the record counts
   * as settled for `flush()` / `commitTransaction()`.
   *
   * Throws `IllegalStateError` synchronously (before any I/O) for
   * `IGNORE_SEND_ERRORS` outside a transaction, for any send of a transactional
   * producer outside a transaction, and after `close()`.
   */
  send(record: ProducerRecord, callback?: SendCallback, option: TxnSendOption = TxnSendOption.NONE): Promise<RecordMetadata> {
    if (option !== TxnSendOption.NONE && option !== TxnSendOption.IGNORE_SEND_ERRORS) {
      throw new ConfigError(`Unknown TxnSendOption '${String(option)}': use 'NONE' or 'IGNORE_SEND_ERRORS'`);
    }
    const state = this.#sm.state;
    if (option === TxnSendOption.IGNORE_SEND_ERRORS && (!this.transactional || (state !== S.IN_TRANSACTION && state !== S.ABORTABLE_ERROR && state !== S.FATAL_ERROR))) {
      throw new IllegalStateError(
        `send() with TxnSendOption.IGNORE_SEND_ERRORS is only allowed inside a transaction (state IN_TRANSACTION of a producer with a transactionalId); ` +
          `this producer is ${this.transactional ? `in state ${state}` : 'not transactional'}`,
      );
    }
    this.#sm.guard(this.transactional ? 'sendTransactional' : 'sendIdempotent', 'send');
    if (this.#failure.fatal) return this.#pipeline.reject(callback, this.#failure.fatal);
    if (this.#failure.abortable) return this.#pipeline.reject(callback, this.#failure.abortable);
    if (state === S.UNINITIALIZED) void this.initTransactions().catch(() => undefined);
    return this.#pipeline.submit(record, callback, option);
  }

  /**
   * Adds consumer offsets to the open transaction (committed with it).
   * Allowed in state IN_TRANSACTION; rejects with the abortable or fatal cause otherwise.
   */
  async sendOffsetsToTransaction(offsets: TopicPartitionOffset[], groupId: string): Promise<void> {
    this.#failure.throwIfFailed();
    this.#sm.guard('sendOffsetsToTransaction');
    try {
      if (this.#txnBegin) await this.#txnBegin;
      await retryRetriable(() => this.#requireRaw().sendOffsets(groupId, offsets), this.#settings);
    } catch (err) {
      const kind = errorKindOf(err);
      if (kind === 'fencing' || kind === 'fatal') throw this.#failure.toFatal(err);
      this.#failure.toAbortable(err as Error);
      throw err;
    }
  }

  /**
   * Commits the open transaction:
   * 1. refuse unless IN_TRANSACTION (rejects with the abortable or fatal cause);
   * 2. flush the accumulators and wait until no send is pending (loops: callbacks may add sends);
   * 3. if a record failed with NONE (or `markAbortable`), reject with that cause; state stays ABORTABLE_ERROR;
   * 4. EndTxn(commit) — a failure here is fatal (the producer must be recreated);
   * 5. state READY.
   */
  async commitTransaction(): Promise<void> {
    // 1.
    this.#failure.throwIfFailed();
    this.#sm.guard('commitTransaction');
    if (this.#endingTxn) throw new IllegalStateError('commitTransaction() is already in progress (state IN_TRANSACTION)');
    await this.#exclusive(async () => {
      // 2.
      await this.#pipeline.flush();
      // 3.
      this.#failure.throwIfFailed();
      // 4.
      this.#sm.transition(S.COMMITTING);
      try {
        if (this.#txnBegin) await this.#txnBegin;
        await this.#requireRaw().commitTransaction();
      } catch (err) {
        throw this.#failure.toFatal(err);
      }
      // 5.
      this.#endTxn();
    });
  }

  /**
   * Aborts the open transaction; allowed in IN_TRANSACTION and ABORTABLE_ERROR:
   * 1. state ABORTING; records not yet handed to the broker fail with TransactionAbortableError;
   * 2. wait for the batches in flight;
   * 3. EndTxn(abort) — a failure here is fatal;
   * 4. state READY.
   */
  async abortTransaction(): Promise<void> {
    if (this.#failure.fatal) throw this.#failure.fatal;
    this.#sm.guard('abortTransaction');
    if (this.#endingTxn) throw new IllegalStateError('commitTransaction() is in progress; abort after it settles (state ABORTABLE_ERROR)');
    await this.#exclusive(async () => {
      // 1.
      this.#sm.transition(S.ABORTING);
      this.#aborting = new TransactionAbortableError('The transaction was aborted before this record was sent', {
        cause: this.#failure.abortable,
      });
      this.#pipeline.failUnsent(this.#aborting);
      // 2.
      await this.#pipeline.flush();
      if (this.#failure.fatal) throw this.#failure.fatal;
      // 3.
      try {
        if (this.#txnBegin) await this.#txnBegin;
        await this.#requireRaw().abortTransaction();
      } catch (err) {
        throw this.#failure.toFatal(err);
      }
      // 4.
      this.#endTxn();
    });
  }

  /** Seals every batch and waits until every pending send settled (callbacks included). Never rejects for record failures. */
  async flush(): Promise<void> {
    this.#sm.guard('flush');
    await this.#pipeline.flush();
  }

  /**
   * Puts the open transaction into the abortable-error state exactly as a
   * failed NONE send does (e.g. a production handler answered FAIL). Allowed in
   * IN_TRANSACTION (and a no-op in ABORTABLE_ERROR, ABORTING, FATAL_ERROR).
   */
  markAbortable(error: Error): void {
    this.#sm.guard('markAbortable');
    this.#failure.toAbortable(error);
  }

  /**
   * Closes the producer; allowed in every state, idempotent. An open
   * transaction is aborted (best effort); sends not yet written fail.
   */
  close(): Promise<void> {
    this.#closePromise ??= this.#doClose();
    return this.#closePromise;
  }

  async #doClose(): Promise<void> {
    if (this.#endingTxn) await this.#endingTxn.catch(() => undefined);
    const state: ProducerStateName = this.#sm.state;
    if (state === S.IN_TRANSACTION || state === S.ABORTABLE_ERROR) {
      await this.abortTransaction().catch((err: unknown) => this.#log.warn({ err }, 'abort on close failed'));
    } else if (state !== S.FATAL_ERROR) {
      await this.#pipeline.flush();
    }
    this.#closing = new IllegalStateError('The producer was closed before this record was sent (state CLOSED)');
    this.#pipeline.failUnsent(this.#closing);
    this.#sm.transition(S.CLOSED);
    await this.#initPromise?.catch(() => undefined);
    await Promise.allSettled([this.#raw?.close(), this.#admin?.close()]);
  }

  /** Runs a commit or abort; only one at a time. */
  async #exclusive(run: () => Promise<void>): Promise<void> {
    const p = run();
    this.#endingTxn = p;
    try {
      await p;
    } finally {
      this.#endingTxn = undefined;
    }
  }

  #endTxn(): void {
    this.#txnBegin = undefined;
    this.#failure.clearAbortable();
    this.#aborting = undefined;
    if (this.#sm.state !== S.CLOSED && !this.#failure.fatal) this.#sm.transition(S.READY);
  }

  #onRecordFailure(err: Error, option: TxnSendOption): void {
    if (option === TxnSendOption.NONE && this.transactional && this.#sm.state === S.IN_TRANSACTION && !this.#aborting) {
      this.#failure.toAbortable(err);
    }
  }

  #onCallbackError(err: unknown): void {
    this.#log.error({ err }, 'a send callback threw');
    if (this.#sm.state === S.IN_TRANSACTION) this.#failure.toAbortable(err instanceof Error ? err : new Error(String(err)));
  }

  #requireRaw(): RawProducerPort {
    if (!this.#raw) throw new IllegalStateError('The producer is not initialised: call initTransactions() first (state UNINITIALIZED)');
    return this.#raw;
  }

  #requireAdmin(): AdminPort {
    if (!this.#admin) throw new IllegalStateError('The producer is not initialised: call initTransactions() first (state UNINITIALIZED)');
    return this.#admin;
  }
}
