/**
 * `StreamsProducer`: a Java-style transactional (or idempotent) producer over the cluster port with
 * KIP-1059's {@link TxnSendOption} (DESIGN.md §3). The one place that holds the transaction state: its
 * `TxnStateMachine` (producer-types.ts: the shared guarded state machine plus the cause of an error state).
 * Batching and delivery: `internal/partition-sender.ts`.
 */
import type { AdminPort, ProduceAck, ProduceBatch, RawProducerPort } from '../cluster/port.js';
import { ConfigError, IllegalStateError, ProducerFencedError, TransactionAbortableError, errorKindOf, isProducerFenced } from '../errors.js';
import { componentLogger, type Logger } from '../internal/logger.js';
import { retryRetriable } from '../internal/retry.js';
import type { TopicPartitionOffset } from '../records/types.js';
import { PartitionSender, type SenderOwner } from './internal/partition-sender.js';
import { ProducerState, TxnStateMachine, resolveSettings, type ProducerRecord, type ProducerSettings, type ProducerStateName, type RecordMetadata, type SendCallback, type StreamsProducerOptions } from './producer-types.js';
import { checkTxnOffsets } from './internal/offset-checks.js';
import { TxnSendOption } from './txn-send-option.js';
import { TopicMetadataCache } from './topic-metadata.js';

const S = ProducerState;

/** A transactional (or, without `transactionalId`, idempotent) producer; the contract is `TransactionalProducer`'s (its public face). */
export class StreamsProducer {
  readonly #options: StreamsProducerOptions;
  readonly #settings: ProducerSettings;
  readonly #sm = new TxnStateMachine();
  readonly #log: Logger;
  readonly #sender: PartitionSender;
  /** Topic metadata: the shared cache of `options.topicMetadata`, else this producer's own (on {@link #admin}). */
  readonly #metadata: TopicMetadataCache;
  #raw: RawProducerPort | undefined;
  /** This producer's own admin client: only without a shared `topicMetadata` (created on connect, closed on close). */
  #admin: AdminPort | undefined;
  /** The raw producer's beginTransaction of the open transaction: every request of it waits for it. */
  #begun: Promise<void> | undefined;
  /** Set when a write was given up with an unknown outcome: the epoch must be bumped (new raw producer) before reuse. */
  #epochBumpNeeded = false;
  #init: Promise<void> | undefined;
  #ending: Promise<void> | undefined;
  #closing: Promise<void> | undefined;

  constructor(options: StreamsProducerOptions) {
    if (!options.cluster) throw new ConfigError('A producer needs `cluster` (a ClusterPort, e.g. an EmbeddedKafkaCluster) or `bootstrapServers`');
    this.#options = options;
    this.#settings = resolveSettings(options);
    this.#log = componentLogger('transactional-producer', options.logger, { transactionalId: options.transactionalId });
    this.#metadata = options.topicMetadata ?? new TopicMetadataCache(() => this.#admin ?? notInitialised(), this.#log);
    const owner: SenderOwner = {
      produce: (batch) => this.#produce(batch),
      stopError: () => this.#sm.causeIn(S.FATAL_ERROR, S.ABORTING, S.CLOSED),
      fatalError: () => this.#sm.causeIn(S.FATAL_ERROR),
      recordFailed: (error, option) => {
        // NONE, or a write that may be in the log: the transaction can only abort (whatever the option)
        const unknownOutcome = errorKindOf(error) === 'unknown_outcome';
        if (option === TxnSendOption.NONE || unknownOutcome) this.#toAbortable(error);
        if (unknownOutcome && this.transactional) this.#epochBumpNeeded = true; // bumped by the abort (step 4)
      },
      toFatal: (error) => this.#toFatal(error),
      ready: () => this.#init ?? Promise.resolve(),
    };
    this.#sender = new PartitionSender(this.#settings, owner, this.#metadata);
  }

