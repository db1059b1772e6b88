/**
 * The buffer of a stream–table join with a grace period (KIP-923; Kafka's
 * `RocksDBTimeOrderedKeyValueBuffer`, store `<join name>-Buffer`): stream
 * records held in timestamp order until the stream time passes their
 * timestamp plus the grace period, then handed back to the join.
 *
 * As Kafka's:
 * - the buffer's stream time is the largest timestamp put into it;
 * - `put` refuses (returns false) a record older than `stream time - grace`
 *   (the join then joins it at once) and holds any other one, several per key;
 * - `evictWhile` hands back, oldest first, every record with a timestamp up
 *   to `stream time - grace`; entries of one timestamp in the order of their
 *   store key (Kafka's `TimeFirstWindowKeySchema`: timestamp, key bytes,
 *   sequence number).
 *
 * Kept in memory and logged to its changelog topic (compacted): each held
 * record under its store key (`i64 timestamp | key bytes | i32 seqnum`), in
 * the suppression buffer's value encoding; an evicted one as a tombstone.
 * Logging happens at `flush()` (commit step 5), as the suppression buffer's;
 * restoration replays the changelog and the stream time with it.
 */
import { IllegalStateError } from '../../errors.js';
import type { Serde } from '../../serdes/serde.js';
import type { ChangelogRecord } from '../../state/store-contract.js';
import { LoggedBufferBuilder, LoggedBufferStore, type LoggedEntry } from './logged-buffer.js';
import { bufferValue, decodeBufferValue, recordSize, type BufferRecordContext, type BufferValue } from './suppress-buffer-value.js';

/** One held record: its store key (time first) and value. */
interface Entry {
  readonly storeKey: Buffer;
  readonly id: string;
  readonly time: number;
  readonly value: BufferValue;
}

/** A record leaving the buffer: its key, value and the context it arrived with. */
export interface BufferedStreamRecord<K, V> {
  readonly key: K;
  readonly value: V;
  readonly context: BufferRecordContext;
}

/** Kafka's `TimeFirstWindowKeySchema.toStoreKeyBinary(key, timestamp, seqnum)`. */
function storeKeyOf(key: Buffer, timestamp: number, seqnum: number): Buffer {
  const out = Buffer.alloc(8 + key.length + 4);
  out.writeBigInt64BE(BigInt(timestamp), 0);
  key.copy(out, 8);
  out.writeInt32BE(seqnum, 8 + key.length);
  return out;
}

/** The buffer store; see the module comment. Built per task by {@link StreamTableJoinBufferBuilder}. */
export class TimeOrderedKeyValueBuffer<K, V> extends LoggedBufferStore {
  /** Entries in store-key order (timestamp first). */
  #sorted: Entry[] = [];
  readonly #dirty = new Map<string, { storeKey: Buffer; entry: Entry | undefined }>();
  #observedStreamTime = -1;
  #seqnum = 0;
  #bytes = 0;

  constructor(
    name: string,
    private readonly gracePeriodMs: number,
    private readonly keySerde: Serde<K>,
    private readonly valueSerde: Serde<V>,
    loggingEnabled: boolean,
    logConfig: Readonly<Record<string, string>>,
  ) {
    super(name, loggingEnabled, logConfig, 'Stream-table join buffer');
  }

  restoreBatch(records: readonly ChangelogRecord[]): void {
    this.ready('restoreBatch');
    for (const record of records) {
      const id = record.key.toString('hex');
      if (record.value === null) {
        this.#remove(id);
        continue;
      }
      const { bufferTime, value } = decodeBufferValue(record.value, this.name);
      this.#remove(id);
      this.#insert({ storeKey: Buffer.from(record.key), id, time: bufferTime, value });
      this.#observedStreamTime = Math.max(this.#observedStreamTime, bufferTime);
      // a put after the restore must not reuse a restored store key
      if (record.key.length >= 12) this.#seqnum = Math.max(this.#seqnum, record.key.readInt32BE(record.key.length - 4));
    }
  }

