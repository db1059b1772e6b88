/**
 * The send path below `StreamsProducer.send()` (DESIGN.md §2, §4):
 *
 * 1. convert the record to wire form and validate it against the topic's
 *    cached configs (helpers `record-size`, `record-validator`, and the
 *    `topic-metadata` cache, possibly the app's shared one); a failure is that record's own, before any I/O;
 * 2. choose the partition: explicit, murmur2 of the key, else sticky;
 * 3. batch per topic-partition until `lingerMs` or the byte limit; sealed
 *    batches of one partition go out strictly one at a time, in order, and
 *    **every produce call carries exactly one topic-partition**; partitions
 *    run concurrently (p-queue, `maxInFlightPartitions`);
 * 4. deliver a batch: retriable answers are retried with back-off until the
 *    delivery timeout; giving up after an answer that may have been written
 *    (`isOutcomeUnknown`) is `unknown_outcome`, never a record-level failure;
 *    a record-level rejection isolates the culprits — by the broker's
 *    `record_errors`, else by splitting the batch in halves — and re-sends the
 *    innocent records; anything else is fatal for the producer;
 * 5. settle each record once: the producer learns of a failure first (its
 *    transaction state), then the callback runs, then the promise; only then
 *    does the record stop counting as pending for `flush()` (`pending-send.ts`).
 */
import PQueue from 'p-queue';
import type { ProduceAck } from '../../cluster/port.js';
import { DeliveryTimeoutError, KafkaErrorCode, KafkaProtocolError, StreamsError, UnknownTopicError, errorKindOf, isOutcomeUnknown } from '../../errors.js';
import { backoffDelay, sleep } from '../../internal/backoff.js';
import { partitionFor } from '../../records/partitioner.js';
import type { WireRecord } from '../../records/types.js';
import type { ProducerRecord, ProducerSettings, RecordMetadata, SendCallback } from '../producer-types.js';
import type { TxnSendOption } from '../txn-send-option.js';
import { RECORD_BATCH_OVERHEAD, recordSizeUpperBound, toWireRecord } from './record-size.js';
import { brokerRecordError, validateRecord } from './record-validator.js';
import type { TopicInfo, TopicMetadataCache } from '../topic-metadata.js';
import { checkProducerRecord } from './record-checks.js';
import { BufferMemory, RECORD_OVERHEAD_BYTES } from './buffer-memory.js';
import { PendingSends, settleAll, type PartitionBuffer, type Pending, type SenderOwner } from './pending-send.js';
import { defined } from '../../internal/defined.js';

/** Room left in a produce request for its headers and the topic name. */
const REQUEST_OVERHEAD = 128;

/** A record admitted into the pipeline: holds its buffer-memory reservation until it settles (once). */
class AdmittedRecord implements Pending {
  #reserved: number;

  constructor(
    readonly wire: WireRecord,
    readonly size: number,
    readonly deadline: number,
    private readonly tracked: Pending['settle'],
    private readonly memory: BufferMemory,
    reserved: number,
  ) {
    this.#reserved = reserved;
    memory.take(reserved);
  }

  /** Releases the reservation, then settles the record (its callback, its promise); later calls do nothing. */
  settle(error: Error | null, metadata: RecordMetadata | null): void {
    if (this.#reserved < 0) return;
    const reserved = this.#reserved;
    this.#reserved = -1;
    this.memory.release(reserved);
    this.tracked(error, metadata);
  }
}


/** Batching, delivery and pending-send accounting of one producer. See the module comment. */
export type { SenderOwner } from './pending-send.js';

export class PartitionSender {
  readonly #queue: PQueue;
  readonly #buffers = new Map<string, PartitionBuffer>();
  /** The same buffers by topic, then partition (the per-record lookup builds no key string). */
  readonly #byTopic = new Map<string, Map<number, PartitionBuffer>>();
  readonly #sticky = new Map<string, number>();
  /** Records per topic waiting for an asynchronous config lookup (keeps send order). */
  readonly #waiting = new Map<string, number>();
  readonly #memory: BufferMemory;
  readonly #sends: PendingSends;
  /** While > 0 (flush), open batches are sealed on the next tick instead of after lingerMs. */
  #urgent = 0;

  constructor(
    private readonly settings: ProducerSettings,
    private readonly owner: SenderOwner,
    /** The producer's topic metadata: its own cache, or the app's shared one. */
    private readonly metadata: TopicMetadataCache,
  ) {
    this.#queue = new PQueue({ concurrency: settings.maxInFlightPartitions });
    this.#memory = new BufferMemory(settings.bufferMemoryBytes);
    this.#sends = new PendingSends(owner);
  }

