/**
 * The suppression buffer (Kafka's `InMemoryTimeOrderedKeyValueChangeBuffer`):
 * per key the latest held Change, ordered by buffer time (then key bytes),
 * kept in memory and logged to its changelog topic so held updates survive a
 * restart.
 *
 * Non-resetting: a key updated again keeps its place (its first buffer
 * time), so it is emitted `timeToWait` after its *first* held update.
 * Logging: `put` and eviction mark the key dirty; `flush()` (commit step 5)
 * logs each dirty key's entry, or a tombstone once it was evicted.
 * Restoration replays the changelog: an entry re-inserts the key, a tombstone
 * removes it.
 */
import { IllegalStateError } from '../../errors.js';
import type { Serde } from '../../serdes/serde.js';
import type { ChangelogRecord } from '../../state/store-contract.js';
import { Change } from './change.js';
import { LoggedBufferBuilder, LoggedBufferStore, type LoggedEntry } from './logged-buffer.js';
import { bufferValue, decodeBufferValue, recordSize, type BufferRecordContext, type BufferValue } from './suppress-buffer-value.js';

/** Evicted entries dropped from the front of the time-ordered array at once, at least (see `#removeHead`). */
const HEAD_COMPACTION = 256;

/** One buffered key in time order. */
interface Entry {
  time: number;
  key: Buffer;
  id: string;
  value: BufferValue;
}

/** An entry leaving the buffer: the key, its latest Change and the context of its last update. */
export interface Eviction<K, V> {
  key: K;
  value: Change<V>;
  context: BufferRecordContext;
}

function compareEntries(a: Entry, b: Entry): number {
  return a.time !== b.time ? a.time - b.time : Buffer.compare(a.key, b.key);
}

/** The buffer store; see the module comment. Built per task by {@link SuppressBufferBuilder}. */
export class InMemoryTimeOrderedChangeBuffer<K, V> extends LoggedBufferStore {
  /** Entries ordered by (buffer time, key bytes). */
  #sorted: Entry[] = [];
  /** Entries before it were evicted (dropped from `#sorted` in bulk: one eviction from the front does not move the whole array; issue 32). */
  #head = 0;
  readonly #index = new Map<string, Entry>();
  readonly #dirty = new Map<string, Buffer>();
  #bytes = 0;

  constructor(
    name: string,
    private readonly keySerde: Serde<K>,
    private readonly valueSerde: Serde<V>,
    loggingEnabled: boolean,
    logConfig: Readonly<Record<string, string>>,
  ) {
    super(name, loggingEnabled, logConfig, 'Suppression buffer');
  }

  restoreBatch(records: readonly ChangelogRecord[]): void {
    this.ready('restoreBatch');
    for (const record of records) {
      if (record.value === null) {
        this.#remove(record.key.toString('hex'));
        continue;
      }
      const { bufferTime, value } = decodeBufferValue(record.value, this.name);
      this.#cleanPut(bufferTime, record.key, value);
    }
  }

  /** Holds `change` of `key` (buffer time `time` unless the key is held already). */
  put(time: number, key: K, change: Change<V>, context: BufferRecordContext): void {
    this.ready('put');
    const keyBytes = this.keySerde.serialize(this.topic, key);
    if (keyBytes === null) throw new IllegalStateError(`Suppression buffer '${this.name}': the key serde turned key ${String(key)} into null`);
    const oldBytes = this.valueSerde.serialize(this.topic, change.oldValue);
    const newBytes = this.valueSerde.serialize(this.topic, change.newValue);
    const id = keyBytes.toString('hex');
    const held = this.#index.get(id);
    const prior = held === undefined ? oldBytes : held.value.prior;
    this.#cleanPut(time, keyBytes, bufferValue(prior, oldBytes, newBytes, context));
    if (this.loggingEnabled) this.#dirty.set(id, keyBytes);
  }

  /** Kafka's `priorValueForBuffered`: `undefined` when `key` is not held, else its value before the held updates (null: none). */
  priorValueForBuffered(key: K): { value: V | null } | undefined {
    this.ready('priorValueForBuffered');
    const keyBytes = this.keySerde.serialize(this.topic, key);
    const held = keyBytes === null ? undefined : this.#index.get(keyBytes.toString('hex'));
    if (held === undefined) return undefined;
    return { value: held.value.prior === null ? null : this.valueSerde.deserialize(this.topic, held.value.prior) };
  }

