/**
 * The change-logging layer (Kafka Streams' `ChangeLoggingKeyValueBytesStore`
 * and, with `timestamped`, `ChangeLoggingTimestampedKeyValueBytesStore`):
 * every write that reaches the store below is also sent to the store's
 * changelog through `context.changelog`, stamped with the timestamp and
 * headers of `context.recordContext()`.
 *
 * A timestamped store's values are `timestamp (8 bytes) + value`: its
 * changelog records carry the plain value, with the stored timestamp as the
 * record timestamp (a tombstone takes the record context's timestamp), and
 * `restoreBatch` turns (value, record timestamp) back into the stored layout.
 * Restoration goes to the store below without logging. Without a changelog
 * sink in the init context nothing is logged.
 */
import { IllegalStateError } from '../errors.js';
import type { BytesEntry, BytesFlushListener, KeyValueBytesStore } from './bytes-store-contract.js';
import type { ChangelogRecord, StoreInitContext } from './store-contract.js';
import { rawValue, timestampOf, withTimestamp } from './change-logging-value-timestamp.js';

/** Options of {@link ChangeLoggingKeyValueBytesStore}. */
export interface ChangeLoggingStoreOptions {
  /** True when values carry the 8-byte timestamp prefix of a timestamped store. */
  timestamped: boolean;
}

/** See the module comment. */
export class ChangeLoggingKeyValueBytesStore implements KeyValueBytesStore {
  private context: StoreInitContext | undefined;

  constructor(
    private readonly inner: KeyValueBytesStore,
    private readonly options: ChangeLoggingStoreOptions = { timestamped: false },
  ) {}

  get name(): string {
    return this.inner.name;
  }

  get persistent(): boolean {
    return this.inner.persistent;
  }

  /** The store this layer wraps. */
  get wrapped(): KeyValueBytesStore {
    return this.inner;
  }

  /** True when values carry the 8-byte timestamp prefix. */
  get timestamped(): boolean {
    return this.options.timestamped;
  }

  init(context: StoreInitContext): void {
    this.context = context;
    this.inner.init(context);
  }

  checkpoint(): number | undefined {
    return this.inner.checkpoint();
  }

  /** Step 3: restored records go below unlogged; timestamped values get their record timestamp back in front. */
  restoreBatch(records: readonly ChangelogRecord[]): void {
    if (!this.options.timestamped) return this.inner.restoreBatch(records);
    this.inner.restoreBatch(records.map((r) => ({ ...r, value: withTimestamp(r.value, r.timestamp) })));
  }

  flush(): void {
    this.inner.flush();
  }

  commit(changelogNextOffset: number | undefined): void {
    this.inner.commit(changelogNextOffset);
  }

  close(): void {
    this.inner.close();
  }

  isOpen(): boolean {
    return this.inner.isOpen();
  }

  get(key: Buffer): Buffer | null {
    return this.inner.get(key);
  }

  put(key: Buffer, value: Buffer | null): void {
    this.inner.put(key, value);
    this.log(key, value);
  }

  putIfAbsent(key: Buffer, value: Buffer): Buffer | null {
    const previous = this.inner.putIfAbsent(key, value);
    if (previous === null) this.log(key, value);
    return previous;
  }

  /** Deletes below and logs a tombstone (also when the key was absent, as Kafka does). */
  delete(key: Buffer): Buffer | null {
    const previous = this.inner.delete(key);
    this.log(key, null);
    return previous;
  }

  range(from: Buffer | null, to: Buffer | null): BytesEntry[] {
    return this.inner.range(from, to);
  }

  reverseRange(from: Buffer | null, to: Buffer | null): BytesEntry[] {
    return this.inner.reverseRange(from, to);
  }

  prefixScan(prefix: Buffer): BytesEntry[] {
    return this.inner.prefixScan(prefix);
  }

  approximateNumEntries(): number {
    return this.inner.approximateNumEntries();
  }

  /** Passes a flush listener on to a caching store below, if any (Kafka's `WrappedStateStore.setFlushListener`). */
  setFlushListener(listener: BytesFlushListener, sendOldValues: boolean): boolean {
    return this.inner.setFlushListener?.(listener, sendOldValues) ?? false;
  }

  private log(key: Buffer, value: Buffer | null): void {
    const context = this.context;
    if (context === undefined) throw new IllegalStateError(`State store '${this.name}' is not initialized; call init(context) first`);
    const sink = context.changelog;
    if (sink === undefined) return;
    const record = context.recordContext();
    if (this.options.timestamped && value !== null) {
      sink.send(this.name, key, rawValue(value), timestampOf(value), record.headers);
    } else {
      sink.send(this.name, key, value, record.timestamp, record.headers);
    }
  }
}
