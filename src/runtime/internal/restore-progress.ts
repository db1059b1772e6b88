/**
 * The instance's restoration counters and its restore listener: what the
 * metrics, the INFO log lines and the CLI progress line show.
 */
import type { Logger } from 'pino';
import type { TopicPartition } from '../../cluster/port.js';
import type { RestoreMetrics, StateRestoreListener } from '../state-restore-listener.js';

interface Active {
  store: string;
  tp: TopicPartition;
  total: number;
  restored: number;
}

/** Restoration bookkeeping of one app instance. */
export class RestoreProgress {
  listener: StateRestoreListener | undefined;
  #restored = 0;
  readonly #active = new Map<string, Active>();
  /** (time, restored) samples of the last seconds, for the rate. */
  #samples: Array<{ at: number; restored: number }> = [];

  constructor(private readonly logger: Logger) {}

  /** A store starts restoring `end - start` records (at most). */
  start(tp: TopicPartition, store: string, start: number, end: number): void {
    this.#active.set(`${store}@${tp.topic}-${tp.partition}`, { store, tp: { topic: tp.topic, partition: tp.partition }, total: Math.max(0, end - start), restored: 0 });
    this.#call('onRestoreStart', () => this.listener?.onRestoreStart?.(tp, store, start, end));
  }

  /** One batch of `count` records (the last at `batchEndOffset`) was applied. */
  batch(tp: TopicPartition, store: string, batchEndOffset: number, count: number): void {
    const active = this.#active.get(`${store}@${tp.topic}-${tp.partition}`);
    if (active) active.restored += count;
    this.#restored += count;
    this.#sample();
    this.#call('onBatchRestored', () => this.listener?.onBatchRestored?.(tp, store, batchEndOffset, count));
  }

  /** The store reached its end offset (or its task closed: `completed` false). */
  end(tp: TopicPartition, store: string, total: number, completed: boolean): void {
    this.#active.delete(`${store}@${tp.topic}-${tp.partition}`);
    if (completed) this.#call('onRestoreEnd', () => this.listener?.onRestoreEnd?.(tp, store, total));
  }

  metrics(now = Date.now()): RestoreMetrics {
    let total = 0;
    let restored = 0;
    for (const a of this.#active.values()) {
      total += a.total;
      restored += Math.min(a.restored, a.total);
    }
    return { restoredRecords: this.#restored, remainingRecords: total - restored, totalRecords: total, rate: this.#rate(now), activeRestorations: this.#active.size };
  }

  /** The restorations under way: store, changelog partition, records restored of total (the live UI's progress bars). */
  active(): Array<{ store: string; topic: string; partition: number; restored: number; total: number }> {
    return [...this.#active.values()].map((a) => ({ store: a.store, topic: a.tp.topic, partition: a.tp.partition, restored: Math.min(a.restored, a.total), total: a.total }));
  }

  #sample(): void {
    const now = Date.now();
    this.#samples.push({ at: now, restored: this.#restored });
    this.#samples = this.#samples.filter((s) => now - s.at <= 5_000);
  }

  #rate(now: number): number {
    const first = this.#samples[0];
    const last = this.#samples[this.#samples.length - 1];
    if (!first || !last || this.#active.size === 0 || now - last.at > 5_000) return 0;
    const seconds = (last.at - first.at) / 1000;
    return seconds <= 0 ? 0 : Math.round((last.restored - first.restored) / seconds);
  }

  #call(what: string, run: () => void): void {
    try {
      run();
    } catch (error) {
      this.logger.warn({ err: error }, `the state restore listener threw in ${what}; ignored, restoration goes on`);
    }
  }
}
