/**
 * STAND-IN until the kvstores branch lands (its `MeteredKeyValueStore`,
 * `MeteredTimestampedKeyValueStore`, `InMemoryKeyValueBytesStore` and
 * `TimestampedKeyValueStoreBuilder` replace everything here; delete this file
 * then). A typed store over a layered bytes stack, an in-memory bytes engine
 * and a builder putting `wrapChangeLogging` / `wrapCaching` between them, so
 * the DSL's default store (timestamped, logged, cached) runs on this branch.
 */
import { IllegalStateError } from '../../errors.js';
import { componentLogger } from '../../internal/logger.js';
import type { Serde } from '../../serdes/serde.js';
import { checkedDeserialize, checkedSerialize } from '../../serdes/checked-serde.js';
import type { KeyValue } from '../key-value.js';
import type { BytesEntry, KeyValueBytesStore, KeyValueBytesStoreSupplier } from './bytes-store-contract.js';
import { typedFlushListener, type CachedStateStore, type TypedFlushListener } from './caching-flush-listener.js';
import { InMemoryBytesStore } from './internal/bytes-store.js';
import type { KeyValueStore, StateStore, StoreBuilder } from './state-store.js';
import type { ChangelogRecord, ManagedStateStore, StoreInitContext } from './store-contract.js';
import { wrapCaching, wrapChangeLogging } from './store-layers.js';

/** An in-memory bytes engine (stand-in). */
export class StandInBytesStore implements KeyValueBytesStore {
  private readonly bytes = new InMemoryBytesStore();
  private open = false;
  readonly persistent = false;
  constructor(readonly name: string) {}
  init(): void {
    this.open = true;
  }
  checkpoint(): number | undefined {
    return undefined;
  }
  restoreBatch(records: readonly ChangelogRecord[]): void {
    for (const r of records) this.bytes.put(r.key, r.value);
  }
  flush(): void {}
  commit(): void {}
  close(): void {
    this.open = false;
    this.bytes.clear();
  }
  isOpen(): boolean {
    return this.open;
  }
  get(key: Buffer): Buffer | null {
    return this.bytes.get(key);
  }
  put(key: Buffer, value: Buffer | null): void {
    this.bytes.put(key, value);
  }
  putIfAbsent(key: Buffer, value: Buffer): Buffer | null {
    const previous = this.get(key);
    if (previous === null) this.put(key, value);
    return previous;
  }
  delete(key: Buffer): Buffer | null {
    return this.bytes.put(key, null);
  }
  range(from: Buffer | null, to: Buffer | null): BytesEntry[] {
    return this.bytes.range(from, to);
  }
  reverseRange(from: Buffer | null, to: Buffer | null): BytesEntry[] {
    return this.bytes.range(from, to).reverse();
  }
  prefixScan(prefix: Buffer): BytesEntry[] {
    return this.bytes.range(prefix, null).filter((e) => e.key.subarray(0, prefix.length).equals(prefix));
  }
  approximateNumEntries(): number {
    return this.bytes.size;
  }
}

