/**
 * A record on its way through the partition sender (DESIGN.md §3): what the
 * sender needs of its producer, a record waiting in a batch or in flight, and
 * step 5 of the send path, settling each record exactly once.
 */
import type { WireRecord } from '../../records/types.js';
import type { ProduceAck, ProduceBatch } from '../../cluster/port.js';
import type { RecordMetadata, SendCallback } from '../producer-types.js';
import type { TxnSendOption } from '../txn-send-option.js';
import { defined } from '../../internal/defined.js';

/** What the sender needs of its producer (the one place that holds the transaction state). */
export interface SenderOwner {
  /** One produce request for one topic-partition (after the transaction's begin). */
  produce(batch: ProduceBatch): Promise<ProduceAck>;
  /** Why records not yet written must fail now (fatal, aborting, closed). */
  stopError(): Error | undefined;
  /** The fatal error: records acknowledged after it still fail (their transaction cannot commit). */
  fatalError(): Error | undefined;
  /** A record failed with `option` (or its callback threw): the transaction learns it first. */
  recordFailed(error: Error, option: TxnSendOption): void;
  /** Moves the producer to FATAL_ERROR; returns the error every record gets. */
  toFatal(error: unknown): Error;
  /** Resolves once connected (lazy connect of an idempotent producer). */
  ready(): Promise<void>;
}

/** A validated record waiting in a batch or in flight. */
export interface Pending {
  wire: WireRecord;
  size: number;
  /** Epoch ms after which retries stop. */
  deadline: number;
  settle(error: Error | null, metadata: RecordMetadata | null): void;
}

export interface PartitionBuffer {
  topic: string;
  partition: number;
  open: Pending[];
  openBytes: number;
  timer: NodeJS.Timeout | undefined;
  sealed: Pending[][];
  sending: boolean;
  /** The open batch's byte limit, computed when it opened. */
  limit?: number;
}

/** The records sent and not yet settled, and their settling (step 5). */
export class PendingSends {
  #count = 0;
  #idle: Array<() => void> = [];

  constructor(private readonly owner: SenderOwner) {}

  /** Records sent and not yet settled. */
  get count(): number {
    return this.#count;
  }

  /** Resolves the next time no record is pending. */
  idle(): Promise<void> {
    return new Promise<void>((resolve) => this.#idle.push(resolve));
  }

  /**
   * A promise and its settle-once function for one record sent with `option`: the owner learns of a failure
   * first, then the callback runs, then the promise settles; only then does the record stop counting.
   * With `withPromise` false (the record collector, which learns the outcome from the callback) no promise
   * is made: `promise` is undefined, and a record costs no promise and no resolver closures.
   */
  track(callback: SendCallback | undefined, option: TxnSendOption, withPromise: false): { promise: undefined; settle: Pending['settle'] };
  track(callback: SendCallback | undefined, option: TxnSendOption, withPromise?: true): { promise: Promise<RecordMetadata>; settle: Pending['settle'] };
  track(callback: SendCallback | undefined, option: TxnSendOption, withPromise = true): { promise: Promise<RecordMetadata> | undefined; settle: Pending['settle'] } {
    let resolve: ((m: RecordMetadata) => void) | undefined;
    let reject: ((e: Error) => void) | undefined;
    let promise: Promise<RecordMetadata> | undefined;
    if (withPromise) {
      promise = new Promise<RecordMetadata>((res, rej) => ((resolve = res), (reject = rej)));
      promise.catch(() => undefined); // a caller relying on the callback (or on commit) need not await it
    }
    this.#count++;
    let settled = false;
    const settle: Pending['settle'] = (error, metadata) => {
      if (settled) return;
      settled = true;
      try {
        if (error) this.owner.recordFailed(error, option);
        try {
          callback?.(error, metadata);
        } catch (thrown) {
          this.owner.recordFailed(thrown instanceof Error ? thrown : new Error(String(thrown)), 'NONE');
        }
        if (error) reject?.(error);
        else if (resolve) resolve(defined(metadata ?? undefined, 'metadata of a delivered record'));
      } finally {
        if (--this.#count === 0) for (const wake of this.#idle.splice(0)) wake();
      }
    };
    return { promise, settle };
  }
}

/** Settles every record with `error`. */
export function settleAll(records: Pending[], error: Error): void {
  for (const r of records) r.settle(error, null);
}