  /** Records sent and not yet settled. */
  get pending(): number {
    return this.#sends.count;
  }

  /** Steps 1–3 for one record (the producer's state guards already ran). */
  submit(record: ProducerRecord, callback: SendCallback | undefined, option: TxnSendOption): Promise<RecordMetadata>;
  /** The same without a promise (the outcome reaches `callback` only): the record collector's path. */
  submit(record: ProducerRecord, callback: SendCallback, option: TxnSendOption, withPromise: false): undefined;
  submit(record: ProducerRecord, callback: SendCallback | undefined, option: TxnSendOption, withPromise = true): Promise<RecordMetadata> | undefined {
    const now = Date.now();
    const { promise, settle: tracked } = withPromise ? this.#sends.track(callback, option) : this.#sends.track(callback, option, false);
    // 0. every user-supplied field is checked before it can reach an encoder (record-level error, record-checks.ts)
    const invalid = checkProducerRecord(record);
    if (invalid) return queueMicrotask(() => tracked(invalid, null)), promise;
    // 0'. while the buffer (bufferMemoryBytes) is full the record waits, in send order (buffer-memory.ts)
    if (!this.#memory.hasRoom) {
      this.#memory.park(() => this.#admit(record, tracked, now, false), (e) => tracked(e, null));
      return promise;
    }
    this.#admit(record, tracked, now, true);
    return promise;
  }

  /** Resolves once a record sent now is admitted at once (the buffer has room). */
  bufferAvailable(): Promise<void> {
    return this.#memory.whenAvailable();
  }

  /** A topic's partition count and configs, from the cache (for offset checks). */
  topicInfo(topic: string): Promise<TopicInfo> {
    return this.#lookup(topic);
  }

  /** The topic's info within this producer's own bounds (maxBlockMs, delivery timeout, stop error). */
  #lookup(topic: string): Promise<TopicInfo> {
    return this.metadata.get(topic, { ...this.settings, stopError: () => this.owner.stopError() });
  }

  /**
   * Steps 1–3 once the record may take buffer memory: wire form, reservation, validation, routing.
   * (One object per record, its settle a method: no closures on this path, which runs for every output.)
   */
  #admit(record: ProducerRecord, tracked: Pending['settle'], now: number, inSend: boolean): void {
    // 1. wire form and validation
    let wire: WireRecord;
    try {
      wire = toWireRecord(record, now);
    } catch (error) {
      const failure = error as Error;
      if (inSend) queueMicrotask(() => tracked(failure, null));
      else tracked(failure, null);
      return;
    }
    const size = recordSizeUpperBound(wire);
    const pending = new AdmittedRecord(wire, size, now + this.settings.deliveryTimeoutMs, tracked, this.#memory, size + RECORD_OVERHEAD_BYTES);
    const topic = record.topic;
    const cached = this.metadata.peek(topic);
    if (cached && !this.#waiting.get(topic)) {
      this.#route(record, pending, cached, now, inSend);
      return;
    }
    const fail = (error: Error): void => pending.settle(error, null);
    this.#waiting.set(topic, (this.#waiting.get(topic) ?? 0) + 1);
    void (async () => {
      let info: TopicInfo;
      try {
        await this.owner.ready();
        info = await this.#lookup(topic);
      } catch (error) {
        const kind = errorKindOf(error);
        return fail(kind === 'fencing' || kind === 'fatal' ? this.owner.toFatal(error) : (error as Error));
      } finally {
        this.#waiting.set(topic, (this.#waiting.get(topic) ?? 1) - 1);
      }
      this.#route(record, pending, info, now, false);
    })();
  }

  /** Step 1's validation against the topic's configs, then step 2 (the partition) and step 3 (the batch). */
  #route(record: ProducerRecord, pending: AdmittedRecord, info: TopicInfo, now: number, sync: boolean): void {
    const wire = pending.wire;
    const error = this.owner.stopError() ?? validateRecord(wire, info, record.partition, this.settings.maxRequestSize, now);
    if (error) {
      if (sync) queueMicrotask(() => pending.settle(error, null));
      else pending.settle(error, null);
      return;
    }
    const partition = record.partition ?? (wire.key !== null ? partitionFor(wire.key, info.partitions) : this.#stickyPartition(info));
    this.#append(record.topic, partition, pending);
  }

