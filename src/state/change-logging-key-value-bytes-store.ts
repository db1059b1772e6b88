/**
 * The change-logging layer of key-value stores (Kafka Streams'
 * `ChangeLoggingKeyValueBytesStore` and, with `timestamped`,
 * `ChangeLoggingTimestampedKeyValueBytesStore`): every write that reaches the
 * store below is also sent to the store's changelog, stamped with the
 * timestamp and headers of `context.recordContext()`.
 *
 * What all kinds share (lifecycle, the timestamped layout, restoration, the
 * flush listener) is the base `./internal/change-logging-store.ts`; this
 * layer adds the key-value writes and passes the reads through.
 */
import type { BytesEntry, KeyValueBytesStore } from './bytes-store-contract.js';
import { ChangeLoggingStore } from './internal/change-logging-store.js';

export type { ChangeLoggingStoreOptions } from './internal/change-logging-store.js';

/** See the module comment. */
export class ChangeLoggingKeyValueBytesStore extends ChangeLoggingStore<KeyValueBytesStore> implements KeyValueBytesStore {
  protected readonly logsHeaders = true;

  get(key: Buffer): Buffer | null {
    return this.wrapped.get(key);
  }

  put(key: Buffer, value: Buffer | null): void {
    this.wrapped.put(key, value);
    this.log(key, value);
  }

  putIfAbsent(key: Buffer, value: Buffer): Buffer | null {
    const previous = this.wrapped.putIfAbsent(key, value);
    if (previous === null) this.log(key, value);
    return previous;
  }

  /** Deletes below and logs a tombstone (also when the key was absent, as Kafka does). */
  delete(key: Buffer): Buffer | null {
    const previous = this.wrapped.delete(key);
    this.log(key, null);
    return previous;
  }

  range(from: Buffer | null, to: Buffer | null): BytesEntry[] {
    return this.wrapped.range(from, to);
  }

  reverseRange(from: Buffer | null, to: Buffer | null): BytesEntry[] {
    return this.wrapped.reverseRange(from, to);
  }

  prefixScan(prefix: Buffer): BytesEntry[] {
    return this.wrapped.prefixScan(prefix);
  }

  approximateNumEntries(): number {
    return this.wrapped.approximateNumEntries();
  }
}
