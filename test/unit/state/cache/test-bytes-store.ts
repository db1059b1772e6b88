/**
 * A tiny bytes engine implementing the KeyValueBytesStore layer interface
 * (sorted in memory), and a recording init context, for the layer tests.
 */
import pino from 'pino';
import type { BytesEntry, KeyValueBytesStore } from '../../../../src/state/bytes-store-contract.js';
import type { ChangelogRecord, RecordCacheLike, StoreInitContext, StoreRecordContext } from '../../../../src/state/store-contract.js';
import { SortedBytesMap } from '../../../../src/state/internal/sorted-bytes-map.js';
import type { Headers } from '../../../../src/records/types.js';

/** A sorted in-memory bytes engine that counts its calls. */
export class TestBytesStore implements KeyValueBytesStore {
  private readonly bytes = new SortedBytesMap<Buffer>();
  private open = false;
  readonly persistent = false;
  puts = 0;
  flushes = 0;
  initContext: StoreInitContext | undefined;
  constructor(readonly name: string) {}
  init(context: StoreInitContext): void {
    this.initContext = context;
    this.open = true;
  }
  checkpoint(): number | undefined {
    return undefined;
  }
  restoreBatch(records: readonly ChangelogRecord[]): void {
    for (const r of records) this.write(r.key, r.value);
  }
  flush(): void {
    this.flushes++;
  }
  commit(): void {}
  close(): void {
    this.open = false;
  }
  isOpen(): boolean {
    return this.open;
  }
  get(key: Buffer): Buffer | null {
    return this.bytes.get(key) ?? null;
  }
  put(key: Buffer, value: Buffer | null): void {
    this.puts++;
    this.write(key, value);
  }
  putIfAbsent(key: Buffer, value: Buffer): Buffer | null {
    const previous = this.get(key);
    if (previous === null) this.put(key, value);
    return previous;
  }
  delete(key: Buffer): Buffer | null {
    return this.write(key, null);
  }
  range(from: Buffer | null, to: Buffer | null): BytesEntry[] {
    return this.bytes.range(from, to);
  }
  reverseRange(from: Buffer | null, to: Buffer | null): BytesEntry[] {
    return this.bytes.reverseRange(from, to);
  }
  prefixScan(prefix: Buffer): BytesEntry[] {
    return this.bytes.prefixScan(prefix);
  }
  /** Sets (copies) or deletes `key`; returns the previous value. */
  private write(key: Buffer, value: Buffer | null): Buffer | null {
    const previous = value === null ? this.bytes.delete(key) : this.bytes.set(Buffer.from(key), Buffer.from(value));
    return previous ?? null;
  }
  approximateNumEntries(): number {
    return this.bytes.size;
  }
}

/** One record sent to the changelog sink. */
export interface LoggedRecord {
  storeName: string;
  key: Buffer;
  value: Buffer | null;
  timestamp: number;
  headers: Headers | undefined;
}

/** An init context recording changelog sends; `current` is the record context the store sees. */
export function testContext(options: { cache?: RecordCacheLike; logging?: boolean; partition?: number } = {}): {
  context: StoreInitContext;
  logged: LoggedRecord[];
  current: { value: StoreRecordContext };
} {
  const logged: LoggedRecord[] = [];
  const current = { value: { timestamp: 0, headers: {} } as StoreRecordContext };
  const context: StoreInitContext = {
    applicationId: 'app',
    taskId: { subtopology: 0, partition: options.partition ?? 0 },
    stateDir: '/nonexistent',
    changelog: options.logging === false ? undefined : { send: (storeName, key, value, timestamp, headers) => logged.push({ storeName, key, value, timestamp, headers }) },
    cache: options.cache,
    recordContext: () => current.value,
    logger: pino({ level: 'silent' }),
  };
  return { context, logged, current };
}
