/**
 * The typed outer layer of a key-value store (Kafka's `MeteredKeyValueStore`):
 * turns keys and values into bytes with the store's serdes and delegates to
 * the bytes stack below (caching → change-logging → engine), lifecycle
 * included. sluice keeps no per-operation latency metrics (yet); the name
 * follows Kafka's layering.
 */
import { IllegalArgumentError, SerializationError } from '../errors.js';
import { componentLogger, type Logger } from '../internal/logger.js';
import type { Serde, Serializer } from '../serdes/serde.js';
import { checkedDeserialize, checkedSerialize, serdeName } from '../serdes/checked-serde.js';
import type { KeyValue } from '../records/key-value.js';
import type { BytesEntry, KeyValueBytesStore } from './bytes-store-contract.js';
import type { KeyValueStore } from './state-store.js';
import type { ChangelogRecord, ManagedStateStore, StoreInitContext } from './store-contract.js';
import { StoreLifecycle } from './internal/store-lifecycle.js';
import { typedFlushListener, type TypedFlushListener } from './caching-flush-listener.js';

/** A write since the last flush, as a changelog would carry it (`null` value = delete). */
export interface PendingWrite {
  key: Buffer;
  value: Buffer | null;
}

/** Receives the writes of a store at each flush (last write per key, in key order). */
export type FlushListener = (storeName: string, writes: PendingWrite[]) => void;

/** What the builder tells the typed store about its changelog. */
export interface TypedStoreOptions {
  readonly loggingEnabled: boolean;
  /** The changelog topic configs (`{ 'cleanup.policy': 'compact', ...logConfig }`). */
  readonly changelogConfig: Readonly<Record<string, string>>;
}

const NOT_LOGGED: TypedStoreOptions = { loggingEnabled: false, changelogConfig: {} };

/** Kafka's warning for a range whose serialized `from` is after its `to` (logged, and the range is empty). */
export const INVALID_RANGE_WARNING =
  'Returning empty iterator for fetch with invalid key range: from > to.' +
  " This may be due to range arguments set in the wrong order, or serdes that don't preserve ordering when lexicographically comparing the serialized bytes." +
  ' Note that the built-in numerical serdes do not follow this for negative numbers';

/**
 * A typed {@link KeyValueStore} over any {@link KeyValueBytesStore} stack.
 * Keys order by their serialized bytes.
 *
 * Until every runner calls `init(context)` (the contract's step 2), a store
 * over a non-persistent stack that is used before `init` opens itself with a
 * detached context: no changelog, no cache, no state directory. A persistent
 * store needs its directory and throws IllegalStateError naming `init`.
 */
export class MeteredKeyValueStore<K, V> implements KeyValueStore<K, V>, ManagedStateStore {
  readonly name: string;
  readonly persistent: boolean;
  readonly loggingEnabled: boolean;
  readonly changelogConfig: Readonly<Record<string, string>>;
  private readonly lifecycle: StoreLifecycle;
  private readonly listeners: FlushListener[] = [];
  private readonly pending = new Map<string, PendingWrite>();
  private logger: Logger | undefined;

  constructor(
    /** The top of the bytes stack. */
    readonly inner: KeyValueBytesStore,
    private readonly keySerde: Serde<K>,
    private readonly valueSerde: Serde<V>,
    options: TypedStoreOptions = NOT_LOGGED,
  ) {
    this.name = inner.name;
    this.persistent = inner.persistent;
    this.loggingEnabled = options.loggingEnabled;
    this.changelogConfig = { ...options.changelogConfig };
    this.lifecycle = new StoreLifecycle(inner.name);
  }

  /** Registers a listener for the writes of each flush (commit). */
  onFlush(listener: FlushListener): void {
    this.listeners.push(listener);
  }

  /**
   * Kafka's `CachedStateStore.setFlushListener`: true when a caching layer
   * below will call `listener` with every entry it flushes (the caller then
   * forwards from there, not from `process()`); false without one, or before `init`.
   */
  setFlushListener(listener: TypedFlushListener<K, V>, sendOldValues: boolean): boolean {
    if (!this.isOpen()) return false;
    return this.inner.setFlushListener?.(typedFlushListener(this.name, this.keySerde, this.valueSerde, listener), sendOldValues) ?? false;
  }

  // ---- lifecycle (ManagedStateStore) ----

