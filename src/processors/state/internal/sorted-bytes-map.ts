/**
 * A sorted map from byte keys to values, ordered by `Buffer.compare`
 * (unsigned lexicographic, as Kafka's `Bytes`): the in-memory engine's data
 * and the lmdb engine's uncommitted-write overlay.
 *
 * Kept as a list of sorted chunks (at most {@link MAX_CHUNK} entries each), so
 * an insert moves at most one chunk's entries instead of the whole map:
 * O(log n + chunk) per write, O(log n + k) per range of k entries.
 */

/** One entry of a {@link SortedBytesMap}. */
export interface SortedEntry<V> {
  key: Buffer;
  value: V;
}

const MAX_CHUNK = 1024;

interface Chunk<V> {
  keys: Buffer[];
  values: V[];
}

/** Index of the first element of `keys` that is `>= key` (`keys.length` when none). */
function lowerBound(keys: readonly Buffer[], key: Buffer): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (Buffer.compare(keys[mid] as Buffer, key) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Index of the first element of `keys` that is `> key` (`keys.length` when none). */
function upperBound(keys: readonly Buffer[], key: Buffer): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (Buffer.compare(keys[mid] as Buffer, key) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A sorted byte-keyed map. Keys are stored as given: callers pass keys they will not mutate. */
export class SortedBytesMap<V> {
  private chunks: Chunk<V>[] = [];
  /** The last key of every chunk, for the binary search over chunks. */
  private lastKeys: Buffer[] = [];
  private count = 0;

  /** The number of entries. */
  get size(): number {
    return this.count;
  }

  /** The chunk that holds `key` or would hold it (`-1` when the map is empty). */
  private chunkFor(key: Buffer): number {
    if (this.chunks.length === 0) return -1;
    return Math.min(lowerBound(this.lastKeys, key), this.chunks.length - 1);
  }

  /** The value of `key`, `undefined` when absent. */
  get(key: Buffer): V | undefined {
    const c = this.chunkFor(key);
    if (c < 0) return undefined;
    const chunk = this.chunks[c] as Chunk<V>;
    const i = lowerBound(chunk.keys, key);
    return i < chunk.keys.length && (chunk.keys[i] as Buffer).equals(key) ? chunk.values[i] : undefined;
  }

  /** True when `key` is present. */
  has(key: Buffer): boolean {
    const c = this.chunkFor(key);
    if (c < 0) return false;
    const chunk = this.chunks[c] as Chunk<V>;
    const i = lowerBound(chunk.keys, key);
    return i < chunk.keys.length && (chunk.keys[i] as Buffer).equals(key);
  }

  /** Sets `key` to `value`; returns the previous value (`undefined` when absent). */
  set(key: Buffer, value: V): V | undefined {
    if (this.chunks.length === 0) {
      this.chunks.push({ keys: [key], values: [value] });
      this.lastKeys.push(key);
      this.count = 1;
      return undefined;
    }
    const c = this.chunkFor(key);
    const chunk = this.chunks[c] as Chunk<V>;
    const i = lowerBound(chunk.keys, key);
    if (i < chunk.keys.length && (chunk.keys[i] as Buffer).equals(key)) {
      const previous = chunk.values[i];
      chunk.values[i] = value;
      return previous;
    }
    chunk.keys.splice(i, 0, key);
    chunk.values.splice(i, 0, value);
    this.count++;
    if (i === chunk.keys.length - 1) this.lastKeys[c] = key;
    if (chunk.keys.length > MAX_CHUNK) this.split(c);
    return undefined;
  }

  private split(c: number): void {
    const chunk = this.chunks[c] as Chunk<V>;
    const half = chunk.keys.length >>> 1;
    const right: Chunk<V> = { keys: chunk.keys.splice(half), values: chunk.values.splice(half) };
    this.chunks.splice(c + 1, 0, right);
    this.lastKeys.splice(c, 1, chunk.keys[chunk.keys.length - 1] as Buffer, right.keys[right.keys.length - 1] as Buffer);
  }

  /** Removes `key`; returns its value (`undefined` when absent). */
  delete(key: Buffer): V | undefined {
    const c = this.chunkFor(key);
    if (c < 0) return undefined;
    const chunk = this.chunks[c] as Chunk<V>;
    const i = lowerBound(chunk.keys, key);
    if (i >= chunk.keys.length || !(chunk.keys[i] as Buffer).equals(key)) return undefined;
    const previous = chunk.values[i];
    chunk.keys.splice(i, 1);
    chunk.values.splice(i, 1);
    this.count--;
    if (chunk.keys.length === 0) {
      this.chunks.splice(c, 1);
      this.lastKeys.splice(c, 1);
    } else if (i === chunk.keys.length) {
      this.lastKeys[c] = chunk.keys[i - 1] as Buffer;
    }
    return previous;
  }

  /** Removes every entry. */
  clear(): void {
    this.chunks = [];
    this.lastKeys = [];
    this.count = 0;
  }

  /** Visits entries with `key >= from` ascending (every entry for `null`) until `visit` returns false. */
  ascend(from: Buffer | null, visit: (key: Buffer, value: V) => boolean): void {
    let c = from === null ? 0 : lowerBound(this.lastKeys, from);
    let i = from === null || c >= this.chunks.length ? 0 : lowerBound((this.chunks[c] as Chunk<V>).keys, from);
    for (; c < this.chunks.length; c++, i = 0) {
      const chunk = this.chunks[c] as Chunk<V>;
      for (; i < chunk.keys.length; i++) {
        if (!visit(chunk.keys[i] as Buffer, chunk.values[i] as V)) return;
      }
    }
  }

  /** Visits entries with `key <= to` descending (every entry for `null`) until `visit` returns false. */
  descend(to: Buffer | null, visit: (key: Buffer, value: V) => boolean): void {
    if (this.chunks.length === 0) return;
    let c = to === null ? this.chunks.length - 1 : Math.min(lowerBound(this.lastKeys, to), this.chunks.length - 1);
    const first = this.chunks[c] as Chunk<V>;
    let i = to === null ? first.keys.length - 1 : upperBound(first.keys, to) - 1;
    while (c >= 0) {
      const chunk = this.chunks[c] as Chunk<V>;
      for (; i >= 0; i--) {
        if (!visit(chunk.keys[i] as Buffer, chunk.values[i] as V)) return;
      }
      c--;
      if (c >= 0) i = (this.chunks[c] as Chunk<V>).keys.length - 1;
    }
  }

  /** Entries with `from <= key <= to`, ascending; a `null` bound is open; `from > to` gives nothing. */
  range(from: Buffer | null, to: Buffer | null): SortedEntry<V>[] {
    const out: SortedEntry<V>[] = [];
    if (from !== null && to !== null && Buffer.compare(from, to) > 0) return out;
    this.ascend(from, (key, value) => {
      if (to !== null && Buffer.compare(key, to) > 0) return false;
      out.push({ key, value });
      return true;
    });
    return out;
  }

  /** Entries with `from <= key <= to`, descending; a `null` bound is open; `from > to` gives nothing. */
  reverseRange(from: Buffer | null, to: Buffer | null): SortedEntry<V>[] {
    const out: SortedEntry<V>[] = [];
    if (from !== null && to !== null && Buffer.compare(from, to) > 0) return out;
    this.descend(to, (key, value) => {
      if (from !== null && Buffer.compare(key, from) < 0) return false;
      out.push({ key, value });
      return true;
    });
    return out;
  }

  /** Entries whose key starts with `prefix`, ascending. */
  prefixScan(prefix: Buffer): SortedEntry<V>[] {
    const out: SortedEntry<V>[] = [];
    this.ascend(prefix, (key, value) => {
      if (!startsWith(key, prefix)) return false;
      out.push({ key, value });
      return true;
    });
    return out;
  }
}

/** True when `key` starts with `prefix`. */
export function startsWith(key: Buffer, prefix: Buffer): boolean {
  return key.length >= prefix.length && key.compare(prefix, 0, prefix.length, 0, prefix.length) === 0;
}
