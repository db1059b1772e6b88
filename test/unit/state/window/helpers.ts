/**
 * Test fixtures for the window and session store ports: a store init context
 * collecting changelog records and warnings (Kafka's MockRecordCollector and
 * LogCaptureAppender), and a persistent KIP-892-style test engine (uncommitted
 * writes in an overlay, applied with the checkpoint at commit) whose committed
 * data survives close/reopen like files on disk.
 */
import { pino } from 'pino';
import { Writable } from 'node:stream';
import type { BytesEntry, KeyValueBytesStore } from '../../../../src/state/bytes-store-contract.js';
import type { ChangelogRecord, StoreInitContext, StoreRecordContext } from '../../../../src/state/store-contract.js';
import { IllegalStateError } from '../../../../src/errors.js';
import { defined } from '../../../../src/internal/defined.js';

/** One record sent to a changelog. */
export interface Logged {
  storeName: string;
  key: Buffer;
  value: Buffer | null;
  timestamp: number;
}

/** A context whose changelog records and log messages the test reads. */
export interface TestContext extends StoreInitContext {
  readonly collected: Logged[];
  readonly messages: string[];
  record: StoreRecordContext;
}

/** A store init context (application `app`, task 0_0) with a changelog collector and a captured logger. */
export function testContext(options: { changelog?: boolean } = {}): TestContext {
  const collected: Logged[] = [];
  const messages: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line) messages.push((JSON.parse(line) as { msg: string }).msg);
      done();
    },
  });
  const context: TestContext = {
    applicationId: 'app',
    taskId: { subtopology: 0, partition: 0 },
    stateDir: '/nonexistent',
    changelog:
      options.changelog === false
        ? undefined
        : { send: (storeName, key, value, timestamp) => void collected.push({ storeName, key: Buffer.from(key), value: value === null ? null : Buffer.from(value), timestamp }) },
    cache: undefined,
    record: { timestamp: 1, headers: {} },
    recordContext: () => context.record,
    logger: pino({ level: 'warn' }, sink),
    collected,
    messages,
  };
  return context;
}

/** Changelog records as a restore would read them (offsets from 0). */
export function asChangelog(logged: readonly Logged[]): ChangelogRecord[] {
  return logged.map((l, offset) => ({ key: l.key, value: l.value, timestamp: l.timestamp, offset }));
}

/** What a persistent test engine keeps "on disk". */
export interface TestDisk {
  entries: Map<string, Buffer>;
  checkpoint: number | undefined;
}

/** A new empty disk. */
export function testDisk(): TestDisk {
  return { entries: new Map(), checkpoint: undefined };
}

/**
 * A persistent engine in the KIP-892 style: reads see committed data plus the
 * overlay; `commit(offset)` applies the overlay and the checkpoint together;
 * `close()` discards the overlay; restored records are applied at once.
 */
export class OverlayTestEngine implements KeyValueBytesStore {
  readonly persistent = true;
  private readonly overlay = new Map<string, Buffer | null>();
  private view: SortedBytesEngine | undefined;

  constructor(readonly name: string, private readonly disk: TestDisk) {}

  init(): void {
    this.view = new SortedBytesEngine(this.name);
    this.view.init();
    for (const [k, v] of this.disk.entries) this.view.put(Buffer.from(k, 'hex'), v);
  }
  checkpoint(): number | undefined {
    return this.disk.checkpoint;
  }
  restoreBatch(records: readonly ChangelogRecord[]): void {
    for (const r of records) {
      this.apply(r.key, r.value, true);
      this.disk.checkpoint = r.offset + 1;
    }
  }
  flush(): void {}
  commit(changelogNextOffset: number | undefined): void {
    for (const [k, v] of this.overlay) {
      if (v === null) this.disk.entries.delete(k);
      else this.disk.entries.set(k, v);
    }
    this.overlay.clear();
    if (changelogNextOffset !== undefined) this.disk.checkpoint = changelogNextOffset;
  }
  close(): void {
    this.overlay.clear();
    this.view?.close();
    this.view = undefined;
  }
  isOpen(): boolean {
    return this.view !== undefined;
  }
  get(key: Buffer): Buffer | null {
    return this.engine().get(key);
  }
  put(key: Buffer, value: Buffer | null): void {
    this.apply(key, value, false);
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
    return this.engine().range(from, to);
  }
  reverseRange(from: Buffer | null, to: Buffer | null): BytesEntry[] {
    return this.engine().reverseRange(from, to);
  }
  prefixScan(prefix: Buffer): BytesEntry[] {
    return this.engine().prefixScan(prefix);
  }
  approximateNumEntries(): number {
    return this.engine().approximateNumEntries();
  }
  private apply(key: Buffer, value: Buffer | null, committed: boolean): void {
    this.engine().put(key, value);
    const hex = key.toString('hex');
    if (committed) {
      if (value === null) this.disk.entries.delete(hex);
      else this.disk.entries.set(hex, Buffer.from(value));
    } else {
      this.overlay.set(hex, value === null ? null : Buffer.from(value));
    }
  }
  private engine(): SortedBytesEngine {
    if (this.view === undefined) throw new Error(`test engine '${this.name}' is not open`);
    return this.view;
  }
}

/**
 * A minimal sorted in-memory bytes engine (a {@link KeyValueBytesStore}; was in
 * src/state/internal/window-engines.ts, used only by tests): writes apply at
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
