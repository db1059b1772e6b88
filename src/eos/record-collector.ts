/**
 * The record collector of a stream task (Kafka Streams' RecordCollectorImpl),
 * the heart of the production-handler mapping (DESIGN.md §6 step 3). Steps 1
 * and 2 and the handler decision of step 4 are the shared synchronous part
 * in ./record-collection.ts (the TopologyTestDriver's collector uses it too):
 *
 * 1. serialize key and value with the sink's serializers (a failure goes to
 *    `handleSerializationException`, origin KEY or VALUE);
 * 2. choose the partition (the sink's, else murmur2 of the key bytes);
 * 3. send with `TxnSendOption.IGNORE_SEND_ERRORS` (exactly-once) so a
 *    record-level failure never poisons the transaction by itself;
 * 4. in the send callback (which runs before the record counts as settled for
 *    the commit) decide per failed record, by the error's kind
 *    (src/errors.ts): fencing, fatal and unknown-outcome errors never reach
 *    the handler (the task fails; an unknown outcome already made the
 *    transaction abortable, so the record is never reported as dropped);
 *    a record-level error goes to the ProductionExceptionHandler with the
 *    input record's context: CONTINUE drops only that record (counted, one
 *    WARN) and sends its dead-letter records in the same transaction; FAIL
 *    marks the transaction abortable exactly as `TxnSendOption.NONE` would and
 *    fails the task; a handler that throws is fatal;
 * 5. dead-letter records (of any handler) are sent with `deadLetterOption`
 *    (NONE): one that cannot be written fails the task, naming its handler.
 */
import type { Logger } from 'pino';
import { StreamsError, UnknownTopicError, bypassesRecordHandlers, errorKindOf } from '../errors.js';
import type { DeadLetterRecord, ErrorHandlerContext, FailedOutputRecord, ProductionExceptionHandler } from '../handlers/types.js';
import type { OutputRecord, RecordCollector } from '../processors/task-contract.js';
import type { ProducerRecord, RecordMetadata, SendCallback } from './producer-types.js';
import type { Headers } from '../records/types.js';
import { type CollectedRecord, deadLetterToWrite, decideOnRecordError, prepareOutput } from './record-collection.js';
import type { TxnSendOption } from './txn-send-option.js';

export type { CollectedRecord } from './record-collection.js';

/** What the collector needs of a producer (a `TransactionalProducer` satisfies it). */
export interface CollectorProducer {
  /** Sends without a promise: the outcome reaches `callback`, exactly once (`StreamsProducer.dispatch`). */
  dispatch(record: ProducerRecord, callback: SendCallback, option?: TxnSendOption): void;
  markAbortable(error: Error): void;
}

/** Counters the collector updates (a task's metrics object). */
export interface CollectorCounters {
  recordsProduced: number;
  droppedRecords: number;
}

/** Options of a {@link TaskRecordCollector}. */
export interface RecordCollectorOptions {
  taskId: string;
  producer: CollectorProducer;
  /** Option for outputs: `IGNORE_SEND_ERRORS` inside a transaction, `NONE` otherwise. */
  sendOption: TxnSendOption;
  /** Option for dead-letter records: `NONE` (a failure makes the transaction abortable). */
  deadLetterOption: TxnSendOption;
  handler: ProductionExceptionHandler;
  /** The partition count of a topic when known (cached from the admin API); undefined lets the producer partition. */
  partitionCount: (topic: string) => number | undefined;
  /** Called before every send, e.g. to begin the transaction lazily. */
  beforeSend?: () => void;
  counters: CollectorCounters;
  logger: Logger;
}

/** The record collector of one task. See the module comment for the steps. */
export class TaskRecordCollector implements RecordCollector {
  #failure: StreamsError | undefined;
  #waiters: Array<{ max: number; resolve: () => void }> = [];
  #closed = false;
  #pending = 0;
  readonly #changelogNext = new Map<string, number>();

  constructor(private readonly options: RecordCollectorOptions) {}

  /** The partition count of `topic` when known (sink partitioners use it). */
  partitionsFor(topic: string): number | undefined {
    return this.options.partitionCount(topic);
  }

  /** One output a sink dropped on purpose (its partitioner chose no partition). */
  recordDropped(_context: ErrorHandlerContext): void {
    this.options.counters.droppedRecords++;
  }

