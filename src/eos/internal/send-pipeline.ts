/**
 * The send path of the producer: record-to-wire conversion, validation against
 * cached topic configs, partition choice, accumulation, delivery, and the
 * pending-send accounting that `flush()` and `commitTransaction()` wait on.
 */
import type { ProduceAck, ProduceBatch } from '../../cluster/port.js';
import { errorKindOf } from '../../errors.js';
import type { ProducerRecord, RecordMetadata, SendCallback } from '../producer-types.js';
import type { TxnSendOption } from '../txn-send-option.js';
import { deliverBatch, type SenderContext } from './batch-sender.js';
import { partitionFor } from '../../records/partitioner.js';
import { PartitionAccumulator } from './partition-accumulator.js';
import { RECORD_BATCH_OVERHEAD, recordSizeUpperBound, toWireRecord } from './record-size.js';
import { validateRecord } from './record-validator.js';
import { checkProducerRecord } from './record-checks.js';
import { BufferMemory, RECORD_OVERHEAD_BYTES } from './buffer-memory.js';
import type { TopicConfigCache, TopicInfo } from './topic-config-cache.js';
import type { PendingSend } from './types.js';
import type { WireRecord } from '../../records/types.js';

/** Room left in a produce request for its headers and the topic name. */
const REQUEST_OVERHEAD = 128;

/** What the pipeline needs from the producer. */
export interface PipelineHooks {
  produce(batch: ProduceBatch): Promise<ProduceAck>;
  stopError(): Error | undefined;
  /** The producer's fatal error, if it is in FATAL_ERROR. */
  fatalError(): Error | undefined;
  onFatal(error: unknown): Error;
  /** A record failed (before its callback runs): with NONE the open transaction becomes abortable. */
  onRecordFailure(error: Error, option: TxnSendOption): unknown;
  /** Records timed out with an unknown write outcome: whatever the option, the transaction must not commit. */
  onUnknownOutcome(error: Error): void;
  /** A callback threw. */
  onCallbackError(error: unknown): void;
  /** Resolves when the producer is connected (lazy connect of an idempotent producer). */
  ready(): Promise<void>;
}

/** Resolved producer settings used by the pipeline. */
export interface PipelineSettings {
  lingerMs: number;
  batchBytes: number;
  maxRequestSize: number;
  deliveryTimeoutMs: number;
  retryBackoffMs: number;
  maxInFlightPartitions: number;
  /** Bound of the wait for an unknown topic's metadata (ms). */
  maxBlockMs: number;
  /** Bound of the bytes of records not yet settled. */
  bufferMemoryBytes: number;
}

/** Send path and pending-send accounting. */
export class SendPipeline {
  readonly #accumulator: PartitionAccumulator;
  readonly #sticky = new Map<string, number>();
  readonly #memory: BufferMemory;
  /** Records per topic waiting for an asynchronous config lookup (keeps send order). */
  readonly #waiting = new Map<string, number>();
  #pending = 0;
  #idleWaiters: Array<() => void> = [];