  init(context: StoreInitContext): void {
    this.lifecycle.ensureNotStarted();
    this.inner.init(context);
    this.logger = context.logger;
    this.lifecycle.open();
  }

  checkpoint(): number | undefined {
    this.ready('checkpoint');
    return this.inner.checkpoint();
  }

  /**
   * Restores the batch, less the records whose value the store's serde cannot
   * read (issue 28 item 13): such a record would block its key for ever (every
   * read of it fails). It is skipped with a WARN naming the store, the
   * changelog partition and offset; the key keeps what it had before it.
   */
  restoreBatch(records: readonly ChangelogRecord[]): void {
    this.ready('restoreBatch');
    const readable = records.filter((record) => this.restorable(record));
    if (readable.length === records.length) this.inner.restoreBatch(records);
    else if (readable.length > 0) this.inner.restoreBatch(readable);
  }

  /** Deserializes a changelog value as the store's serde reads it (throws when it cannot). */
  protected readChangelogValue(value: Buffer): void {
    this.valueSerde.deserialize(this.name, value);
  }

  private restorable(record: ChangelogRecord): boolean {
    if (record.value === null) return true;
    try {
      this.readChangelogValue(record.value);
      return true;
    } catch (error) {
      const where = record.source === undefined ? `offset ${record.offset}` : `${record.source.topic}-${record.source.partition} offset ${record.offset}`;
      this.logger?.warn(
        { store: this.name, offset: record.offset, changelog: record.source, err: error },
        `Store '${this.name}': the changelog record at ${where} has a value its serde ${serdeName(this.valueSerde)} cannot read (${error instanceof Error ? error.message : String(error)}): ` +
          'skipped; its key keeps its value from before that record. Only sluice should write to a changelog topic: find the program that wrote it',
      );
      return false;
    }
  }

  flush(): void {
    this.ready('flush');
    this.inner.flush();
    if (this.pending.size === 0) return;
    const writes = [...this.pending.values()].sort((a, b) => Buffer.compare(a.key, b.key));
    this.pending.clear();
    for (const listener of this.listeners) listener(this.name, writes);
  }

  commit(changelogNextOffset: number | undefined): void {
    this.ready('commit');
    this.inner.commit(changelogNextOffset);
  }

  close(): void {
    if (!this.lifecycle.close()) return;
    this.pending.clear();
    this.inner.close();
  }

  isOpen(): boolean {
    return this.lifecycle.isOpen;
  }

  // ---- KeyValueStore ----

  get(key: K): V | null {
    this.ready('get');
    return this.valueOf(this.inner.get(this.keyBytes(key, 'get')));
  }

  put(key: K, value: V | null): void {
    this.ready('put');
    const keyBytes = this.keyBytes(key, 'put');
    const valueBytes = checkedSerialize(this.valueSerde, this.name, value, undefined, 'VALUE');
    this.inner.put(keyBytes, valueBytes);
    this.recordWrite(keyBytes, valueBytes);
  }

  putIfAbsent(key: K, value: V): V | null {
    this.ready('putIfAbsent');
    const keyBytes = this.keyBytes(key, 'putIfAbsent');
    const valueBytes = checkedSerialize(this.valueSerde, this.name, value, undefined, 'VALUE');
    // A null value deletes: putting it where the key is absent changes nothing.
    if (valueBytes === null) return this.valueOf(this.inner.get(keyBytes));
    const previous = this.inner.putIfAbsent(keyBytes, valueBytes);
    if (previous === null) this.recordWrite(keyBytes, valueBytes);
    return this.valueOf(previous);
  }

  putAll(entries: ReadonlyArray<KeyValue<K, V | null>>): void {
    for (const { key, value } of entries) this.put(key, value);
  }

  delete(key: K): V | null {
    this.ready('delete');
    const keyBytes = this.keyBytes(key, 'delete');
    const previous = this.inner.delete(keyBytes);
    this.recordWrite(keyBytes, null);
    return this.valueOf(previous);
  }

  range(from: K | null, to: K | null): KeyValue<K, V>[] {
    this.ready('range');
    const bounds = this.bounds(from, to, 'range');
    return bounds === undefined ? [] : this.entries(this.inner.range(bounds[0], bounds[1]));
  }

