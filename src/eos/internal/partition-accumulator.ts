/**
 * Per-partition batching (DESIGN.md §4 step 2): records are collected per
 * topic-partition until the linger time passes or the byte limit is reached;
 * sealed batches of one partition are delivered strictly one at a time, in
 * order (so producer sequences never desynchronise), while different
 * partitions are delivered concurrently through a bounded p-queue.
 */
import PQueue from 'p-queue';
import { RECORD_BATCH_OVERHEAD } from './record-size.js';
import type { PendingSend } from './types.js';

/** Delivers one sealed batch; must settle every record and never reject. */
export type DeliverFn = (topic: string, partition: number, records: PendingSend[]) => Promise<void>;

interface PartitionBuffer {
  topic: string;
  partition: number;
  open: PendingSend[];
  openBytes: number;
  timer: NodeJS.Timeout | undefined;
  sealed: PendingSend[][];
  sending: boolean;
}

/** Options of {@link PartitionAccumulator}. */
export interface AccumulatorOptions {
  lingerMs: number;
  maxInFlightPartitions: number;
  /** Byte limit of a batch for a topic (already capped under max.message.bytes and maxRequestSize). */
  batchLimit(topic: string): number;
  deliver: DeliverFn;
  /** Called when a partition's open batch is sealed (sticky partitioning moves on). */
  onSeal?(topic: string, partition: number): void;
}

/** Collects records per partition and hands sealed batches to `deliver`. */
export class PartitionAccumulator {
  readonly #buffers = new Map<string, PartitionBuffer>();
  readonly #queue: PQueue;
  /** While > 0 (flush/commit), open batches are sealed on the next tick instead of after lingerMs. */
  urgent = 0;

  constructor(private readonly opts: AccumulatorOptions) {
    this.#queue = new PQueue({ concurrency: opts.maxInFlightPartitions });
  }

  /** Adds a validated record to its partition's open batch. */
  append(rec: PendingSend): void {
    const buf = this.#buffer(rec.topic, rec.partition);
    const limit = this.opts.batchLimit(rec.topic);
    if (buf.open.length > 0 && buf.openBytes + rec.size > limit) this.#seal(buf);
    buf.open.push(rec);
    buf.openBytes += rec.size;
    if (buf.openBytes >= limit) {
      this.#seal(buf);
    } else if (buf.timer === undefined) {
      buf.timer = setTimeout(() => this.#seal(buf), this.urgent > 0 ? 0 : this.opts.lingerMs);
    }
  }

  /** Seals every open batch now (flush). */
  sealAll(): void {
    for (const buf of this.#buffers.values()) this.#seal(buf);
  }

  /** Settles every record not yet handed to `deliver` (open and sealed batches) with `error`. */
  failUnsent(error: Error): void {
    for (const buf of this.#buffers.values()) {
      if (buf.timer !== undefined) clearTimeout(buf.timer);
      buf.timer = undefined;
      const records = [...buf.sealed.flat(), ...buf.open];
      buf.open = [];
      buf.openBytes = RECORD_BATCH_OVERHEAD;
      buf.sealed = [];
      for (const r of records) r.settle(error, null);
    }
  }

  #buffer(topic: string, partition: number): PartitionBuffer {
    const id = `${topic}\u0000${partition}`;
    let buf = this.#buffers.get(id);
    if (!buf) {
      buf = { topic, partition, open: [], openBytes: RECORD_BATCH_OVERHEAD, timer: undefined, sealed: [], sending: false };
      this.#buffers.set(id, buf);
    }
    return buf;
  }

  #seal(buf: PartitionBuffer): void {
    if (buf.timer !== undefined) clearTimeout(buf.timer);
    buf.timer = undefined;
    if (buf.open.length === 0) return;
    buf.sealed.push(buf.open);
    buf.open = [];
    buf.openBytes = RECORD_BATCH_OVERHEAD;
    this.opts.onSeal?.(buf.topic, buf.partition);
    this.#drain(buf);
  }

  /** Starts the next sealed batch of the partition unless one is in flight. */
  #drain(buf: PartitionBuffer): void {
    if (buf.sending) return;
    const batch = buf.sealed.shift();
    if (!batch) return;
    buf.sending = true;
    void this.#queue
      .add(() => this.opts.deliver(buf.topic, buf.partition, batch))
      .catch((err: unknown) => {
        // deliver never rejects by contract; if it does, no record may hang.
        const error = err instanceof Error ? err : new Error(String(err));
        for (const r of batch) r.settle(error, null);
      })
      .finally(() => {
        buf.sending = false;
        this.#drain(buf);
      });
  }
}
