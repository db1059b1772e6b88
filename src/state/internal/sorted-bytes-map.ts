/**
 * A sorted map from byte keys to values, ordered by `Buffer.compare`
 * (unsigned lexicographic, as Kafka's `Bytes`): the in-memory engine's data
 * and the lmdb engine's uncommitted-write overlay.
 *
 * Kept as a list of sorted chunks (at most {@link MAX_CHUNK} entries each), so
 * an insert moves at most one chunk's entries instead of the whole map:
 * O(log n + chunk) per write, O(log n + k) per range of k entries. Searches
 * compare each key's latin1 string (one code unit per byte, so string order
 * is byte order): V8 compares strings inline, many times faster than
 * `Buffer.compare` calls.
 */

/** One entry of a {@link SortedBytesMap}. */
export interface SortedEntry<V> {
  key: Buffer;
  value: V;
}

const MAX_CHUNK = 1024;

interface Chunk<V> {
  /** The keys' latin1 strings, the search keys. */
  ids: string[];
  keys: Buffer[];
  values: V[];
}

/** The search form of a key: one code unit per byte. */
const idOf = (key: Buffer): string => key.toString('latin1');

/** Index of the first element of `ids` that is `>= id` (`ids.length` when none). */
function lowerBound(ids: readonly string[], id: string): number {
  let lo = 0;
  let hi = ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((ids[mid] as string) < id) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Index of the first element of `ids` that is `> id` (`ids.length` when none). */
function upperBound(ids: readonly string[], id: string): number {
  let lo = 0;
  let hi = ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((ids[mid] as string) <= id) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A sorted byte-keyed map. Keys are stored as given: callers pass keys they will not mutate. */
export class SortedBytesMap<V> {
  private chunks: Chunk<V>[] = [];
  /** The last id of every chunk, for the binary search over chunks. */
  private lastIds: string[] = [];
  private count = 0;

  /** The number of entries. */
  get size(): number {
    return this.count;
  }

  /** The chunk that holds `id` or would hold it (`-1` when the map is empty). */
  private chunkFor(id: string): number {
    if (this.chunks.length === 0) return -1;
    return Math.min(lowerBound(this.lastIds, id), this.chunks.length - 1);
  }

  /** Chunk and index of `key`, or `undefined` when absent. */
  private find(id: string): [Chunk<V>, number, number] | undefined {
    const c = this.chunkFor(id);
    if (c < 0) return undefined;
    const chunk = this.chunks[c] as Chunk<V>;
    const i = lowerBound(chunk.ids, id);
    return i < chunk.ids.length && chunk.ids[i] === id ? [chunk, i, c] : undefined;
  }

  /** The value of `key`, `undefined` when absent. */
  get(key: Buffer): V | undefined {
    const found = this.find(idOf(key));
    return found === undefined ? undefined : found[0].values[found[1]];
  }

  /** True when `key` is present. */
  has(key: Buffer): boolean {
    return this.find(idOf(key)) !== undefined;
  }

  /** Sets `key` to `value`; returns the previous value (`undefined` when absent). */
  set(key: Buffer, value: V): V | undefined {
    const id = idOf(key);
    if (this.chunks.length === 0) {
      this.chunks.push({ ids: [id], keys: [key], values: [value] });
      this.lastIds.push(id);
      this.count = 1;
      return undefined;
    }
    const c = this.chunkFor(id);
    const chunk = this.chunks[c] as Chunk<V>;
    const i = lowerBound(chunk.ids, id);
    if (i < chunk.ids.length && chunk.ids[i] === id) {
      const previous = chunk.values[i];
      chunk.values[i] = value;
      return previous;
    }
    chunk.ids.splice(i, 0, id);
    chunk.keys.splice(i, 0, key);
    chunk.values.splice(i, 0, value);
    this.count++;
    if (i === chunk.ids.length - 1) this.lastIds[c] = id;
    if (chunk.ids.length > MAX_CHUNK) this.split(c);
    return undefined;
  }

  private split(c: number): void {
    const chunk = this.chunks[c] as Chunk<V>;
    const half = chunk.ids.length >>> 1;
    const right: Chunk<V> = { ids: chunk.ids.splice(half), keys: chunk.keys.splice(half), values: chunk.values.splice(half) };
    this.chunks.splice(c + 1, 0, right);
    this.lastIds.splice(c, 1, chunk.ids[chunk.ids.length - 1] as string, right.ids[right.ids.length - 1] as string);
  }

  /** Removes `key`; returns its value (`undefined` when absent). */
  delete(key: Buffer): V | undefined {
    const found = this.find(idOf(key));
    if (found === undefined) return undefined;
    const [chunk, i, c] = found;
    const previous = chunk.values[i];
    chunk.ids.splice(i, 1);
    chunk.keys.splice(i, 1);
    chunk.values.splice(i, 1);
    this.count--;
    if (chunk.ids.length === 0) {
      this.chunks.splice(c, 1);
      this.lastIds.splice(c, 1);
    } else if (i === chunk.ids.length) {
      this.lastIds[c] = chunk.ids[i - 1] as string;
    }
    return previous;
  }

  /** Removes every entry. */
  clear(): void {
    this.chunks = [];
    this.lastIds = [];
    this.count = 0;
  }

  /** Visits entries with `key >= from` ascending (every entry for `null`) until `visit` returns false. */
  ascend(from: Buffer | null, visit: (key: Buffer, value: V, id: string) => boolean): void {
    const fromId = from === null ? '' : idOf(from);
    let c = from === null ? 0 : lowerBound(this.lastIds, fromId);
    let i = from === null || c >= this.chunks.length ? 0 : lowerBound((this.chunks[c] as Chunk<V>).ids, fromId);
    for (; c < this.chunks.length; c++, i = 0) {
      const chunk = this.chunks[c] as Chunk<V>;
      for (; i < chunk.keys.length; i++) {
        if (!visit(chunk.keys[i] as Buffer, chunk.values[i] as V, chunk.ids[i] as string)) return;
      }
    }
  }

  /** Visits entries with `key <= to` descending (every entry for `null`) until `visit` returns false. */
  descend(to: Buffer | null, visit: (key: Buffer, value: V, id: string) => boolean): void {
    if (this.chunks.length === 0) return;
    const toId = to === null ? '' : idOf(to);
    let c = to === null ? this.chunks.length - 1 : Math.min(lowerBound(this.lastIds, toId), this.chunks.length - 1);
    const first = this.chunks[c] as Chunk<V>;
    let i = to === null ? first.ids.length - 1 : upperBound(first.ids, toId) - 1;
    while (c >= 0) {
      const chunk = this.chunks[c] as Chunk<V>;
      for (; i >= 0; i--) {
        if (!visit(chunk.keys[i] as Buffer, chunk.values[i] as V, chunk.ids[i] as string)) return;
      }
      c--;
      if (c >= 0) i = (this.chunks[c] as Chunk<V>).keys.length - 1;
    }
  }

  /** Entries with `from <= key <= to`, ascending; a `null` bound is open; `from > to` gives nothing. */
  range(from: Buffer | null, to: Buffer | null): SortedEntry<V>[] {
    const out: SortedEntry<V>[] = [];
    if (from !== null && to !== null && Buffer.compare(from, to) > 0) return out;
    const toId = to === null ? undefined : idOf(to);
    this.ascend(from, (key, value, id) => {
      if (toId !== undefined && id > toId) return false;
      out.push({ key, value });
      return true;
    });
    return out;
  }

  /** Entries with `from <= key <= to`, descending; a `null` bound is open; `from > to` gives nothing. */
  reverseRange(from: Buffer | null, to: Buffer | null): SortedEntry<V>[] {
    const out: SortedEntry<V>[] = [];
    if (from !== null && to !== null && Buffer.compare(from, to) > 0) return out;
    const fromId = from === null ? undefined : idOf(from);
    this.descend(to, (key, value, id) => {
      if (fromId !== undefined && id < fromId) return false;
      out.push({ key, value });
      return true;
    });
    return out;
  }

  /** Entries whose key starts with `prefix`, ascending. */
  prefixScan(prefix: Buffer): SortedEntry<V>[] {
    const out: SortedEntry<V>[] = [];
    const prefixId = idOf(prefix);
    this.ascend(prefix, (key, value, id) => {
      if (!id.startsWith(prefixId)) return false;
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