  reverseRange(from: K | null, to: K | null): KeyValue<K, V>[] {
    this.ready('reverseRange');
    const bounds = this.bounds(from, to, 'reverseRange');
    return bounds === undefined ? [] : this.entries(this.inner.reverseRange(bounds[0], bounds[1]));
  }

  all(): KeyValue<K, V>[] {
    this.ready('all');
    return this.entries(this.inner.range(null, null));
  }

  reverseAll(): KeyValue<K, V>[] {
    this.ready('reverseAll');
    return this.entries(this.inner.reverseRange(null, null));
  }

  prefixScan<P>(prefix: P, prefixKeySerializer: Serializer<P>): KeyValue<K, V>[] {
    this.ready('prefixScan');
    if (prefixKeySerializer === null || prefixKeySerializer === undefined || typeof prefixKeySerializer.serialize !== 'function') {
      throw new IllegalArgumentError(`State store '${this.name}': prefixScan needs a serializer for the prefix, e.g. prefixScan('a', Serdes.String())`);
    }
    const bytes = checkedSerialize(prefixKeySerializer, this.name, prefix, undefined, 'KEY');
    if (bytes === null) throw new IllegalArgumentError(`State store '${this.name}': prefixScan does not accept a null prefix`);
    return this.entries(this.inner.prefixScan(bytes));
  }

  approximateNumEntries(): number {
    this.ready('approximateNumEntries');
    return this.inner.approximateNumEntries();
  }

  // ---- helpers ----

  /** Guards `operation`; a non-persistent store used before `init` opens with a detached context. */
  private ready(operation: string): void {
    if (this.lifecycle.state === 'CREATED' && !this.persistent) this.init(detachedContext(this.name));
    this.lifecycle.ensureOpen(operation);
  }

  private keyBytes(key: K, operation: string): Buffer {
    if (key === null || key === undefined) {
      throw new IllegalArgumentError(`State store '${this.name}' does not accept null keys (${operation}): give a non-null key`);
    }
    const bytes = checkedSerialize(this.keySerde, this.name, key, undefined, 'KEY');
    if (bytes === null) throw new IllegalArgumentError(`State store '${this.name}': the key serde returned null for a key (${operation}); a store key must serialize to bytes`);
    return bytes;
  }

  /** The serialized bounds, or `undefined` (with Kafka's warning) when `from` serializes after `to`. */
  private bounds(from: K | null, to: K | null, operation: string): [Buffer | null, Buffer | null] | undefined {
    const lo = from === null || from === undefined ? null : this.keyBytes(from, operation);
    const hi = to === null || to === undefined ? null : this.keyBytes(to, operation);
    if (lo !== null && hi !== null && Buffer.compare(lo, hi) > 0) {
      this.logger?.warn({ store: this.name }, INVALID_RANGE_WARNING);
      return undefined;
    }
    return [lo, hi];
  }

  private valueOf(bytes: Buffer | null): V | null {
    try {
      return checkedDeserialize(this.valueSerde, this.name, bytes, undefined, 'VALUE');
    } catch (error) {
      // A store is not a topic: name it as a store (issue 28 item 13).
      if (!(error instanceof SerializationError)) throw error;
      const cause = error.cause instanceof Error ? error.cause : error;
      throw new SerializationError(`Failed to deserialize a value of store '${this.name}' with serde ${serdeName(this.valueSerde)}: ${cause.message}`, { origin: 'VALUE', topic: this.name, cause });
    }
  }

  private entries(entries: BytesEntry[]): KeyValue<K, V>[] {
    return entries.map((e) => ({
      key: checkedDeserialize(this.keySerde, this.name, e.key, undefined, 'KEY') as K,
      value: this.valueOf(e.value) as V,
    }));
  }

  private recordWrite(key: Buffer, value: Buffer | null): void {
    if (this.listeners.length === 0) return;
    this.pending.set(key.toString('latin1'), { key: Buffer.from(key), value: value === null ? null : Buffer.from(value) });
  }
}

/** The context of a store used before `init`: nothing to log to, no cache, no directory. */
function detachedContext(storeName: string): StoreInitContext {
  return {
    applicationId: '',
    taskId: { subtopology: 0, partition: 0 },
    stateDir: '',
    changelog: undefined,
    cache: undefined,
    recordContext: () => ({ timestamp: 0, headers: {} }),
    logger: componentLogger('state-store', undefined, { store: storeName }),
  };
}