  /** The smallest buffer time held (`Infinity` when empty). */
  minTimestamp(): number {
    return this.#sorted[this.#head]?.time ?? Infinity;
  }

  numRecords(): number {
    return this.#sorted.length - this.#head;
  }

  /** Kafka's estimate of the bytes held. */
  bufferSize(): number {
    return this.#bytes;
  }

  /** Evicts the oldest entries, one by one, while `predicate()` holds, handing each to `callback` before removing it. */
  evictWhile(predicate: () => boolean, callback: (eviction: Eviction<K, V>) => void): void {
    this.ready('evictWhile');
    while (this.#sorted.length > this.#head && predicate()) {
      const next = this.#sorted[this.#head] as Entry;
      const key = this.keySerde.deserialize(this.topic, next.key);
      const newValue = next.value.new === null ? null : this.valueSerde.deserialize(this.topic, next.value.new);
      const oldValue = next.value.old === null ? null : this.valueSerde.deserialize(this.topic, next.value.old);
      callback({ key, value: Change.of<V>(newValue, oldValue), context: next.value.context });
      if (this.#sorted[this.#head] === next && this.#index.get(next.id) === next) this.#removeHead(next);
      else this.#remove(next.id);
      if (this.loggingEnabled) this.#dirty.set(next.id, next.key);
    }
  }

  protected *dirtyEntries(): Iterable<readonly [Buffer, LoggedEntry | undefined]> {
    for (const [id, key] of this.#dirty) yield [key, this.#index.get(id)];
  }

  protected clearDirty(): void {
    this.#dirty.clear();
  }

  protected clearEntries(): void {
    this.#sorted = [];
    this.#head = 0;
    this.#index.clear();
    this.#bytes = 0;
  }

  /** Kafka's `cleanPut`: a held key keeps its place, a new one is inserted in time order. */
  #cleanPut(time: number, key: Buffer, value: BufferValue): void {
    const id = key.toString('hex');
    const held = this.#index.get(id);
    if (held !== undefined) {
      this.#bytes += recordSize(key, value) - recordSize(key, held.value);
      held.value = value;
      return;
    }
    const entry: Entry = { time, key, id, value };
    let lo = this.#head;
    let hi = this.#sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareEntries(this.#sorted[mid] as Entry, entry) < 0) lo = mid + 1;
      else hi = mid;
    }
    this.#sorted.splice(lo, 0, entry);
    this.#index.set(id, entry);
    this.#bytes += recordSize(key, value);
  }

  #remove(id: string): void {
    const entry = this.#index.get(id);
    if (entry === undefined) return;
    this.#index.delete(id);
    const at = this.#sorted.indexOf(entry, this.#head);
    if (at >= 0) this.#sorted.splice(at, 1);
    this.#bytes -= recordSize(entry.key, entry.value);
  }

  /** Removes the first entry, `entry`: the array is compacted once the evicted prefix is large and at least half of it. */
  #removeHead(entry: Entry): void {
    this.#index.delete(entry.id);
    this.#bytes -= recordSize(entry.key, entry.value);
    this.#head++;
    if (this.#head === this.#sorted.length || (this.#head >= HEAD_COMPACTION && this.#head * 2 >= this.#sorted.length)) {
      this.#sorted.splice(0, this.#head);
      this.#head = 0;
    }
  }
}

/** Builds one buffer per task (Kafka's `InMemoryTimeOrderedKeyValueChangeBuffer.Builder`); never cached. */
export class SuppressBufferBuilder<K, V> extends LoggedBufferBuilder<InMemoryTimeOrderedChangeBuffer<K, V>> {
  constructor(
    name: string,
    private readonly keySerde: Serde<K>,
    private readonly valueSerde: Serde<V>,
  ) {
    super(name);
  }

  build(): InMemoryTimeOrderedChangeBuffer<K, V> {
    return new InMemoryTimeOrderedChangeBuffer(this.name, this.keySerde, this.valueSerde, this.loggingEnabled, this.logConfig);
  }
}
