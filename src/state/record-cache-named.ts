/**
 * One namespace of the record cache (Kafka Streams' `NamedCache`): the cached
 * entries of one store of one task, in LRU order, with the set of dirty keys
 * in arrival order. Its size is counted as Kafka counts it
 * ({@link cacheEntrySize}, {@link nodeSize}).
 */
import { IllegalStateError } from '../errors.js';
import type { Headers } from '../records/types.js';
import type { StoreRecordContext } from './store-contract.js';

/** The record context kept with a cache entry (Kafka's `ProcessorRecordContext`). */
export interface CachedRecordContext {
  timestamp: number;
  offset: number;
  partition: number;
  topic: string;
  headers: Headers;
}

/** A cached value (`null`: a cached tombstone) with its dirty flag and the context of its write (Kafka's `LRUCacheEntry`). */
export interface CacheEntry {
  readonly value: Buffer | null;
  dirty: boolean;
  readonly context: CachedRecordContext;
  /** Kafka's `LRUCacheEntry.size()`: 1 (dirty flag) + value + context estimate. */
  readonly sizeBytes: number;
}

/** A dirty entry handed to a namespace's flush listener (Kafka's `ThreadCache.DirtyEntry`). */
export interface DirtyEntry {
  key: Buffer;
  newValue: Buffer | null;
  entry: CacheEntry;
}

/** Receives the dirty entries of a namespace at a flush or an eviction. */
export type DirtyEntryFlushListener = (dirty: DirtyEntry[]) => void;

/** Kafka's `ProcessorRecordContext.residentMemorySizeEstimate()`. */
function contextSize(context: CachedRecordContext): number {
  let size = 8 + 8 + context.topic.length + 4;
  for (const [key, value] of Object.entries(context.headers)) {
    size += key.length + (value === null ? 0 : typeof value === 'string' ? Buffer.byteLength(value) : value.length);
  }
  return size;
}

/**
 * A cache entry (Kafka's `LRUCacheEntry` constructors): a clean entry read from
 * the store has no context (`-1`s, empty topic and headers); a write carries
 * the context of the record being processed.
 */
export function cacheEntry(value: Buffer | null, dirty = false, context?: StoreRecordContext): CacheEntry {
  const ctx: CachedRecordContext = {
    timestamp: context?.timestamp ?? -1,
    offset: context?.offset ?? -1,
    partition: context?.partition ?? -1,
    topic: context?.topic ?? '',
    headers: context?.headers ?? {},
  };
  return { value, dirty, context: ctx, sizeBytes: 1 + (value === null ? 0 : value.length) + contextSize(ctx) };
}

/** The size of one node of the LRU list (Kafka's `NamedCache.LRUNode.size()`): key + 3 references + entry. */
export function nodeSize(key: Buffer, entry: CacheEntry): number {
  return key.length + 8 + 8 + 8 + entry.sizeBytes;
}

interface Node {
  key: Buffer;
  entry: CacheEntry;
}

const id = (key: Buffer): string => key.toString('latin1');

/** See the module comment. Keys are compared as Kafka's `Bytes` (unsigned lexicographic). */
export class NamedCache {
  /** Insertion order is the LRU order: the first entry is the eldest. */
  private readonly nodes = new Map<string, Node>();
  /** Dirty keys in arrival order (a re-write moves a key to the end). */
  private readonly dirtyKeys = new Set<string>();
  private sorted: Buffer[] | undefined;
  private listener: DirtyEntryFlushListener | undefined;
  private bytes = 0;
  hits = 0;
  misses = 0;
  overwrites = 0;
  flushes = 0;

  constructor(readonly name: string) {}

  /** Bytes held by this namespace. */
  get sizeInBytes(): number {
    return this.bytes;
  }

  /** Number of entries. */
  get size(): number {
    return this.nodes.size;
  }

  isEmpty(): boolean {
    return this.nodes.size === 0;
  }

  setListener(listener: DirtyEntryFlushListener): void {
    this.listener = listener;
  }

  /** The entry of `key` (and it becomes the most recently used), or `undefined`. */
  get(key: Buffer): CacheEntry | undefined {
    const node = this.lookup(key);
    if (node === undefined) return undefined;
    this.touch(node);
    return node.entry;
  }

  /** Puts an entry; a clean entry over a dirty one is a bug (Kafka's check). */
  put(key: Buffer, entry: CacheEntry): void {
    const k = id(key);
    if (!entry.dirty && this.dirtyKeys.has(k)) {
      throw new IllegalStateError(
        `Attempting to put a clean entry for key [${key.toString('hex')}] into NamedCache [${this.name}] when it already contains a dirty entry for the same key`,
      );
    }
    const existing = this.nodes.get(k);
    if (existing !== undefined) {
      this.overwrites++;
      this.bytes -= nodeSize(existing.key, existing.entry);
      existing.entry = entry;
      this.nodes.delete(k);
      this.nodes.set(k, existing);
    } else {
      this.nodes.set(k, { key: Buffer.from(key), entry });
      this.sorted = undefined;
    }
    if (entry.dirty) {
      this.dirtyKeys.delete(k);
      this.dirtyKeys.add(k);
    }
    this.bytes += nodeSize(key, entry);
  }