  /** The first error that must stop the task (FAIL, a throwing handler, a fencing or fatal send error). */
  get failure(): StreamsError | undefined {
    return this.#failure;
  }

  /** Outputs sent and not yet acknowledged (or failed). */
  get pending(): number {
    return this.#pending;
  }

  /** Throws {@link failure} when set. */
  checkHealthy(): void {
    if (this.#failure) throw this.#failure;
  }

  /** Resolves once at most `max` outputs are pending (backpressure). */
  waitForPendingAtMost(max: number): Promise<void> {
    if (this.pending <= max || this.#closed || this.#failure) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push({ max, resolve }));
  }

  /** Stops accepting records and releases waiters (the task is closing). */
  close(): void {
    this.#closed = true;
    this.#release();
  }

  /** Serializes, partitions and sends one output record; see the module comment. */
  send(record: OutputRecord, context: ErrorHandlerContext): void {
    if (this.#closed) throw new StreamsError(`Record collector of task ${this.options.taskId} is closed`, { code: 'TASK_CLOSED' });
    this.checkHealthy();
    if (record.deadLetterOf) {
      // 5. a handler's dead letter: bytes already (deadLetterOutput), never to the production handler
      const { topic, key, value, headers, timestamp } = record;
      return this.#sendDeadLetter({ topic, key: key as Buffer | null, value: value as Buffer | null, headers, timestamp }, record.deadLetterOf);
    }
    // 1. serialize; 2. partition
    const prepared = prepareOutput(record, this.options.partitionCount);
    if (!prepared.ok) {
      // a registry that is down or a schema not fetched yet: the task fails and retries, no handler drops the record
      if (bypassesRecordHandlers(prepared.error)) throw prepared.error;
      return this.#onRecordError(context, prepared.failed, prepared.error, true);
    }
    const { record: collected, failed } = prepared;
    // 3. send; 4. the callback asks the handler
    this.#send(collected, this.options.sendOption, (error) => {
      if (error) this.#onRecordError(context, { ...failed, partition: collected.partition ?? failed.partition }, error, false);
    });
  }

  /**
   * Sends one changelog record of a state store (store lifecycle step 4, in
   * src/state/store-contract.ts) in the task's transaction, with
   * `deadLetterOption` (NONE): it is never handed to the production handler
   * and never dropped; a failure marks the transaction abortable and fails the
   * task (code CHANGELOG_WRITE_FAILED). The acknowledged offsets are kept per
   * changelog topic for the stores' checkpoints ({@link changelogNextOffset}).
   */
  sendChangelog(topic: string, partition: number, key: Buffer, value: Buffer | null, timestamp: number, headers?: Headers): void {
    if (this.#closed) throw new StreamsError(`Record collector of task ${this.options.taskId} is closed`, { code: 'TASK_CLOSED' });
    this.checkHealthy();
    const record: CollectedRecord = { topic, partition, key, value, timestamp, headers: headers ?? {} };
    this.#send(record, this.options.deadLetterOption, (error, metadata) => {
      if (!error) {
        if (metadata) this.#changelogNext.set(topic, Math.max(this.#changelogNext.get(topic) ?? 0, metadata.offset + 1));
        return;
      }
      this.#markAbortable(error);
      if (error instanceof UnknownTopicError) return this.#fail(changelogDeleted(topic, this.options.taskId, error), false);
      this.#fail(
        new StreamsError(`A changelog record to ${topic}-${partition} (task ${this.options.taskId}) could not be written: ${error.message}. ` +
          'State changes are never dropped: the task fails and its transaction aborts', {
          code: 'CHANGELOG_WRITE_FAILED',
          kind: errorKindOf(error) === 'fencing' ? 'fencing' : 'record',
          cause: error,
        }),
        false,
      );
    });
  }

  /** The changelog offset after the last acknowledged record of `topic` sent through this collector (undefined: none). */
  changelogNextOffset(topic: string): number | undefined {
    return this.#changelogNext.get(topic);
  }

  #send(record: CollectedRecord, option: TxnSendOption, onDone: (error: Error | null, metadata: RecordMetadata | null) => void): void {
    const counters = this.options.counters;
    this.options.beforeSend?.();
    this.#pending++;
    let settled = false;
    const callback: SendCallback = (error, metadata) => {
      if (settled) return;
      settled = true;
      if (!error) counters.recordsProduced++;
      try {
        onDone(error, metadata);
      } finally {
        this.#pending--;
        this.#release();
      }
    };
    try {
      // The callback reports the outcome (no promise per record).
      this.options.producer.dispatch(record, callback, option);
    } catch (error) {
      // Synchronous rejection (wrong producer state, fenced producer): nothing was sent.
      settled = true;
      this.#pending--;
      this.#release();
      throw error;
    }
  }

  #onRecordError(context: ErrorHandlerContext, record: FailedOutputRecord, error: Error, synchronous: boolean): void {
    // 4. fencing, fatal and unknown-outcome errors are never asked (record-collection.ts step 3)
    const decision = decideOnRecordError(this.options.handler, context, record, error);
    if (decision.response === 'CONTINUE') {
      this.options.counters.droppedRecords++;
      // One line per dropped record (the handler dealt with it): the error's message; its stack at DEBUG.
      // The task logger binds taskId already.
      const where = {
        input: { topic: context.topic, partition: context.partition, offset: context.offset },
        output: { topic: record.topic, partition: record.partition },
        processorNodeId: context.processorNodeId,
      };
      this.options.logger.debug({ ...where, err: error }, 'the dropped output record\'s error');
      this.options.logger.warn(
        { ...where, errorMessage: error.message, configKey: 'productionExceptionHandler' },
        `Dropped one output record to ${record.topic} of task ${context.taskId} (input ${context.topic}-${context.partition}@${context.offset}): ` +
          `${error.message}. productionExceptionHandler answered CONTINUE; set config 'productionExceptionHandler' to change this.`,
      );
      for (const dead of decision.deadLetterRecords) this.#sendDeadLetter(dead, 'productionExceptionHandler');
      return;
    }
    if (decision.asked && !synchronous) this.#markAbortable(error);
    this.#fail(decision.error, synchronous);
  }

  #sendDeadLetter(dead: DeadLetterRecord, slot: string): void {
    const record = deadLetterToWrite(dead, this.options.partitionCount, Date.now());
    try {
      this.#send(record, this.options.deadLetterOption, (error) => {
        // Nothing lost silently: a dead-letter record that cannot be written fails the task.
        if (error) {
          this.#markAbortable(error);
          this.#fail(
            new StreamsError(`A dead-letter record of the ${slot} to ${dead.topic} (task ${this.options.taskId}) could not be written: ${error.message}`, {
              code: 'DEAD_LETTER_FAILED',
              kind: errorKindOf(error) === 'fencing' ? 'fencing' : 'record',
              cause: error,
            }),
            false,
          );
        }
      });
    } catch (error) {
      this.#fail(error instanceof StreamsError ? error : new StreamsError(String(error), { cause: error }), false);
    }
  }

  #markAbortable(error: Error): void {
    try {
      this.options.producer.markAbortable(error);
    } catch {
      // A producer without a transaction (at_least_once) has nothing to mark; the task still fails.
    }
  }

  #fail(error: StreamsError, synchronous: boolean): void {
    this.#failure ??= error;
    this.#release();
    if (synchronous) throw error;
  }

  #release(): void {
    const pending = this.pending;
    const done = this.#closed || this.#failure !== undefined;
    const still: Array<{ max: number; resolve: () => void }> = [];
    for (const waiter of this.#waiters) {
      if (done || pending <= waiter.max) waiter.resolve();
      else still.push(waiter);
    }
    this.#waiters = still;
  }
}

/** Issue 28 item 10: the changelog topic vanished under a running task. */
function changelogDeleted(topic: string, taskId: string, cause: UnknownTopicError): StreamsError {
  return new StreamsError(
    `Changelog topic '${topic}' (task ${taskId}) was deleted while the application was running (its records answered UNKNOWN_TOPIC_OR_PARTITION). ` +
      'Its state changes can no longer be backed up, so the application stops; nothing after the deletion was committed. ' +
      'What to do: to keep the state, re-create the topic from a backup before restarting; otherwise restart the application: sluice re-creates the changelog, ' +
      'and the store, no longer matching it, restarts from empty (a WARN names it). Do not delete internal topics of a running application; cause',
    { code: 'CHANGELOG_DELETED', cause },
  );
}
