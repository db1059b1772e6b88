/**
 * `TransactionalProducer`: a Java-style transactional producer on top of the
 * cluster port, with KIP-1059's {@link TxnSendOption} (DESIGN.md §3) and
 * KIP-467-style culprit isolation (DESIGN.md §4).
 */
import type { TopicPartitionOffset } from '../records/types.js';
import { ConfigError, IllegalStateError, TransactionAbortableError, errorKindOf } from '../errors.js';
import { componentLogger, type Logger } from '../internal/logger.js';
import { FailureState } from './internal/failure-state.js';
import { ProducerConnection } from './internal/producer-connection.js';
import { retryRetriable } from '../internal/retry.js';
import { SendPipeline, type PipelineSettings } from './internal/send-pipeline.js';
import { resolveSettings } from './internal/settings.js';
import { TopicConfigCache } from './internal/topic-config-cache.js';
import { checkTxnOffsets } from './internal/offset-checks.js';
import { ProducerState, TxnStateMachine, type ProducerStateName } from './internal/txn-state.js';
import type { ProducerRecord, RecordMetadata, SendCallback, TransactionalProducerOptions } from './producer-types.js';
import { TxnSendOption } from './txn-send-option.js';

export type { ProducerRecord, RecordMetadata, SendCallback, TransactionalProducerOptions } from './producer-types.js';
export { ProducerState, type ProducerStateName } from './producer-state.js';

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
  readonly #pipeline: SendPipeline;
  readonly #conn: ProducerConnection;
  #initPromise: Promise<void> | undefined;
  readonly #failure: FailureState;
  readonly #topics: TopicConfigCache;
  #aborting: Error | undefined;
  #endingTxn: Promise<unknown> | undefined;
  #closing: Error | undefined;
  #closePromise: Promise<void> | undefined;

  constructor(options: TransactionalProducerOptions) {
    const settings = resolveSettings(options);
    this.#settings = settings;
    this.#options = options;
    this.#conn = new ProducerConnection(options);
    this.#log = componentLogger('transactional-producer', options.logger, { transactionalId: options.transactionalId });
    this.#failure = new FailureState(this.#sm, this.#log, options.transactionalId, (err) => this.#pipeline.failUnsent(err));
    const cache = (this.#topics = new TopicConfigCache(() => this.#conn.admin, {
      deliveryTimeoutMs: settings.deliveryTimeoutMs,
      maxBlockMs: settings.maxBlockMs, // issue 12 item 5
      retryBackoffMs: settings.retryBackoffMs,
      stopError: () => this.#stopError(),
    }));
    this.#pipeline = new SendPipeline(settings, cache, {
      produce: (batch) => this.#conn.produce(batch),
      stopError: () => this.#stopError(),
      onFatal: (err) => this.#failure.toFatal(err),
      onRecordFailure: (err, option) => option === TxnSendOption.NONE && this.#failure.toAbortable(err),
      onCallbackError: (err) => this.#failure.callbackThrew(err),
      onUnknownOutcome: (err) => this.#failure.toAbortable(err),
      fatalError: () => this.#failure.fatal,
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
        await this.#conn.connect();
        if (this.#sm.state === S.INITIALIZING) this.#sm.transition(S.READY);
      } catch (err) {
        if (errorKindOf(err) === 'retriable' && this.#sm.state === S.INITIALIZING) {
          await this.#conn.close();
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
    this.#conn.begin();
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
    this.#sm.guardSend(this.transactional, option === TxnSendOption.IGNORE_SEND_ERRORS);
    if (this.#failure.fatal) return this.#pipeline.reject(callback, this.#failure.fatal);
    if (this.#failure.abortable) return this.#pipeline.reject(callback, this.#failure.abortable);
    if (this.#sm.state === S.UNINITIALIZED) void this.initTransactions().catch(() => undefined);
    return this.#pipeline.submit(record, callback, option);
  }

  /**
   * Resolves once the producer's buffer (`bufferMemoryBytes`) has room, at once
   * when it has. `send()` never throws for a full buffer (the record waits and
   * its promise resolves later), so a loop sending many records awaits this
   * between sends to keep its memory bounded, as a blocking Java `send()` would.
   */
  bufferAvailable(): Promise<void> {
    return this.#pipeline.bufferAvailable(); // issue 12 item 8 (internal/buffer-memory.ts)
  }

  /**
   * Adds consumer offsets to the open transaction (committed with it).
   * Allowed in state IN_TRANSACTION; rejects with the abortable or fatal cause otherwise.
   * Rejects with `IllegalArgumentError` (nothing sent, transaction still usable) for an
   * empty group id, an offset or partition that is not a non-negative integer, an
   * unknown topic or a partition the topic does not have.
   */
  async sendOffsetsToTransaction(offsets: TopicPartitionOffset[], groupId: string): Promise<void> {
    this.#failure.throwIfFailed();
    this.#sm.guard('sendOffsetsToTransaction');
    // Issue 12 item 3: IllegalArgumentError before any I/O of the commit; the transaction stays usable.
    await checkTxnOffsets(offsets, groupId, (t) => this.#topics.get(t), (t) => this.#conn.admin.describeTopic(t));
    this.#sm.guard('sendOffsetsToTransaction');
    try {
      await retryRetriable(() => this.#conn.sendOffsets(groupId, offsets), this.#settings);
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
      await this.#endTxnRequest('commit');
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
      await this.#endTxnRequest('abort');
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
    await this.#conn.close();
  }

  /** Why records not yet written must fail now: fatal error, abort in progress, or close. */
  #stopError(): Error | undefined {
    return this.#failure.fatal ?? this.#aborting ?? this.#closing;
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

  /** EndTxn(commit|abort); any failure is fatal (the raw producer is unusable afterwards). */
  async #endTxnRequest(kind: 'commit' | 'abort'): Promise<void> {
    try {
      await this.#conn.endTxn(kind);
    } catch (err) {
      throw this.#failure.toFatal(err);
    }
  }

  #endTxn(): void {
    this.#failure.clearAbortable();
    this.#aborting = undefined;
    if (this.#sm.state !== S.CLOSED && !this.#failure.fatal) this.#sm.transition(S.READY);
  }
}