  /** A send the producer refused (abortable or fatal state): rejects and calls back asynchronously. */
  refuse(callback: SendCallback | undefined, option: TxnSendOption, error: Error): Promise<RecordMetadata>;
  refuse(callback: SendCallback, option: TxnSendOption, error: Error, withPromise: false): undefined;
  refuse(callback: SendCallback | undefined, option: TxnSendOption, error: Error, withPromise = true): Promise<RecordMetadata> | undefined {
    const { promise, settle } = withPromise ? this.#sends.track(callback, option) : this.#sends.track(callback, option, false);
    queueMicrotask(() => settle(error, null));
    return promise;
  }

  /** Seals every batch and waits until no send is pending; loops, since callbacks may send more. */
  async flush(): Promise<void> {
    this.#urgent++;
    try {
      for (;;) {
        for (const buf of this.#buffers.values()) this.#seal(buf);
        if (this.#sends.count > 0) {
          await this.#sends.idle();
          continue;
        }
        await new Promise<void>((resolve) => setImmediate(resolve));
        if (this.#sends.count === 0) return;
      }
    } finally {
      this.#urgent--;
    }
  }

  /** Settles every record not yet handed to the broker (open and sealed batches) with `error`. */
  failUnsent(error: Error): void {
    this.#memory.failParked(error); // parked records were never sent either
    for (const buf of this.#buffers.values()) {
      clearTimeout(buf.timer);
      buf.timer = undefined;
      const records = [...buf.sealed.flat(), ...buf.open];
      buf.open = [];
      buf.openBytes = RECORD_BATCH_OVERHEAD;
      buf.sealed = [];
      for (const r of records) r.settle(error, null);
    }
  }

  // 3. per-partition batching

  #append(topic: string, partition: number, rec: Pending): void {
    let byPartition = this.#byTopic.get(topic);
    if (!byPartition) this.#byTopic.set(topic, (byPartition = new Map()));
    let buf = byPartition.get(partition);
    if (!buf) {
      buf = { topic, partition, open: [], openBytes: RECORD_BATCH_OVERHEAD, timer: undefined, sealed: [], sending: false };
      byPartition.set(partition, buf);
      this.#buffers.set(`${topic}\u0000${partition}`, buf);
    }
    // the limit is computed when a batch opens, not per record
    if (buf.open.length === 0) buf.limit = this.#batchLimit(topic);
    const limit = buf.limit ?? this.#batchLimit(topic);
    if (buf.open.length > 0 && buf.openBytes + rec.size > limit) this.#seal(buf);
    buf.open.push(rec);
    buf.openBytes += rec.size;
    if (buf.openBytes >= limit) this.#seal(buf);
    else if (buf.timer === undefined) buf.timer = setTimeout(() => this.#seal(buf), this.#urgent > 0 ? 0 : this.settings.lingerMs);
  }

  #seal(buf: PartitionBuffer): void {
    clearTimeout(buf.timer);
    buf.timer = undefined;
    if (buf.open.length === 0) return;
    buf.sealed.push(buf.open);
    buf.open = [];
    buf.openBytes = RECORD_BATCH_OVERHEAD;
    if (this.#sticky.get(buf.topic) === buf.partition) this.#sticky.delete(buf.topic);
    this.#drain(buf);
  }

  /** Starts the partition's next sealed batch unless one is in flight. */
  #drain(buf: PartitionBuffer): void {
    const batch = buf.sending ? undefined : buf.sealed.shift();
    if (!batch) return;
    buf.sending = true;
    void this.#queue
      .add(() => this.#deliver(buf.topic, buf.partition, batch))
      .catch((error: unknown) => settleAll(batch, error instanceof Error ? error : new Error(String(error))))
      .finally(() => {
        buf.sending = false;
        this.#drain(buf);
      });
  }

  // 4. delivery of one batch

  /** Delivers `records` (one partition, in order); settles every record; never rejects. */
  async #deliver(topic: string, partition: number, records: Pending[]): Promise<void> {
    let maybeWritten = false;
    /** Since when every attempt answered UNKNOWN_TOPIC_OR_PARTITION (the topic was deleted under the sender). */
    let unknownSince: number | undefined;
    for (let attempt = 0; ; attempt++) {
      const stop = this.owner.stopError();
      if (stop) return settleAll(records, stop);
      let ack: ProduceAck;
      try {
        ack = await this.owner.produce({ topic, partition, records: records.map((r) => r.wire) });
      } catch (error) {
        const kind = errorKindOf(error);
        if (kind === 'record' && error instanceof StreamsError) {
          this.metadata.refresh(topic);
          return this.#isolateCulprits(topic, partition, records, error);
        }
        if (kind !== 'retriable') return settleAll(records, this.owner.toFatal(error));
        maybeWritten ||= isOutcomeUnknown(error);
        // Issue 28 item 10: a topic that stays unknown for maxBlockMs was deleted: fail now, not after deliveryTimeoutMs.
        const gone = this.#deletedTopic(topic, error, (unknownSince ??= Date.now()));
        if (gone) return settleAll(records, gone);
        if (!isUnknownTopic(error)) unknownSince = undefined;
        const remaining = Math.min(...records.map((r) => r.deadline)) - Date.now();
        if (remaining > 0) {
          await sleep(Math.min(backoffDelay(attempt, this.settings.retryBackoffMs), remaining));
          continue;
        }
        const what = `${records.length} record(s) for ${topic}-${partition} could not be delivered within deliveryTimeoutMs=${this.settings.deliveryTimeoutMs} after ${attempt + 1} attempt(s)`;
        const timeout = maybeWritten
          ? new DeliveryTimeoutError(`${what}; an attempt may have been written, so the transaction can only abort; last error: ${(error as Error).message}`, { cause: error, code: 'DELIVERY_OUTCOME_UNKNOWN' })
          : new DeliveryTimeoutError(`${what}; last error: ${(error as Error).message}`, { cause: error });
        return settleAll(records, timeout);
      }
      const fatal = this.owner.fatalError();
      if (fatal) return settleAll(records, fatal);
      records.forEach((r, i) => r.settle(null, { topic, partition, offset: ack.baseOffset + i, timestamp: r.wire.timestamp }));
      return;
    }
  }

  /** The error for a topic answering UNKNOWN_TOPIC_OR_PARTITION since `since` for longer than `maxBlockMs`, else undefined. */
  #deletedTopic(topic: string, error: unknown, since: number): UnknownTopicError | undefined {
    if (!isUnknownTopic(error)) return undefined;
    const waited = Date.now() - since;
    if (waited < this.settings.maxBlockMs) return undefined;
    return new UnknownTopicError(
      `Topic '${topic}' does not exist any more: the cluster answered UNKNOWN_TOPIC_OR_PARTITION for ${waited} ms (producer option 'maxBlockMs') to records the producer had metadata for, so it was deleted after they were sent; ` +
        `create the topic again, or fix the topic name`,
      { topic, cause: error },
    );
  }

