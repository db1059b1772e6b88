/**
 * {@link PartitionReaderPort} of the embedded cluster: reads partition logs
 * directly, outside any group, with the semantics of a Kafka 4 broker's Fetch
 * (`partition-log.ts`): read_committed stops at the last stable offset and
 * skips aborted data and transaction markers; `nextOffset` moves past them.
 */
import { IllegalArgumentError, IllegalStateError, KafkaErrorCode } from '../../../errors.js';
import type { PartitionReaderOptions, PartitionReaderPort, PartitionReadResult, TopicPartition } from '../../port.js';
import { brokerError } from './broker-error.js';
import type { Broker } from './broker.js';
import type { Isolation } from './partition-log.js';

const DEFAULT_MAX_WAIT_MS = 500;

/** An assign-based reader of the embedded broker. */
export class EmbeddedPartitionReader implements PartitionReaderPort {
  private readonly isolation: Isolation;
  private closed = false;
  /** Wakes fetches waiting for data when the reader closes. */
  private readonly wakeOnClose = new Set<() => void>();

  constructor(
    private readonly broker: Broker,
    options: PartitionReaderOptions = {},
  ) {
    this.isolation = options.isolationLevel ?? 'read_committed';
  }

  private checkOpen(what: string): void {
    if (this.closed) throw new IllegalStateError(`${what}: the partition reader is closed`);
  }

  async endOffsets(topic: string): Promise<number[]> {
    this.checkOpen(`endOffsets(${topic})`);
    this.broker.txn.expire();
    return this.broker.logs(topic).map((_, p) => this.broker.latestOffset(topic, p, this.isolation));
  }

  /**
   * 1. check the offset (OFFSET_OUT_OF_RANGE beyond the high watermark or below
   *    the log start offset); 2. fetch; 3. nothing moved: wait for
   *    an append or marker (at most `maxWaitMs` in all) and fetch again.
   */
  async fetch(tp: TopicPartition, offset: number, options: { maxBytes?: number; maxWaitMs?: number } = {}): Promise<PartitionReadResult> {
    const what = `fetch ${tp.topic}-${tp.partition} at ${offset}`;
    this.checkOpen(what);
    if (!Number.isSafeInteger(offset) || offset < 0) {
      throw new IllegalArgumentError(`fetch(${tp.topic}-${tp.partition}): offset must be a non-negative integer, got ${offset}`);
    }
    const deadline = Date.now() + (options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS);
    for (;;) {
      // 1.
      const log = this.broker.log(tp.topic, tp.partition);
      if (offset > log.highWatermark || offset < log.logStartOffset) {
        throw brokerError(
          KafkaErrorCode.OFFSET_OUT_OF_RANGE,
          `offset ${offset} of ${tp.topic}-${tp.partition} is out of range: the log holds offsets ${log.logStartOffset} to ${log.highWatermark - 1} (high watermark ${log.highWatermark})`,
        );
      }
      // 2.
      const result = await this.broker.fetch(tp.topic, tp.partition, offset, this.isolation, options.maxBytes);
      const endOffset = this.isolation === 'read_committed' ? result.lastStableOffset : result.highWatermark;
      const remaining = deadline - Date.now();
      if (result.records.length > 0 || result.nextOffset > offset || remaining <= 0 || this.closed) {
        return { records: result.records, nextOffset: result.nextOffset, endOffset };
      }
      // 3.
      await this.changeOrTimeout(remaining);
    }
  }

  /** Resolves at the broker's next append, marker or expiry, after `ms`, or when the reader closes. */
  private changeOrTimeout(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        unsubscribe();
        this.wakeOnClose.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      const unsubscribe = this.broker.onChange(done);
      this.wakeOnClose.add(done);
    });
  }

  /** Idempotent; a fetch waiting for data resolves with what is there. */
  async close(): Promise<void> {
    this.closed = true;
    for (const wake of [...this.wakeOnClose]) wake();
  }
}
