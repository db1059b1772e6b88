/**
 * An in-memory key-value store of bytes, ordered by key bytes
 * (`Buffer.compare`, i.e. unsigned lexicographic, as Kafka's `Bytes`).
 */
import { defined } from '../../internal/defined.js';

/** One entry of a bytes store. */
export interface BytesEntry {
  key: Buffer;
  value: Buffer;
}

/** A write since the last flush, as a changelog would carry it (`null` value = delete). */
export interface PendingWrite {
  key: Buffer;
  value: Buffer | null;
}

/** Sorted in-memory bytes map with a record of the writes since the last flush. */
export class InMemoryBytesStore {
  private readonly entries: BytesEntry[] = [];
  private readonly dirty = new Map<string, PendingWrite>();

  /** Index of `key`, or `-(insertionPoint + 1)` when absent. */
  private search(key: Buffer): number {
    let lo = 0;
    let hi = this.entries.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const cmp = Buffer.compare(defined(this.entries[mid], 'store entry').key, key);
      if (cmp === 0) return mid;
      if (cmp < 0) lo = mid + 1;
      else hi = mid - 1;
    }
    return -(lo + 1);
  }

  get(key: Buffer): Buffer | null {
    const i = this.search(key);
    return i >= 0 ? defined(this.entries[i], 'store entry').value : null;
  }

  put(key: Buffer, value: Buffer | null): Buffer | null {
    const i = this.search(key);
    const found = i >= 0 ? defined(this.entries[i], 'store entry') : undefined;
    const previous = found?.value ?? null;
    if (value === null) {
      if (found) this.entries.splice(i, 1);
    } else if (found) {
      this.entries[i] = { key: found.key, value: Buffer.from(value) };
    } else {
      this.entries.splice(-i - 1, 0, { key: Buffer.from(key), value: Buffer.from(value) });
    }
    this.dirty.set(key.toString('hex'), { key: Buffer.from(key), value: value === null ? null : Buffer.from(value) });
    return previous;
  }

  /** Entries with from <= key <= to (null bounds are open). */
  range(from: Buffer | null, to: Buffer | null): BytesEntry[] {
    if (from && to && Buffer.compare(from, to) > 0) return [];
    let start = 0;
    if (from) {
      const i = this.search(from);
      start = i >= 0 ? i : -i - 1;
    }
    const out: BytesEntry[] = [];
    for (let i = start; i < this.entries.length; i++) {
      const entry = this.entries[i];
      if (entry === undefined || (to && Buffer.compare(entry.key, to) > 0)) break;
      out.push(entry);
    }
    return out;
  }

  get size(): number {
    return this.entries.length;
  }

  /** Returns and forgets the writes since the last call, in key order. */
  drainPendingWrites(): PendingWrite[] {
    const writes = [...this.dirty.values()].sort((a, b) => Buffer.compare(a.key, b.key));
    this.dirty.clear();
    return writes;
  }

  clear(): void {
    this.entries.length = 0;
    this.dirty.clear();
  }
}
