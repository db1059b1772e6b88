/**
 * The change-logging base shared by key-value, window and session stores
 * (Kafka Streams' `ChangeLoggingKeyValueBytesStore`,
 * `ChangeLoggingWindowBytesStore`, `ChangeLoggingSessionBytesStore` and their
 * timestamped variants): a layer that sends every write reaching the store
 * below to the store's changelog through `context.changelog`, keyed by the
 * key binary the store below uses (so the changelog has Kafka's layout).
 *
 * What every kind shares lives here:
 * - the lifecycle, passed down ({@link WrappedBytesStore});
 * - a timestamped store's values are `timestamp (8 bytes) | value`: its
 *   changelog records carry the plain value with the stored timestamp as the
 *   record timestamp (a tombstone takes the processed record's timestamp),
 *   and `restoreBatch` puts the record timestamp back in front;
 * - restoration goes below unlogged; without a changelog sink in the init
 *   context nothing is logged;
 * - a flush listener is passed on to a caching layer below, if any.
 *
 * Each kind adds its writes (which call {@link ChangeLoggingStore.log}) and
 * passes its reads through.
 */
import { IllegalStateError } from '../../errors.js';
import type { BytesFlushListener, BytesStoreLifecycle } from '../bytes-store-contract.js';
import type { ChangelogRecord, StoreInitContext } from '../store-contract.js';
import { readLong, TIMESTAMP_SIZE, writeLong } from './window-bytes.js';
import { WrappedBytesStore } from './wrapped-bytes-store.js';

/** Options of a change-logging layer. */
export interface ChangeLoggingStoreOptions {
  /** True when values carry the 8-byte timestamp prefix of a timestamped store. */
  timestamped: boolean;
}

/** The store below, when it may have a caching layer (which takes a flush listener). */
interface MaybeCaching {
  setFlushListener?(listener: BytesFlushListener, sendOldValues: boolean): boolean;
}

/** See the module comment. */
export abstract class ChangeLoggingStore<S extends BytesStoreLifecycle & MaybeCaching> extends WrappedBytesStore<S> {
  private context: StoreInitContext | undefined;
  /** True when the changelog records also carry the processed record's headers (key-value stores do; window and session stores do not). */
  protected abstract readonly logsHeaders: boolean;

  constructor(
    wrapped: S,
    readonly options: ChangeLoggingStoreOptions = { timestamped: false },
  ) {
    super(wrapped);
  }

  /** True when values carry the 8-byte timestamp prefix. */
  get timestamped(): boolean {
    return this.options.timestamped;
  }

  override init(context: StoreInitContext): void {
    this.context = context;
    this.wrapped.init(context);
  }

  /** Step 3: restored records go below unlogged; timestamped values get their record timestamp back in front. */
  override restoreBatch(records: readonly ChangelogRecord[]): void {
    if (!this.options.timestamped) return this.wrapped.restoreBatch(records);
    this.wrapped.restoreBatch(withTimestampPrefix(records));
  }

  /** Passes a flush listener on to a caching store below, if any (Kafka's `WrappedStateStore.setFlushListener`). */
  setFlushListener(listener: BytesFlushListener, sendOldValues: boolean): boolean {
    return this.wrapped.setFlushListener?.(listener, sendOldValues) ?? false;
  }

  /** Sends one write to the changelog: `key` as the store below keyed it, `value` as stored (`null`: a tombstone). */
  protected log(key: Buffer, value: Buffer | null): void {
    const context = this.context;
    if (context === undefined) throw new IllegalStateError(`State store '${this.name}' is not initialized; call init(context) first`);
    const sink = context.changelog;
    if (sink === undefined) return;
    const record = context.recordContext();
    const stamped = this.options.timestamped && value !== null && value.length >= TIMESTAMP_SIZE;
    const logged = stamped ? Buffer.from(value.subarray(TIMESTAMP_SIZE)) : value;
    const timestamp = stamped ? readLong(value, 0) : record.timestamp;
    if (this.logsHeaders) sink.send(this.name, key, logged, timestamp, record.headers);
    else sink.send(this.name, key, logged, timestamp);
  }
}

/**
 * The records with `timestamp (8 bytes) | value` as value (tombstones as they
 * are): every stamped value is a view of ONE buffer allocated for the batch
 * (no buffer per record; the store below copies or writes what it keeps).
 */
export function withTimestampPrefix(records: readonly ChangelogRecord[]): ChangelogRecord[] {
  let bytes = 0;
  for (const r of records) if (r.value !== null) bytes += TIMESTAMP_SIZE + r.value.length;
  const all = Buffer.allocUnsafeSlow(bytes);
  const out = new Array<ChangelogRecord>(records.length);
  let at = 0;
  for (let i = 0; i < records.length; i++) {
    const r = records[i] as ChangelogRecord;
    if (r.value === null) {
      out[i] = r;
      continue;
    }
    const start = at;
    writeLong(all, at, r.timestamp);
    at += TIMESTAMP_SIZE;
    at += r.value.copy(all, at);
    out[i] = { key: r.key, value: all.subarray(start, at), timestamp: r.timestamp, headers: r.headers, offset: r.offset, source: r.source };
  }
  return out;
}
