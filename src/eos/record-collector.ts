/**
 * The record collector of a stream task (Kafka Streams' RecordCollectorImpl),
 * the heart of the production-handler mapping (DESIGN.md §6 step 3):
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
import { SerializationError, StreamsError, errorKindOf } from '../errors.js';
import { invokeProductionHandler } from '../handlers/invoke.js';
import type { DeadLetterRecord, ErrorHandlerContext, FailedOutputRecord, ProductionExceptionHandler } from '../handlers/types.js';
import type { OutputRecord, RecordCollector } from '../processors/task-contract.js';
import { partitionFor } from '../records/partitioner.js';
import type { ProducerRecord, RecordMetadata, SendCallback } from './producer-types.js';
import type { TxnSendOption } from './txn-send-option.js';

/** A record handed to the producer. */
export type CollectedRecord = ProducerRecord & { key: Buffer | null; value: Buffer | null };

/** What the collector needs of a producer (a `TransactionalProducer` satisfies it). */
export interface CollectorProducer {
  send(record: ProducerRecord, callback?: SendCallback, option?: TxnSendOption): Promise<RecordMetadata>;
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

  constructor(private readonly options: RecordCollectorOptions) {}

  /** The partition count of `topic` when known (sink partitioners use it). */
  partitionsFor(topic: string): number | undefined {
    return this.options.partitionCount(topic);
  }

  /** The sink's partition, else murmur2 of the key bytes when the count is known, else the producer's choice. */
  #partition(topic: string, key: Buffer | null, explicit: number | undefined): number | undefined {
    if (explicit !== undefined) return explicit;
    if (key === null) return undefined;
    const count = this.options.partitionCount(topic);
    return count === undefined ? undefined : partitionFor(key, count);
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
    const failed: FailedOutputRecord = {
      topic: record.topic,
      partition: record.partition,
      key: record.key,
      value: record.value,
      headers: record.headers,
      timestamp: record.timestamp,
    };
    // 1. serialize
    let keyBytes: Buffer | null;
    let valueBytes: Buffer | null;
    try {
      keyBytes = record.keySerializer.serialize(record.topic, record.key, record.headers);
      failed.keyBytes = keyBytes;
    } catch (error) {
      this.#onRecordError(context, failed, serializationError(error, 'KEY', record.topic), true);
      return;
    }
    try {
      valueBytes = record.valueSerializer.serialize(record.topic, record.value, record.headers);
      failed.valueBytes = valueBytes;
    } catch (error) {
      this.#onRecordError(context, failed, serializationError(error, 'VALUE', record.topic), true);
      return;
    }
    // 2. partition
    const partition = this.#partition(record.topic, keyBytes, record.partition);
    // 3. send; 4. the callback asks the handler
    this.#send(
      { topic: record.topic, key: keyBytes, value: valueBytes, partition, headers: record.headers, timestamp: record.timestamp },
      this.options.sendOption,
      (error) => {
        if (error) this.#onRecordError(context, { ...failed, partition: partition ?? failed.partition }, error, false);
      },
    );
  }

  #send(record: CollectedRecord, option: TxnSendOption, onDone: (error: Error | null) => void): void {
    const counters = this.options.counters;
    this.options.beforeSend?.();
    this.#pending++;
    let settled = false;
    const callback: SendCallback = (error) => {
      if (settled) return;
      settled = true;
      if (!error) counters.recordsProduced++;
      try {
        onDone(error);
      } finally {
        this.#pending--;
        this.#release();
      }
    };
    let promise: Promise<unknown>;
    try {
      promise = this.options.producer.send(record, callback, option);
    } catch (error) {
      // Synchronous rejection (wrong producer state, fenced producer): nothing was sent.
      settled = true;
      this.#pending--;
      this.#release();
      throw error;
    }
    // The callback reports the outcome; the promise must not become an unhandled rejection.
    promise.catch(() => undefined);
  }

  #onRecordError(context: ErrorHandlerContext, record: FailedOutputRecord, error: Error, synchronous: boolean): void {
    const kind = errorKindOf(error);
    if (kind === 'fencing' || kind === 'unknown_outcome' || (kind === 'fatal' && !(error instanceof SerializationError))) {
      // 4. never asked: the task migrated, the producer cannot go on, or the record may be in the log
      this.#fail(error instanceof StreamsError ? error : new StreamsError(String(error.message), { cause: error }), synchronous);
      return;
    }
    const decision = askProductionHandler(this.options.handler, context, record, error);
    if (decision.response === 'CONTINUE') {
      this.options.counters.droppedRecords++;
      this.options.logger.warn(
        {
          taskId: context.taskId,
          input: { topic: context.topic, partition: context.partition, offset: context.offset },
          output: { topic: record.topic, partition: record.partition },
          processorNodeId: context.processorNodeId,
          err: error,
          configKey: 'productionExceptionHandler',
        },
        `Dropped one output record to ${record.topic} of task ${context.taskId} (input ${context.topic}-${context.partition}@${context.offset}): ` +
          `${error.message}. productionExceptionHandler answered CONTINUE; set config 'productionExceptionHandler' to change this.`,
      );
      for (const dead of decision.deadLetterRecords) this.#sendDeadLetter(dead, 'productionExceptionHandler');
      return;
    }
    if (!synchronous) this.#markAbortable(error);
    this.#fail(decision.error, synchronous);
  }

  #sendDeadLetter(dead: DeadLetterRecord, slot: string): void {
    const record: CollectedRecord = {
      topic: dead.topic,
      key: dead.key,
      value: dead.value,
      partition: this.#partition(dead.topic, dead.key, undefined),
      headers: dead.headers ?? {},
      timestamp: dead.timestamp ?? Date.now(),
    };
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

/** A normalised production-handler decision. */
type ProductionDecision =
  | { response: 'CONTINUE'; deadLetterRecords: DeadLetterRecord[] }
  /** `error` is what the task fails with: FAIL (kind of the table, cause = the send error) or a broken handler (fatal). */
  | { response: 'FAIL'; error: StreamsError };

/** Asks the handler about `error` for `record` (serialization errors go to `handleSerializationException` when it has one). */
function askProductionHandler(handler: ProductionExceptionHandler, context: ErrorHandlerContext, record: FailedOutputRecord, error: Error): ProductionDecision {
  let answer;
  try {
    answer = invokeProductionHandler(handler, context, record, error, error instanceof SerializationError ? (error.origin ?? 'VALUE') : undefined);
  } catch (thrown) {
    const fatal = thrown instanceof StreamsError && thrown.kind === 'fatal';
    return { response: 'FAIL', error: fatal ? thrown : new StreamsError(`productionExceptionHandler failed: ${String((thrown as Error)?.message ?? thrown)}`, { code: 'HANDLER_THREW', cause: thrown }) };
  }
  if (answer.response === 'CONTINUE') return { response: 'CONTINUE', deadLetterRecords: answer.deadLetterRecords };
  const where = `Output record of task ${context.taskId} to topic ${record.topic} failed (input ${context.topic}-${context.partition}@${context.offset})`;
  return { response: 'FAIL', error: new StreamsError(`${where} and productionExceptionHandler answered FAIL: ${error.message}`, { code: 'PRODUCTION_FAILED', cause: error }) };
}

function serializationError(error: unknown, origin: 'KEY' | 'VALUE', topic: string): SerializationError {
  if (error instanceof SerializationError) return error;
  return new SerializationError(`Could not serialize the ${origin.toLowerCase()} of a record to ${topic}: ${String((error as Error)?.message ?? error)}`, {
    origin,
    topic,
    cause: error,
  });
}