  putIfAbsent(key: Buffer, entry: CacheEntry): CacheEntry | undefined {
    const original = this.get(key);
    if (original === undefined) this.put(key, entry);
    return original;
  }

  /** Removes `key`; returns its entry. */
  delete(key: Buffer): CacheEntry | undefined {
    const k = id(key);
    const node = this.nodes.get(k);
    if (node === undefined) return undefined;
    this.nodes.delete(k);
    this.dirtyKeys.delete(k);
    this.sorted = undefined;
    this.bytes -= nodeSize(node.key, node.entry);
    return node.entry;
  }

  /** Hands every dirty entry to the listener (they become clean; cached tombstones are dropped after). */
  flush(): void {
    this.flushEntries(undefined);
  }

  /** Removes the least recently used entry; a dirty one is flushed with the other dirty entries first (Kafka's `evict`). */
  evict(): void {
    const eldest = this.nodes.values().next();
    if (eldest.done === true) return;
    const node = eldest.value;
    const k = id(node.key);
    this.bytes -= nodeSize(node.key, node.entry);
    this.nodes.delete(k);
    this.sorted = undefined;
    if (node.entry.dirty) this.flushEntries(node);
  }

  /**
   * Kafka's `NamedCache.flush(evicted)`:
   * 1. the evicted entry (already removed) goes first;
   * 2. then every dirty key in arrival order, marked clean;
   * 3. the dirty set is cleared before the listener runs (it may re-enter);
   * 4. the listener gets the entries; cached tombstones are then removed.
   */
  private flushEntries(evicted: Node | undefined): void {
    this.flushes++;
    const listener = this.listener;
    if (listener === undefined) throw new IllegalStateError(`No listener for namespace ${this.name} registered with cache`);
    if (this.dirtyKeys.size === 0) return;
    const entries: DirtyEntry[] = [];
    const deleted: Buffer[] = [];
    // 1.
    if (evicted !== undefined) {
      entries.push({ key: evicted.key, newValue: evicted.entry.value, entry: evicted.entry });
      this.dirtyKeys.delete(id(evicted.key));
    }
    // 2.
    for (const k of this.dirtyKeys) {
      const node = this.nodes.get(k);
      if (node === undefined) throw new IllegalStateError(`Key = ${Buffer.from(k, 'latin1').toString('hex')} found in dirty key set, but entry is null`);
      entries.push({ key: node.key, newValue: node.entry.value, entry: node.entry });
      node.entry.dirty = false;
      if (node.entry.value === null) deleted.push(node.key);
    }
    // 3.
    this.dirtyKeys.clear();
    // 4.
    listener(entries);
    for (const key of deleted) this.delete(key);
  }

  /** Keys with `from <= key <= to` (`< to` unless `toInclusive`), a `null` bound open; ascending or descending. A snapshot. */
  keyRange(from: Buffer | null, to: Buffer | null, toInclusive = true, forward = true): Buffer[] {
    if (from !== null && to !== null && Buffer.compare(from, to) > 0) return [];
    const keys = this.sortedKeys().filter(
      (key) => (from === null || Buffer.compare(key, from) >= 0) && (to === null || (toInclusive ? Buffer.compare(key, to) <= 0 : Buffer.compare(key, to) < 0)),
    );
    return forward ? keys : keys.reverse();
  }

  /** The entry of `key` without counting a hit or touching the LRU order (for iterators). */
  peek(key: Buffer): CacheEntry | undefined {
    return this.nodes.get(id(key))?.entry;
  }

  /** The most recently used entry. */
  first(): CacheEntry | undefined {
    return this.head()?.entry;
  }

  /** The least recently used entry. */
  last(): CacheEntry | undefined {
    return this.tail()?.entry;
  }

  /** The most recently used key and entry (Kafka's `head()`). */
  head(): { readonly key: Buffer; readonly entry: CacheEntry } | undefined {
    let last: Node | undefined;
    for (const node of this.nodes.values()) last = node;
    return last;
  }

  /** The least recently used key and entry, the next to be evicted (Kafka's `tail()`). */
  tail(): { readonly key: Buffer; readonly entry: CacheEntry } | undefined {
    return this.nodes.values().next().value;
  }

  /** Drops everything without flushing. */
  clear(): void {
    this.nodes.clear();
    this.dirtyKeys.clear();
    this.sorted = undefined;
    this.bytes = 0;
  }

  /** Drops everything and the listener. */
  close(): void {
    this.clear();
    this.listener = undefined;
  }

  private lookup(key: Buffer): Node | undefined {
    const node = this.nodes.get(id(key));
    if (node === undefined) this.misses++;
    else this.hits++;
    return node;
  }

  private touch(node: Node): void {
    const k = id(node.key);
    this.nodes.delete(k);
    this.nodes.set(k, node);
  }

  private sortedKeys(): Buffer[] {
    this.sorted ??= [...this.nodes.values()].map((n) => n.key).sort(Buffer.compare);
    return this.sorted;
  }
}