  /** Holds `value` of `key` at `timestamp` unless it is older than `stream time - grace` (then false: join it now). */
  put(key: K, value: V, timestamp: number, context: BufferRecordContext): boolean {
    this.ready('put');
    if (this.#observedStreamTime - this.gracePeriodMs > timestamp) return false;
    this.#observedStreamTime = Math.max(this.#observedStreamTime, timestamp);
    const keyBytes = this.keySerde.serialize(this.topic, key);
    if (keyBytes === null) throw new IllegalStateError(`Stream-table join buffer '${this.name}': the key serde turned key ${String(key)} into null`);
    this.#seqnum = (this.#seqnum + 1) & 0x7fffffff;
    const storeKey = storeKeyOf(keyBytes, timestamp, this.#seqnum);
    const entry: Entry = { storeKey, id: storeKey.toString('hex'), time: timestamp, value: bufferValue(null, null, this.valueSerde.serialize(this.topic, value), context) };
    this.#insert(entry);
    if (this.loggingEnabled) this.#dirty.set(entry.id, { storeKey, entry });
    return true;
  }

  /** Hands `callback` every held record up to `stream time - grace`, oldest first, removing each. */
  evictWhile(predicate: () => boolean, callback: (record: BufferedStreamRecord<K, V>) => void): void {
    this.ready('evictWhile');
    const until = this.#observedStreamTime - this.gracePeriodMs;
    while (this.#sorted.length > 0 && predicate()) {
      const next = this.#sorted[0] as Entry;
      if (next.time > until) return;
      const key = this.keySerde.deserialize(this.topic, next.storeKey.subarray(8, next.storeKey.length - 4));
      const value = this.valueSerde.deserialize(this.topic, next.value.new);
      this.#remove(next.id);
      if (this.loggingEnabled) this.#dirty.set(next.id, { storeKey: next.storeKey, entry: undefined });
      callback({ key, value, context: next.value.context });
    }
  }

  /** The smallest timestamp held (`Infinity` when empty). */
  minTimestamp(): number {
    return this.#sorted[0]?.time ?? Infinity;
  }

  numRecords(): number {
    return this.#sorted.length;
  }

  /** Kafka's estimate of the bytes held. */
  bufferSize(): number {
    return this.#bytes;
  }

  protected *dirtyEntries(): Iterable<readonly [Buffer, LoggedEntry | undefined]> {
    for (const { storeKey, entry } of this.#dirty.values()) yield [storeKey, entry];
  }

  protected clearDirty(): void {
    this.#dirty.clear();
  }

  protected clearEntries(): void {
    this.#sorted = [];
    this.#bytes = 0;
  }

  #insert(entry: Entry): void {
    let lo = 0;
    let hi = this.#sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (Buffer.compare((this.#sorted[mid] as Entry).storeKey, entry.storeKey) < 0) lo = mid + 1;
      else hi = mid;
    }
    this.#sorted.splice(lo, 0, entry);
    this.#bytes += recordSize(entry.storeKey, entry.value);
  }

  #remove(id: string): void {
    const at = this.#sorted.findIndex((e) => e.id === id);
    if (at < 0) return;
    const [entry] = this.#sorted.splice(at, 1);
    this.#bytes -= recordSize((entry as Entry).storeKey, (entry as Entry).value);
  }
}

/** Builds one buffer per task (Kafka's `RocksDBTimeOrderedKeyValueBuffer.Builder`); never cached. */
export class StreamTableJoinBufferBuilder<K, V> extends LoggedBufferBuilder<TimeOrderedKeyValueBuffer<K, V>> {
  constructor(
    name: string,
    private readonly gracePeriodMs: number,
    private readonly keySerde: Serde<K>,
    private readonly valueSerde: Serde<V>,
  ) {
    super(name);
  }

  build(): TimeOrderedKeyValueBuffer<K, V> {
    return new TimeOrderedKeyValueBuffer(this.name, this.gracePeriodMs, this.keySerde, this.valueSerde, this.loggingEnabled, this.logConfig);
  }
}