/** A typed store over a bytes stack (stand-in for the kvstores branch's MeteredKeyValueStore). */
export class StandInTypedStore<K, V> implements KeyValueStore<K, V>, ManagedStateStore, CachedStateStore<K, V> {
  readonly name: string;
  readonly persistent: boolean;
  constructor(
    readonly inner: KeyValueBytesStore,
    private readonly keySerde: Serde<K>,
    private readonly valueSerde: Serde<V>,
    readonly loggingEnabled: boolean,
    readonly changelogConfig: Readonly<Record<string, string>>,
  ) {
    this.name = inner.name;
    this.persistent = inner.persistent;
  }
  private initialised = false;
  init(context: StoreInitContext): void {
    this.initialised = true;
    this.inner.init(context);
  }
  checkpoint(): number | undefined {
    return this.inner.checkpoint();
  }
  restoreBatch(records: readonly ChangelogRecord[]): void {
    this.inner.restoreBatch(records);
  }
  flush(): void {
    this.ready('flush');
    this.inner.flush();
  }
  commit(offset: number | undefined): void {
    this.inner.commit(offset);
  }
  close(): void {
    if (this.inner.isOpen()) this.inner.close();
  }
  isOpen(): boolean {
    return this.inner.isOpen();
  }
  /**
   * Kafka's typed `setFlushListener`: false when the stack has no caching
   * layer, or when the store was not initialised (a runner that does not call
   * `init(context)` gives no cache: the caller forwards itself).
   */
  setFlushListener(listener: TypedFlushListener<K, V>, sendOldValues: boolean): boolean {
    if (!this.initialised) return false;
    return this.inner.setFlushListener?.(typedFlushListener(this.name, this.keySerde, this.valueSerde, listener), sendOldValues) ?? false;
  }
  get(key: K): V | null {
    this.ready('get');
    return this.valueOf(this.inner.get(this.keyBytes(key)));
  }
  put(key: K, value: V | null): void {
    this.ready('put');
    this.inner.put(this.keyBytes(key), checkedSerialize(this.valueSerde, this.name, value, undefined, 'VALUE'));
  }
  putIfAbsent(key: K, value: V): V | null {
    const previous = this.get(key);
    if (previous === null) this.put(key, value);
    return previous;
  }
  putAll(entries: ReadonlyArray<KeyValue<K, V | null>>): void {
    for (const { key, value } of entries) this.put(key, value);
  }
  delete(key: K): V | null {
    this.ready('delete');
    return this.valueOf(this.inner.delete(this.keyBytes(key)));
  }
  range(from: K | null, to: K | null): KeyValue<K, V>[] {
    this.ready('range');
    const entries = this.inner.range(from === null ? null : this.keyBytes(from), to === null ? null : this.keyBytes(to));
    return entries.map((e) => ({ key: checkedDeserialize(this.keySerde, this.name, e.key, undefined, 'KEY') as K, value: this.valueOf(e.value) as V }));
  }
  all(): KeyValue<K, V>[] {
    return this.range(null, null);
  }
  approximateNumEntries(): number {
    this.ready('approximateNumEntries');
    return this.inner.approximateNumEntries();
  }
  private ready(op: string): void {
    if (!this.initialised) this.init(detachedContext(this.name)); // a runner that does not init stores yet: no changelog, no cache
    if (!this.inner.isOpen()) throw new IllegalStateError(`State store '${this.name}' cannot ${op}: it is not open (init(context) opens it; close() closes it)`);
  }
  private keyBytes(key: K): Buffer {
    const bytes = checkedSerialize(this.keySerde, this.name, key, undefined, 'KEY');
    if (bytes === null) throw new IllegalStateError(`State store '${this.name}' does not accept null keys`);
    return bytes;
  }
  private valueOf(bytes: Buffer | null): V | null {
    return bytes === null ? null : checkedDeserialize(this.valueSerde, this.name, bytes, undefined, 'VALUE');
  }
}

/** A builder of layered typed stores (stand-in for the kvstores branch's builders). */
export class StandInStoreBuilder<K, V> implements StoreBuilder<StandInTypedStore<K, V>> {
  loggingEnabled = true;
  logConfig: Readonly<Record<string, string>> = {};
  cachingEnabled = false;
  readonly name: string;
  constructor(
    private readonly supplier: KeyValueBytesStoreSupplier,
    private readonly keySerde: Serde<K>,
    private readonly valueSerde: Serde<V>,
    private readonly timestamped: boolean,
  ) {
    this.name = supplier.name;
  }
  build(): StandInTypedStore<K, V> {
    const changelogConfig = this.loggingEnabled ? { 'cleanup.policy': 'compact', ...this.logConfig } : {};
    let store = this.supplier.get();
    if (this.loggingEnabled) store = wrapChangeLogging(store, { timestamped: this.timestamped, logConfig: changelogConfig });
    if (this.cachingEnabled) store = wrapCaching(store, { timestamped: this.timestamped });
    return new StandInTypedStore(store, this.keySerde, this.valueSerde, this.loggingEnabled, changelogConfig);
  }
  withLoggingEnabled(config: Record<string, string> = {}): this {
    this.loggingEnabled = true;
    this.logConfig = { ...config };
    return this;
  }
  withLoggingDisabled(): this {
    this.loggingEnabled = false;
    return this;
  }
  withCachingEnabled(): this {
    this.cachingEnabled = true;
    return this;
  }
  withCachingDisabled(): this {
    this.cachingEnabled = false;
    return this;
  }
}

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

/** The bytes supplier of the stand-in engine. */
export function standInSupplier(name: string, kind: 'in-memory' | 'persistent'): KeyValueBytesStoreSupplier {
  return { name, kind, get: () => new StandInBytesStore(name) };
}

export type { StateStore };