  /** Culprits named by record_errors fail and the rest is re-sent; without names, split in halves until a record fails alone. */
  async #isolateCulprits(topic: string, partition: number, records: Pending[], error: StreamsError): Promise<void> {
    const named = error instanceof KafkaProtocolError ? error.recordErrors.filter((e) => e.batchIndex >= 0 && e.batchIndex < records.length) : [];
    if (named.length > 0) {
      const culprits = new Map(named.map((e) => [e.batchIndex, e.message]));
      const innocent = records.filter((r, i) => (culprits.has(i) ? (r.settle(brokerRecordError(error, culprits.get(i) ?? null, topic, partition), null), false) : true));
      if (innocent.length > 0) await this.#deliver(topic, partition, innocent);
      return;
    }
    if (records.length === 1) {
      return defined(records[0], 'the record of a one-record batch').settle(brokerRecordError(error, error instanceof KafkaProtocolError ? error.errorMessage : null, topic, partition), null);
    }
    const mid = Math.ceil(records.length / 2);
    await this.#deliver(topic, partition, records.slice(0, mid));
    await this.#deliver(topic, partition, records.slice(mid));
  }

  #stickyPartition(info: TopicInfo): number {
    let p = this.#sticky.get(info.topic);
    if (p === undefined || p >= info.partitions) this.#sticky.set(info.topic, (p = Math.floor(Math.random() * info.partitions)));
    return p;
  }

  #batchLimit(topic: string): number {
    const maxMessageBytes = this.metadata.peek(topic)?.maxMessageBytes ?? this.settings.batchBytes;
    const requestRoom = this.settings.maxRequestSize - REQUEST_OVERHEAD - Buffer.byteLength(topic);
    return Math.max(RECORD_BATCH_OVERHEAD + 1, Math.min(this.settings.batchBytes, maxMessageBytes, requestRoom));
  }
}

function isUnknownTopic(error: unknown): boolean {
  return error instanceof KafkaProtocolError && error.kafkaCode === KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION;
}
