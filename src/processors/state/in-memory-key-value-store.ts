/**
 * The in-memory key-value store: typed over an ordered bytes map through the
 * store's serdes.
 */
import { IllegalStateError } from '../../errors.js';
import type { Serde } from '../../serdes/serde.js';
import { checkedDeserialize, checkedSerialize } from '../../serdes/checked-serde.js';
import type { ChangelogRecord, ManagedStateStore } from './store-contract.js';
import type { KeyValue } from '../key-value.js';
import type { KeyValueStore } from './state-store.js';
import { InMemoryBytesStore, type PendingWrite } from './internal/bytes-store.js';

/** Receives the writes of a store at each flush (commit): a changelog writer, for instance. */
export type FlushListener = (storeName: string, writes: PendingWrite[]) => void;

type StoreState = 'OPEN' | 'CLOSED';
const TRANSITIONS: { [S in StoreState]: readonly StoreState[] } = { OPEN: ['CLOSED'], CLOSED: [] };

/**
 * An in-memory {@link KeyValueStore}. Keys are ordered by their serialized
 * bytes. Writes are applied at once for readers of the task, and handed to
 * the flush listeners only at `flush()` (commit), which is where a
 * transactional or changelogged store publishes them.
 */
export class InMemoryKeyValueStore<K, V> implements KeyValueStore<K, V>, ManagedStateStore {
  private readonly bytes = new InMemoryBytesStore();
  private readonly listeners: FlushListener[] = [];
  private state: StoreState = 'OPEN';
  readonly persistent = false;
  readonly loggingEnabled = false;
  readonly changelogConfig: Readonly<Record<string, string>> = {};

  constructor(
    readonly name: string,
    private readonly keySerde: Serde<K>,
    private readonly valueSerde: Serde<V>,
  ) {}

  /** Registers a listener for the writes published at each flush. */
  onFlush(listener: FlushListener): void {
    this.listeners.push(listener);
  }

  private ensureOpen(operation: string): void {
    if (this.state !== 'OPEN') {
      throw new IllegalStateError(`State store '${this.name}' cannot ${operation} in state ${this.state}; allowed in: OPEN`);
    }
  }

  private keyBytes(key: K): Buffer {
    const bytes = checkedSerialize(this.keySerde, this.name, key, undefined, 'KEY');
    if (bytes === null) throw new IllegalStateError(`State store '${this.name}' does not accept null keys`);
    return bytes;
  }

  private valueOf(bytes: Buffer | null): V | null {
    return checkedDeserialize(this.valueSerde, this.name, bytes, undefined, 'VALUE');
  }

  private entry(key: Buffer, value: Buffer): KeyValue<K, V> {
    return {
      key: checkedDeserialize(this.keySerde, this.name, key, undefined, 'KEY') as K,
      value: this.valueOf(value) as V,
    };
  }

  get(key: K): V | null {
    this.ensureOpen('get');
    return this.valueOf(this.bytes.get(this.keyBytes(key)));
  }

  put(key: K, value: V | null): void {
    this.ensureOpen('put');
    const valueBytes = checkedSerialize(this.valueSerde, this.name, value, undefined, 'VALUE');
    this.bytes.put(this.keyBytes(key), valueBytes);
  }

  putIfAbsent(key: K, value: V): V | null {
    this.ensureOpen('putIfAbsent');
    const previous = this.get(key);
    if (previous === null) this.put(key, value);
    return previous;
  }

  putAll(entries: ReadonlyArray<KeyValue<K, V | null>>): void {
    for (const { key, value } of entries) this.put(key, value);
  }

  delete(key: K): V | null {
    this.ensureOpen('delete');
    return this.valueOf(this.bytes.put(this.keyBytes(key), null));
  }

  range(from: K | null, to: K | null): KeyValue<K, V>[] {
    this.ensureOpen('range');
    const lo = from === null ? null : this.keyBytes(from);
    const hi = to === null ? null : this.keyBytes(to);
    return this.bytes.range(lo, hi).map((e) => this.entry(e.key, e.value));
  }

  all(): KeyValue<K, V>[] {
    return this.range(null, null);
  }

  approximateNumEntries(): number {
    this.ensureOpen('approximateNumEntries');
    return this.bytes.size;
  }

  flush(): void {
    this.ensureOpen('flush');
    const writes = this.bytes.drainPendingWrites();
    if (writes.length === 0) return;
    for (const listener of this.listeners) listener(this.name, writes);
  }

  init(): void {}

  checkpoint(): number | undefined {
    return undefined;
  }

  restoreBatch(records: readonly ChangelogRecord[]): void {
    for (const r of records) this.bytes.put(r.key, r.value);
    this.bytes.drainPendingWrites();
  }

  commit(): void {}

  close(): void {
    if (this.state === 'CLOSED') return;
    if (!TRANSITIONS[this.state].includes('CLOSED')) {
      throw new IllegalStateError(`State store '${this.name}' cannot close in state ${this.state}; allowed in: OPEN`);
    }
    this.state = 'CLOSED';
    this.bytes.clear();
  }

  isOpen(): boolean {
    return this.state === 'OPEN';
  }
}
