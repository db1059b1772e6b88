/**
 * What Kafka's `KeyValueStoreTestDriver` gives the ported store tests, over
 * sluice stores: a store of Integer keys and String values on a chosen
 * engine, the entries published at each flush (`flushedEntryStored`,
 * `flushedEntryRemoved`), a restore log and `sizeOf`.
 */
import { Serdes } from '../../../../src/index.js';
import type { KeyValueBytesStore } from '../../../../src/state/bytes-store-contract.js';
import { InMemoryKeyValueBytesStore } from '../../../../src/state/in-memory/in-memory-key-value-bytes-store.js';
import { LmdbKeyValueBytesStore } from '../../../../src/state/lmdb/lmdb-key-value-bytes-store.js';
import { MeteredKeyValueStore } from '../../../../src/state/metered-key-value-store.js';
import type { ChangelogRecord } from '../../../../src/state/store-contract.js';
import type { Serde } from '../../../../src/serdes/serde.js';
import { storeContext, tempStateDir, type CapturedLog } from '../helpers.js';

/** The engines the ported suites run on. */
export const ENGINES = {
  'in-memory': (name: string): KeyValueBytesStore => new InMemoryKeyValueBytesStore(name),
  lmdb: (name: string): KeyValueBytesStore => new LmdbKeyValueBytesStore(name),
} as const;

/** One engine's name. */
export type EngineName = keyof typeof ENGINES;

/** A Kafka-test-driver equivalent for one test. */
export class KeyValueStoreTestDriver {
  readonly logs: CapturedLog[] = [];
  private readonly flushed = new Map<number, string | null>();
  private readonly restoreLog: Array<[number, string | null]> = [];
  private readonly stateDir = tempStateDir();
  private nextOffset = 0;
  private readonly opened: MeteredKeyValueStore<unknown, unknown>[] = [];

  constructor(private readonly engine: EngineName) {}

  /** A new, initialised store named `name` (Integer keys, `valueSerde` values; String by default). */
  createStore(name = 'my-store', valueSerde: Serde<string> = Serdes.String()): MeteredKeyValueStore<number, string> {
    const store = new MeteredKeyValueStore(ENGINES[this.engine](name), Serdes.Integer(), valueSerde);
    store.init(storeContext(this.stateDir.dir, this.logs));
    store.onFlush((_name, writes) => {
      for (const w of writes) this.flushed.set(w.key.readInt32BE(0), w.value === null ? null : w.value.toString());
    });
    this.opened.push(store as MeteredKeyValueStore<unknown, unknown>);
    return store;
  }

  /** Kafka's `store.flush()`: flush, then commit (the point a persistent store makes writes durable). */
  flush(store: MeteredKeyValueStore<number, string>): void {
    store.flush();
    store.commit(++this.nextOffset);
  }

  flushedEntryStored(key: number): string | null {
    return this.flushed.get(key) ?? null;
  }

  flushedEntryRemoved(key: number): boolean {
    return this.flushed.has(key) && this.flushed.get(key) === null;
  }

  addEntryToRestoreLog(key: number, value: string | null): void {
    this.restoreLog.push([key, value]);
  }

  /** The restore log as changelog records (offsets 0, 1, …). */
  restoredEntries(): ChangelogRecord[] {
    return this.restoreLog.map(([key, value], offset) => {
      const k = Buffer.alloc(4);
      k.writeInt32BE(key, 0);
      return { key: k, value: value === null ? null : Buffer.from(value), timestamp: 0, offset };
    });
  }

  /** The number of restore-log entries the store does not hold with that value (the last value per key counts). */
  checkForRestoredEntries(store: MeteredKeyValueStore<number, string>): number {
    const last = new Map(this.restoreLog);
    let missing = 0;
    for (const [key, value] of last) if (value !== null && store.get(key) !== value) missing++;
    return missing;
  }

  sizeOf(store: MeteredKeyValueStore<number, string>): number {
    return store.all().length;
  }

  /** Closes every store it created and removes the state directory. */
  clear(): void {
    for (const store of this.opened) store.close();
    this.stateDir.cleanup();
  }
}