  /** The current state (`UNINITIALIZED`, `READY`, `IN_TRANSACTION`, `ABORTABLE_ERROR`, `FATAL_ERROR`, ...). */
  get state(): ProducerStateName { return this.#sm.state; }
  /** The transactional id, if any. */
  get transactionalId(): string | undefined { return this.#options.transactionalId; }
  /** True when the producer has a transactional id (`transactional`). */
  get transactional(): boolean { return this.#options.transactionalId !== undefined; }
  /** Records sent and not yet settled. */
  get pendingSends(): number { return this.#sender.pending; }

  /** Connect + InitProducerId (fences older producers of the id). UNINITIALIZED only; a retriable failure returns there, any other is fatal. */
  async initTransactions(): Promise<void> {
    this.#sm.guard('initTransactions');
    this.#sm.transition(S.INITIALIZING);
    const init = this.#connect().then(
      () => void (this.#sm.state === S.INITIALIZING && this.#sm.transition(S.READY)),
      async (error: unknown) => {
        if (errorKindOf(error) !== 'retriable' || this.#sm.state !== S.INITIALIZING) throw this.#toFatal(error);
        await this.#closeClients();
        this.#sm.transition(S.UNINITIALIZED);
        throw error;
      },
    );
    (this.#init = init).catch(() => undefined);
    return init;
  }

  /** Opens a transaction. Synchronous, as in Java. Allowed in READY of a transactional producer. */
  beginTransaction(): void {
    if (!this.transactional) throw new IllegalStateError('beginTransaction() needs a transactional producer: set `transactionalId` (state READY)');
    this.#sm.guard('beginTransaction');
    const begin = (this.#raw ?? notInitialised()).beginTransaction();
    begin.catch(() => undefined);
    this.#begun = begin;
    this.#sm.transition(S.IN_TRANSACTION);
  }

  /**
   * Sends a record (see `TransactionalProducer`): resolves with its metadata, rejects with its own error;
   * throws `IllegalStateError` synchronously for IGNORE_SEND_ERRORS outside a transaction, any send of a
   * transactional producer outside one, and after close.
   */
  send(record: ProducerRecord, callback?: SendCallback, option: TxnSendOption = TxnSendOption.NONE): Promise<RecordMetadata> {
    // 1.–3. (see #beforeSend)
    const refused = this.#beforeSend(option);
    if (refused) return this.#sender.refuse(callback, option, refused);
    // 4. validate, partition, batch, deliver
    return this.#sender.submit(record, callback, option);
  }

  /**
   * {@link send} without a promise: the outcome reaches `callback` only (it is called exactly once).
   * The record collector's path: a record then costs no promise and no resolver closures.
   */
  dispatch(record: ProducerRecord, callback: SendCallback, option: TxnSendOption = TxnSendOption.NONE): void {
    const refused = this.#beforeSend(option);
    if (refused) this.#sender.refuse(callback, option, refused, false);
    else this.#sender.submit(record, callback, option, false);
  }

  /**
   * Steps 1–3 of a send: 1. the option and the state guard (throws); 2. a transaction that can only abort
   * (or a fatal producer) takes no more records: returns why; 3. an idempotent producer connects lazily.
   */
  #beforeSend(option: TxnSendOption): Error | undefined {
    // 1.
    if (option !== TxnSendOption.NONE && option !== TxnSendOption.IGNORE_SEND_ERRORS) {
      throw new ConfigError(`Unknown TxnSendOption '${String(option)}': use 'NONE' or 'IGNORE_SEND_ERRORS'`);
    }
    this.#guardSend(option);
    // 2.
    const refused = this.#sm.causeIn(S.FATAL_ERROR, S.ABORTABLE_ERROR);
    if (refused) return refused;
    // 3.
    if (this.#sm.state === S.UNINITIALIZED) void this.initTransactions().catch(() => undefined);
    return undefined;
  }

  /**
   * Resolves once the producer's buffer (`bufferMemoryBytes`) has room, at once
   * when it has. `send()` never throws for a full buffer (the record waits and
   * its promise resolves later), so a loop sending many records awaits this
   * between sends to keep its memory bounded, as a blocking Java `send()` would.
   */
  bufferAvailable(): Promise<void> {
    return this.#sender.bufferAvailable();
  }

  /** Adds consumer offsets to the open transaction. Allowed in IN_TRANSACTION; rejects with the abortable or fatal cause otherwise. */
  async sendOffsetsToTransaction(offsets: TopicPartitionOffset[], groupId: string): Promise<void> {
    this.#throwIfFailed();
    this.#sm.guard('sendOffsetsToTransaction');
    // IllegalArgumentError before any I/O of the commit (offset-checks.ts); the transaction stays usable
    await checkTxnOffsets(offsets, groupId, (t) => this.#sender.topicInfo(t), (t) => this.#metadata.describe(t));
    this.#sm.guard('sendOffsetsToTransaction');
    try {
      await retryRetriable(async () => {
        await this.#begun;
        await (this.#raw ?? notInitialised()).sendOffsets(groupId, offsets);
      }, this.#settings);
    } catch (error) {
      const kind = errorKindOf(error);
      if (kind === 'fencing' || kind === 'fatal') throw this.#toFatal(error);
      this.#toAbortable(error as Error);
      throw error;
    }
  }

  /**
   * Commits the open transaction:
   * 1. refuse unless IN_TRANSACTION (rejects with the abortable or fatal cause);
   * 2. seal every batch and wait until no send is pending (callbacks may add sends);
   * 3. if a record failed with NONE (or an unknown outcome, or `markAbortable`), reject with that cause; state stays ABORTABLE_ERROR;
   * 4. EndTxn(commit): a failure here is fatal (the producer must be recreated);
   * 5. state READY.
   */
  async commitTransaction(): Promise<void> {
    // 1.
    this.#throwIfFailed();
    this.#sm.guard('commitTransaction');
    if (this.#ending) throw new IllegalStateError('commitTransaction() is already in progress (state IN_TRANSACTION)');
    await this.#exclusive(async () => {
      // 2.
      await this.#sender.flush();
      // 3.
      this.#throwIfFailed();
      // 4.
      this.#sm.transition(S.COMMITTING);
      await this.#endTxn('commit');
      // 5.
      if (this.#sm.state === S.COMMITTING) this.#sm.transition(S.READY);
    });
  }

  /**
   * Aborts the open transaction; allowed in IN_TRANSACTION and ABORTABLE_ERROR:
   * 1. state ABORTING: records not yet handed to the broker fail with TransactionAbortableError;
   * 2. wait for the batches in flight;
   * 3. EndTxn(abort): a failure here is fatal;
   * 4. after a write with an unknown outcome, bump the epoch (a new raw producer: InitProducerId resets its sequences);
   * 5. state READY.
   */
  async abortTransaction(): Promise<void> {
    if (this.#sm.state === S.FATAL_ERROR) throw this.#sm.cause;
    this.#sm.guard('abortTransaction');
    if (this.#ending) throw new IllegalStateError('commitTransaction() is in progress; abort after it settles (state ABORTABLE_ERROR)');
    await this.#exclusive(async () => {
      // 1.
      const aborting = new TransactionAbortableError('The transaction was aborted before this record was sent', { cause: this.#sm.causeIn(S.ABORTABLE_ERROR) });
      this.#sm.transition(S.ABORTING, aborting);
      this.#sender.failUnsent(aborting);
      // 2.
      await this.#sender.flush();
      if (this.#sm.state === S.FATAL_ERROR) throw this.#sm.cause;
      // 3.
      await this.#endTxn('abort');
      // 4.
      if (this.#epochBumpNeeded) await this.#bumpEpoch();
      // 5.
      if (this.#sm.state === S.ABORTING) this.#sm.transition(S.READY);
    });
  }

  /** Seals every batch and waits until every pending send settled (callbacks included). Never rejects for record failures. */
  async flush(): Promise<void> {
    this.#sm.guard('flush');
    await this.#sender.flush();
  }

  /** ABORTABLE_ERROR exactly as a failed NONE send (a handler answered FAIL); a no-op in ABORTABLE_ERROR, ABORTING, FATAL_ERROR. */
  markAbortable(error: Error): void {
    this.#sm.guard('markAbortable');
    this.#toAbortable(error);
  }

  /** Closes the producer; allowed in every state, idempotent. An open transaction is aborted (best effort); unsent records fail. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      await this.#ending?.catch(() => undefined);
      const state = this.#sm.state;
      if (state === S.IN_TRANSACTION || state === S.ABORTABLE_ERROR) {
        await this.abortTransaction().catch((error: unknown) => this.#log.warn({ err: error }, 'abort on close failed'));
      } else if (state !== S.FATAL_ERROR) {
        await this.#sender.flush();
      }
      const closed = new IllegalStateError('The producer was closed before this record was sent (state CLOSED)');
      this.#sm.transition(S.CLOSED, closed);
      this.#sender.failUnsent(closed);
      await this.#init?.catch(() => undefined);
      await this.#closeClients();
    })();
    return this.#closing;
  }

  #guardSend(option: TxnSendOption): void {
    const inTxn = this.#sm.state === S.IN_TRANSACTION || this.#sm.state === S.ABORTABLE_ERROR || this.#sm.state === S.FATAL_ERROR;
    if (option === TxnSendOption.IGNORE_SEND_ERRORS && !(this.transactional && inTxn)) {
      throw new IllegalStateError(
        'send() with TxnSendOption.IGNORE_SEND_ERRORS is only allowed inside a transaction (state IN_TRANSACTION of a producer with a transactionalId); ' +
          `this producer is ${this.transactional ? `in state ${this.#sm.state}` : 'not transactional'}`,
      );
    }
    this.#sm.guard(this.transactional ? 'sendTransactional' : 'sendIdempotent', 'send');
  }

  /** Throws the fatal, else the abortable cause. */
  #throwIfFailed(): void {
    const cause = this.#sm.causeIn(S.FATAL_ERROR, S.ABORTABLE_ERROR);
    if (cause) throw cause;
  }

  /** IN_TRANSACTION → ABORTABLE_ERROR with `error` as cause; a no-op in any other state. */
  #toAbortable(error: Error): void {
    if (this.#sm.state !== S.IN_TRANSACTION) return;
    const cause = error instanceof TransactionAbortableError ? error : new TransactionAbortableError(`The transaction can only be aborted: ${error.message}`, { cause: error });
    this.#sm.transition(S.ABORTABLE_ERROR, cause);
    this.#log.warn({ err: error }, 'transaction moved to ABORTABLE_ERROR');
  }

  /** Any state → FATAL_ERROR (the first cause wins); producer fencing becomes `ProducerFencedError`. Returns the error every record gets. */
  #toFatal(thrown: unknown): Error {
    const fatal = this.#sm.causeIn(S.FATAL_ERROR);
    if (fatal) return fatal;
    let error = thrown instanceof Error ? thrown : new Error(String(thrown));
    if (this.#sm.state === S.CLOSED) return error;
    if (errorKindOf(error) === 'fencing' && !(error instanceof ProducerFencedError)) {
      const id = this.transactionalId ? ` '${this.transactionalId}'` : '';
      error = new ProducerFencedError(`Producer${id} was fenced or lost its producer state (${error.message}); close it and create a new one`, { cause: error });
    }
    this.#sm.transition(S.FATAL_ERROR, error);
    // Fencing is how a task moves to another instance: expected, logged once per task by the runtime.
    this.#log[isProducerFenced(error) ? 'debug' : 'error']({ err: error }, 'producer moved to FATAL_ERROR');
    this.#sender.failUnsent(error);
    return error;
  }

  async #connect(): Promise<void> {
    const cluster = this.#options.cluster;
    if (!this.#options.topicMetadata) this.#admin ??= cluster.admin(); // a shared cache brings its own (the app's) admin
    const { transactionalId, transactionTimeoutMs, compressionType } = this.#options;
    this.#raw = cluster.producer({
      transactionalId, transactionTimeoutMs, clientId: transactionalId ?? 'sluice-idempotent-producer',
      ...(this.#options.connection ? { connection: this.#options.connection } : {}),
      ...(compressionType !== undefined && compressionType !== 'none' ? { compressionType } : {}),
    });
    await this.#raw.connect();
  }

  /** A new raw producer with the same id: InitProducerId bumps the epoch and resets every sequence (Java's epoch bump, KIP-360). */
  async #bumpEpoch(): Promise<void> {
    this.#epochBumpNeeded = false;
    await this.#raw?.close().catch(() => undefined);
    await this.#connect().catch((error: unknown) => Promise.reject(this.#toFatal(error)));
  }

  async #produce(batch: ProduceBatch): Promise<ProduceAck> {
    await this.#begun;
    return (this.#raw ?? notInitialised()).produce(batch);
  }

  /** EndTxn(commit | abort); any failure is fatal (the raw producer is unusable afterwards). */
  async #endTxn(kind: 'commit' | 'abort'): Promise<void> {
    try {
      await this.#begun;
      const raw = this.#raw ?? notInitialised();
      await (kind === 'commit' ? raw.commitTransaction() : raw.abortTransaction());
      this.#begun = undefined;
    } catch (error) {
      throw this.#toFatal(error);
    }
  }

  /** Runs a commit or abort; one at a time. */
  async #exclusive(run: () => Promise<void>): Promise<void> {
    try {
      await (this.#ending = run());
    } finally {
      this.#ending = undefined;
    }
  }

  async #closeClients(): Promise<void> {
    await Promise.allSettled([this.#raw?.close(), this.#admin?.close()]);
  }
}

function notInitialised(): never {
  throw new IllegalStateError('The producer is not initialised: call initTransactions() first (state UNINITIALIZED)');
}
