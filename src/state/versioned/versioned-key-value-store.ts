/**
 * Versioned key-value stores (KIP-889): every key keeps its versions over
 * time, each valid from its timestamp until the next one's; reads ask for the
 * latest version or the one valid at a given time. The typed outer layer
 * (Kafka's `MeteredVersionedKeyValueStore`) turns keys and values into bytes
 * with the store's serdes and delegates to the bytes stack below
 * (change-logging → versioned engine), lifecycle included.
 */
import { IllegalArgumentError } from '../../errors.js';
import type { Logger } from '../../internal/logger.js';
import { checkedDeserialize, checkedSerialize, serdeName } from '../../serdes/checked-serde.js';
import type { Serde } from '../../serdes/serde.js';
import { StoreLifecycle } from '../internal/store-lifecycle.js';
import type { StateStore } from '../state-store.js';
import type { ChangelogRecord, ManagedStateStore, StoreInitContext } from '../store-contract.js';
import type { VersionedBytesStore } from './versioned-bytes-store.js';
import { NOT_PUT, VALID_TO_UNDEFINED, type VersionRead } from './version-list.js';

/**
 * One version of a key's value (Kafka's `VersionedRecord`): the value, the
 * timestamp it is valid from, and `validTo` (exclusive) unless it is the
 * latest version.
 */
export interface VersionedRecord<V> {
  /** The value of this version. */
  readonly value: V;
  /** When this version became valid (its record's timestamp, ms). */
  readonly timestamp: number;
  /** When the next version takes over (exclusive); absent for the latest version. */
  readonly validTo?: number;
}

/**
 * A versioned key-value store (Kafka's `VersionedKeyValueStore`). History
 * older than the store's history retention (measured against the highest
 * timestamp put so far, its stream time) cannot be read or written.
 */
export interface VersionedKeyValueStore<K, V> extends StateStore {
  /**
   * Puts `value` (`null`: a tombstone, the key has no value from then on)
   * valid from `timestamp`. Returns the new version's `validTo`:
   * `VersionedKeyValueStore.PUT_RETURN_CODE_VALID_TO_UNDEFINED` (-1) when it
   * is the latest, `VersionedKeyValueStore.PUT_RETURN_CODE_NOT_PUT` when
   * `timestamp` is older than the history retention and nothing was put.
   */
  put(key: K, value: V | null, timestamp: number): number;
  /** Puts a tombstone at `timestamp`; returns the version valid at `timestamp` before it (`null`: none, or too old). */
  delete(key: K, timestamp: number): VersionedRecord<V> | null;
  /** The latest version (`null`: none, or a tombstone); with `asOfTimestamp`, the version valid then. */
  get(key: K, asOfTimestamp?: number): VersionedRecord<V> | null;
}

/** The return codes of `VersionedKeyValueStore.put`, as Kafka's constants. */
export const VersionedKeyValueStore = {
  /** The put is the latest version (it has no `validTo`). */
  PUT_RETURN_CODE_VALID_TO_UNDEFINED: VALID_TO_UNDEFINED,
  /** The put was older than the history retention (grace period) and did not happen (Kafka's `Long.MIN_VALUE`). */
  PUT_RETURN_CODE_NOT_PUT: NOT_PUT,
} as const;

/** What the builder tells the typed store about its changelog. */
export interface VersionedStoreOptions {
  readonly loggingEnabled: boolean;
  readonly changelogConfig: Readonly<Record<string, string>>;
}

/** The typed layer (see the module comment). */
export class MeteredVersionedKeyValueStore<K, V> implements VersionedKeyValueStore<K, V>, ManagedStateStore {
  readonly name: string;
  readonly persistent: boolean;
  readonly loggingEnabled: boolean;
  readonly changelogConfig: Readonly<Record<string, string>>;
  readonly #lifecycle: StoreLifecycle;
  #logger: Logger | undefined;

  constructor(
    /** The top of the bytes stack. */
    readonly inner: VersionedBytesStore,
    private readonly keySerde: Serde<K>,
    private readonly valueSerde: Serde<V>,
    options: VersionedStoreOptions,
  ) {
    this.name = inner.name;
    this.persistent = inner.persistent;
    this.loggingEnabled = options.loggingEnabled;
    this.changelogConfig = { ...options.changelogConfig };
    this.#lifecycle = new StoreLifecycle(inner.name);
  }

  /** Puts and deletes dropped as older than the history retention. */
  get droppedRecords(): number {
    return this.inner.droppedRecords;
  }