  constructor(
    private readonly settings: PipelineSettings,
    private readonly cache: TopicConfigCache,
    private readonly hooks: PipelineHooks,
  ) {
    this.#memory = new BufferMemory(settings.bufferMemoryBytes);
    const ctx: SenderContext = {
      produce: (b) => hooks.produce(b),
      stopError: () => hooks.stopError(),
      fatalError: () => hooks.fatalError(),
      onFatal: (e) => hooks.onFatal(e),
      onRecordRejection: (topic) => cache.refresh(topic),
      onUnknownOutcome: (error) => hooks.onUnknownOutcome(error),
      retryBackoffMs: settings.retryBackoffMs,
      deliveryTimeoutMs: settings.deliveryTimeoutMs,
    };
    this.#accumulator = new PartitionAccumulator({
      lingerMs: settings.lingerMs,
      maxInFlightPartitions: settings.maxInFlightPartitions,
      batchLimit: (topic) => this.#batchLimit(topic),
      deliver: (topic, partition, records) => deliverBatch(ctx, topic, partition, records),
      onSeal: (topic, partition) => {
        if (this.#sticky.get(topic) === partition) this.#sticky.delete(topic);
      },
    });
  }

  /** Records sent and not yet settled. */
  get pending(): number {
    return this.#pending;
  }

  /** Sends a record (state guards already done by the producer). */
  submit(record: ProducerRecord, callback: SendCallback | undefined, option: TxnSendOption): Promise<RecordMetadata> {
    const now = Date.now();
    const { promise, settle } = this.#track(callback, option);
    // Issue 12 item 2: every user-supplied field is checked before it can reach an encoder (record-level error).
    const invalid = checkProducerRecord(record);
    if (invalid) return queueMicrotask(() => settle(invalid, null)), promise;
    // Issue 12 item 8: while the buffer is full the record waits, in send order (buffer-memory.ts).
    if (!this.#memory.hasRoom) return this.#memory.park(() => this.#admit(record, settle, now, false), (e) => settle(e, null)), promise;
    this.#admit(record, settle, now, true);
    return promise;
  }

  /** Resolves once a record sent now is admitted at once (the buffer has room). */
  bufferAvailable(): Promise<void> {
    return this.#memory.whenAvailable();
  }

  /** Converts, reserves buffer memory, then routes (now, or after the topic's config lookup). */
  #admit(record: ProducerRecord, trackedSettle: PendingSend['settle'], sentAt: number, inSend: boolean): void {
    const now = Date.now();
    let wire: WireRecord;
    try {
      wire = toWireRecord(record, sentAt);
    } catch (err) {
      if (inSend) queueMicrotask(() => trackedSettle(err as Error, null));
      else trackedSettle(err as Error, null);
      return;
    }
    const release = this.#memory.reserve(recordSizeUpperBound(wire) + RECORD_OVERHEAD_BYTES);
    const settle: PendingSend['settle'] = (error, metadata) => {
      release();
      trackedSettle(error, metadata);
    };
    const topic = record.topic;
    const cached = this.cache.peek(topic);
    if (cached && !this.#waiting.get(topic)) {
      this.#route(record, wire, cached, now, settle, inSend);
      return;
    }
    this.#waiting.set(topic, (this.#waiting.get(topic) ?? 0) + 1);
    void (async () => {
      let info: TopicInfo;
      try {
        await this.hooks.ready();
        info = await this.cache.get(topic);
      } catch (err) {
        const kind = errorKindOf(err);
        settle(kind === 'fencing' || kind === 'fatal' ? this.hooks.onFatal(err) : (err as Error), null);
        return;
      } finally {
        this.#waiting.set(topic, (this.#waiting.get(topic) ?? 1) - 1);
      }
      this.#route(record, wire, info, now, settle, false);
    })();
  }

  /** A send refused before the pipeline (abortable or fatal state): rejects and calls back asynchronously. */
  reject(callback: SendCallback | undefined, error: Error): Promise<RecordMetadata> {
    const { promise, settle } = this.#track(callback, 'IGNORE_SEND_ERRORS');
    queueMicrotask(() => settle(error, null));
    return promise;
  }

  /**
   * Seals every batch and waits until no send is pending. Loops: callbacks
   * (and promise continuations, hence the extra macrotask turn) may add sends.
   */
  async flush(): Promise<void> {
    this.#accumulator.urgent++;
    try {
      for (;;) {
        this.#accumulator.sealAll();
        if (this.#pending > 0) {
          await new Promise<void>((resolve) => this.#idleWaiters.push(resolve));
          continue;
        }
        await new Promise<void>((resolve) => setImmediate(resolve));
        if (this.#pending === 0) return;
      }
    } finally {
      this.#accumulator.urgent--;
    }
  }

  /** Settles every record not yet handed to the broker with `error`. */
  failUnsent(error: Error): void {
    this.#memory.failParked(error); // issue 12 item 8: parked records were never sent either
    this.#accumulator.failUnsent(error);
  }

  #route(
    record: ProducerRecord,
    wire: WireRecord,
    info: TopicInfo,
    now: number,
    settle: PendingSend['settle'],
    sync: boolean,
  ): void {
    const fail = (err: Error): void => {
      if (sync) queueMicrotask(() => settle(err, null));
      else settle(err, null);
    };
    const stop = this.hooks.stopError();
    if (stop) return fail(stop);
    const invalid = validateRecord(wire, info, record.partition, this.settings.maxRequestSize, now);
    if (invalid) return fail(invalid);
    const partition = record.partition ?? (wire.key !== null ? partitionFor(wire.key, info.partitions) : this.#stickyPartition(info));
    this.#accumulator.append({
      topic: record.topic,
      partition,
      wire,
      size: recordSizeUpperBound(wire),
      deadline: now + this.settings.deliveryTimeoutMs,
      settle,
    });
  }

  #stickyPartition(info: TopicInfo): number {
    let p = this.#sticky.get(info.topic);
    if (p === undefined || p >= info.partitions) {
      p = Math.floor(Math.random() * info.partitions);
      this.#sticky.set(info.topic, p);
    }
    return p;
  }

  #batchLimit(topic: string): number {
    const maxMessageBytes = this.cache.peek(topic)?.maxMessageBytes ?? this.settings.batchBytes;
    const requestRoom = this.settings.maxRequestSize - REQUEST_OVERHEAD - Buffer.byteLength(topic);
    return Math.max(RECORD_BATCH_OVERHEAD + 1, Math.min(this.settings.batchBytes, maxMessageBytes, requestRoom));
  }

  #track(
    callback: SendCallback | undefined,
    option: TxnSendOption,
  ): { promise: Promise<RecordMetadata>; settle: PendingSend['settle'] } {
    let resolve!: (m: RecordMetadata) => void;
    let reject!: (e: Error) => void;
    const promise = new Promise<RecordMetadata>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    // A caller relying on the callback (or on commit) need not await the promise.
    promise.catch(() => undefined);
    this.#pending++;
    let settled = false;
    const settle: PendingSend['settle'] = (error, metadata) => {
      if (settled) return;
      settled = true;
      try {
        // 1. the transaction learns of the failure before anyone else
        if (error) this.hooks.onRecordFailure(error, option);
        // 2. the callback runs while the record still counts as pending
        if (callback) {
          try {
            callback(error, metadata);
          } catch (cbErr) {
            this.hooks.onCallbackError(cbErr);
          }
        }
        // 3. the promise
        if (error) reject(error);
        else resolve(metadata as RecordMetadata);
      } finally {
        // 4. only now is the record settled for flush/commit
        this.#pending--;
        if (this.#pending === 0) {
          const waiters = this.#idleWaiters;
          this.#idleWaiters = [];
          for (const w of waiters) w();
        }
      }
    };
    return { promise, settle };
  }
}
