/**
 * The bytes engines window and session stores are created on: the in-memory
 * and the lmdb key-value engines of the state layer. {@link SortedBytesEngine}
 * below is a minimal engine the window tests also use.
 */
import { IllegalStateError } from '../../errors.js';
import { defined } from '../../internal/defined.js';
import type { BytesEntry, KeyValueBytesStore } from '../bytes-store-contract.js';
import type { ChangelogRecord } from '../store-contract.js';
import { InMemoryKeyValueBytesStore } from '../in-memory/in-memory-key-value-bytes-store.js';
import { LmdbKeyValueBytesStore } from '../lmdb/lmdb-key-value-bytes-store.js';

/** The engine of in-memory window and session stores: the in-memory key-value engine. */
export function inMemoryWindowEngine(name: string): KeyValueBytesStore {
  return new InMemoryKeyValueBytesStore(name);
}

/** The engine of persistent window and session stores: the lmdb engine (uncommitted writes buffered, checkpoint atomic with the data). */
export function persistentWindowEngine(name: string): KeyValueBytesStore {
  return new LmdbKeyValueBytesStore(name);
}

/**
 * A sorted in-memory bytes map as a {@link KeyValueBytesStore}: writes apply at
 * once (an in-memory store is rebuilt and restored after an abort, so it never
 * keeps an aborted write), no checkpoint (restored from the beginning).
 */
export class SortedBytesEngine implements KeyValueBytesStore {
  readonly persistent = false;
  private readonly entries: BytesEntry[] = [];
  private open = false;

  constructor(readonly name: string) {}

  init(): void {
    this.open = true;
  }
  checkpoint(): number | undefined {
    return undefined;
  }
  restoreBatch(records: readonly ChangelogRecord[]): void {
    for (const r of records) this.put(r.key, r.value);
  }
  flush(): void {}
  commit(): void {}
  close(): void {
    this.open = false;
    this.entries.length = 0;
  }
  isOpen(): boolean {
    return this.open;
  }

  get(key: Buffer): Buffer | null {
    const i = this.search(key);
    return i >= 0 ? this.at(i).value : null;
  }
  put(key: Buffer, value: Buffer | null): void {
    this.ensureOpen();
    const i = this.search(key);
    if (value === null) {
      if (i >= 0) this.entries.splice(i, 1);
    } else if (i >= 0) {
      this.entries[i] = { key: this.at(i).key, value: Buffer.from(value) };
    } else {
      this.entries.splice(-i - 1, 0, { key: Buffer.from(key), value: Buffer.from(value) });
    }
  }
  putIfAbsent(key: Buffer, value: Buffer): Buffer | null {
    const previous = this.get(key);
    if (previous === null) this.put(key, value);
    return previous;
  }
  delete(key: Buffer): Buffer | null {
    const previous = this.get(key);
    this.put(key, null);
    return previous;
  }
  range(from: Buffer | null, to: Buffer | null): BytesEntry[] {
    this.ensureOpen();
    if (from && to && Buffer.compare(from, to) > 0) return [];
    let start = 0;
    if (from) {
      const i = this.search(from);
      start = i >= 0 ? i : -i - 1;
    }
    const out: BytesEntry[] = [];
    for (let i = start; i < this.entries.length; i++) {
      const entry = this.at(i);
      if (to && Buffer.compare(entry.key, to) > 0) break;
      out.push(entry);
    }
    return out;
  }
  reverseRange(from: Buffer | null, to: Buffer | null): BytesEntry[] {
    return this.range(from, to).reverse();
  }
  prefixScan(prefix: Buffer): BytesEntry[] {
    return this.range(prefix, null).filter((e) => e.key.subarray(0, prefix.length).equals(prefix));
  }
  approximateNumEntries(): number {
    return this.entries.length;
  }

  private ensureOpen(): void {
    if (!this.open) throw new IllegalStateError(`State store '${this.name}' is not open; call init() first`);
  }
  private at(i: number): BytesEntry {
    return defined(this.entries[i], 'engine entry');
  }
  /** Index of `key`, or `-(insertionPoint + 1)` when absent. */
  private search(key: Buffer): number {
    let lo = 0;
    let hi = this.entries.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const cmp = Buffer.compare(this.at(mid).key, key);
      if (cmp === 0) return mid;
      if (cmp < 0) lo = mid + 1;
      else hi = mid - 1;
    }
    return -(lo + 1);
  }
}