  /** The history retention (also the grace period), ms. */
  get historyRetentionMs(): number {
    return this.inner.historyRetentionMs;
  }

  // ---- lifecycle (ManagedStateStore) ----

  init(context: StoreInitContext): void {
    this.#lifecycle.ensureNotStarted();
    this.inner.init(context);
    this.#logger = context.logger;
    this.#lifecycle.open();
  }

  checkpoint(): number | undefined {
    this.#lifecycle.ensureOpen('checkpoint');
    return this.inner.checkpoint();
  }

  /** Restores the batch, less the records whose value the serde cannot read (skipped with a WARN, as the key-value store does). */
  restoreBatch(records: readonly ChangelogRecord[]): void {
    this.#lifecycle.ensureOpen('restoreBatch');
    const readable = records.filter((record) => this.#restorable(record));
    if (readable.length > 0) this.inner.restoreBatch(readable.length === records.length ? records : readable);
  }

  flush(): void {
    this.#lifecycle.ensureOpen('flush');
    this.inner.flush();
  }

  commit(changelogNextOffset: number | undefined): void {
    this.#lifecycle.ensureOpen('commit');
    this.inner.commit(changelogNextOffset);
  }

  close(): void {
    if (!this.#lifecycle.close()) return;
    this.inner.close();
  }

  isOpen(): boolean {
    return this.#lifecycle.isOpen;
  }

  // ---- VersionedKeyValueStore ----

  put(key: K, value: V | null, timestamp: number): number {
    this.#lifecycle.ensureOpen('put');
    checkTimestamp(this.name, 'put', timestamp);
    const valueBytes = checkedSerialize(this.valueSerde, this.name, value, undefined, 'VALUE');
    return this.inner.put(this.#keyBytes(key, 'put'), valueBytes, timestamp);
  }

  delete(key: K, timestamp: number): VersionedRecord<V> | null {
    this.#lifecycle.ensureOpen('delete');
    checkTimestamp(this.name, 'delete', timestamp);
    return this.#record(this.inner.delete(this.#keyBytes(key, 'delete'), timestamp));
  }

  get(key: K, asOfTimestamp?: number): VersionedRecord<V> | null {
    this.#lifecycle.ensureOpen('get');
    const keyBytes = this.#keyBytes(key, 'get');
    if (asOfTimestamp === undefined) return this.#record(this.inner.get(keyBytes));
    checkTimestamp(this.name, 'get', asOfTimestamp);
    return this.#record(this.inner.getAsOf(keyBytes, asOfTimestamp));
  }

  /** The versions valid at some time in `[from, to]` (Kafka's `MultiVersionedKeyQuery`), newest first unless `ascending`. */
  versions(key: K, from: number, to: number, ascending = false): VersionedRecord<V>[] {
    this.#lifecycle.ensureOpen('versions');
    return this.inner.versions(this.#keyBytes(key, 'versions'), from, to, ascending).flatMap((v) => this.#record(v) ?? []);
  }

  // ---- helpers ----

  #keyBytes(key: K, operation: string): Buffer {
    if (key === null || key === undefined) {
      throw new IllegalArgumentError(`State store '${this.name}' does not accept null keys (${operation}): give a non-null key`);
    }
    const bytes = checkedSerialize(this.keySerde, this.name, key, undefined, 'KEY');
    if (bytes === null) throw new IllegalArgumentError(`State store '${this.name}': the key serde returned null for a key (${operation}); a store key must serialize to bytes`);
    return bytes;
  }

  #record(read: VersionRead | null): VersionedRecord<V> | null {
    if (read === null) return null;
    const value = checkedDeserialize(this.valueSerde, this.name, read.value, undefined, 'VALUE') as V;
    return read.validTo === undefined ? { value, timestamp: read.timestamp } : { value, timestamp: read.timestamp, validTo: read.validTo };
  }

  #restorable(record: ChangelogRecord): boolean {
    if (record.value === null) return true;
    try {
      this.valueSerde.deserialize(this.name, record.value);
      return true;
    } catch (error) {
      this.#logger?.warn(
        { store: this.name, offset: record.offset, changelog: record.source, err: error },
        `Store '${this.name}': the changelog record at offset ${record.offset} has a value its serde ${serdeName(this.valueSerde)} cannot read: skipped`,
      );
      return false;
    }
  }
}

function checkTimestamp(store: string, operation: string, timestamp: number): void {
  if (typeof timestamp !== 'number' || Number.isNaN(timestamp)) {
    throw new IllegalArgumentError(`State store '${store}': ${operation} needs a timestamp in ms (a number), got ${String(timestamp)}`);
  }
}
