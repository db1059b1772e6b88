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
import { SortedBytesEngine } from '../../../../src/state/internal/window-engines.js';

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
