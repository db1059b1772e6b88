/**
 * The in-memory bytes engine (Kafka's `InMemoryKeyValueStore`): a sorted
 * bytes map. Not persistent: it has no checkpoint, so the runner restores it
 * in full from its changelog whenever the task is created; `commit` has
 * nothing to make durable; `close` drops the data.
 */
import type { BytesEntry, KeyValueBytesStore } from '../bytes-store-contract.js';
import type { ChangelogRecord, StoreInitContext } from '../store-contract.js';
import { SortedBytesMap } from '../internal/sorted-bytes-map.js';
import { StoreLifecycle } from '../internal/store-lifecycle.js';

/** An in-memory {@link KeyValueBytesStore}, ordered by key bytes. */
export class InMemoryKeyValueBytesStore implements KeyValueBytesStore {
  readonly persistent = false;
  private readonly data = new SortedBytesMap<Buffer>();
  private readonly lifecycle: StoreLifecycle;

  constructor(readonly name: string) {
    this.lifecycle = new StoreLifecycle(name);
  }

  init(context: StoreInitContext): void {
    void context;
    this.lifecycle.open();
  }

  /** Always `undefined`: an in-memory store restores from the beginning of its changelog. */
  checkpoint(): number | undefined {
    this.lifecycle.ensureOpen('checkpoint');
    return undefined;
  }

  restoreBatch(records: readonly ChangelogRecord[]): void {
    this.lifecycle.ensureOpen('restoreBatch');
    for (const record of records) this.put(record.key, record.value);
  }

  flush(): void {
    this.lifecycle.ensureOpen('flush');
  }

  commit(changelogNextOffset: number | undefined): void {
    void changelogNextOffset;
    this.lifecycle.ensureOpen('commit');
  }

  close(): void {
    if (this.lifecycle.close()) this.data.clear();
  }

  isOpen(): boolean {
    return this.lifecycle.isOpen;
  }

  get(key: Buffer): Buffer | null {
    this.lifecycle.ensureOpen('get');
    return this.data.get(key) ?? null;
  }

  put(key: Buffer, value: Buffer | null): void {
    this.lifecycle.ensureOpen('put');
    if (value === null) this.data.delete(key);
    else this.data.set(Buffer.from(key), Buffer.from(value));
  }

  putIfAbsent(key: Buffer, value: Buffer): Buffer | null {
    const previous = this.get(key);
    if (previous === null) this.put(key, value);
    return previous;
  }

  delete(key: Buffer): Buffer | null {
    this.lifecycle.ensureOpen('delete');
    return this.data.delete(key) ?? null;
  }

  range(from: Buffer | null, to: Buffer | null): BytesEntry[] {
    this.lifecycle.ensureOpen('range');
    return this.data.range(from, to);
  }

  reverseRange(from: Buffer | null, to: Buffer | null): BytesEntry[] {
    this.lifecycle.ensureOpen('reverseRange');
    return this.data.reverseRange(from, to);
  }

  prefixScan(prefix: Buffer): BytesEntry[] {
    this.lifecycle.ensureOpen('prefixScan');
    return this.data.prefixScan(prefix);
  }

  approximateNumEntries(): number {
    this.lifecycle.ensureOpen('approximateNumEntries');
    return this.data.size;
  }
}
