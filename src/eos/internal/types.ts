/** Internal types shared by the send pipeline modules. */
import type { WireRecord } from '../../records/types.js';
import type { RecordMetadata } from '../producer-types.js';

/** A validated record waiting in an accumulator or in flight. */
export interface PendingSend {
  topic: string;
  partition: number;
  wire: WireRecord;
  /** Upper bound of the record's encoded size inside a batch. */
  size: number;
  /** Epoch ms after which retries stop (send time + deliveryTimeoutMs). */
  deadline: number;
  /** Completes the record (callback, promise, pending count). Idempotent. */
  settle(error: Error | null, metadata: RecordMetadata | null): void;
}
