/**
 * The TopologyTestDriver's side of the store lifecycle (steps of
 * `src/state/store-contract.ts`), as Kafka's driver has it:
 * 1. a temporary state directory per driver (`<tmp>/sluice-ttd-*`), one
 *    folder per task inside it; deleted at `close()`;
 * 2. the instance record cache of `statestoreCacheMaxBytes` (default 10 MiB,
 *    0 disables);
 * 3. a changelog sink that records what the stores log (not exposed) and
 *    gives each store the changelog offset to commit;
 * 4. each store is initialised with that context before the processors are.
 * Also the plain-value view of a timestamped store (`getKeyValueStore` on a
 * DSL store returns values, as Kafka's `KeyValueStoreFacade`).
 */
import { MeteredTimestampedKeyValueStore } from '../../state/timestamped-key-value-store.js';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import type { KeyValue } from '../../records/key-value.js';
import { DEFAULT_CACHE_MAX_BYTES, RecordCache } from '../../state/record-cache.js';
import type { KeyValueStore } from '../../state/state-store.js';
import type { ChangelogSink, StoreInitContext } from '../../state/store-contract.js';
import type { ValueAndTimestamp } from '../../state/value-and-timestamp.js';
import { formatTaskId, type TaskProcessor } from '../../processors/task-contract.js';
import type { Headers } from '../../records/types.js';
import { changelogTopicName } from '../../state/store-contract.js';

/** One record a store logged. */
interface LoggedRecord {
  key: Buffer;
  value: Buffer | null;
  timestamp: number;
  headers?: Headers;
}

/** What the driver's stores share: state directory, cache, changelog record. */
export class DriverStores {
  /** Step 1. */
  private readonly stateDir = mkdtempSync(join(tmpdir(), 'sluice-ttd-'));
  /** Step 2. */
  readonly cache: RecordCache;
  /** Step 3: per task and store, what was logged (the changelog partition of the task). */
  private readonly changelogs = new Map<string, LoggedRecord[]>();
  private readonly logger = pino({ level: 'silent' });

  constructor(
    private readonly applicationId: string,
    cacheMaxBytes: number = DEFAULT_CACHE_MAX_BYTES,
    /** Told the changelog topic of every logged write (Kafka's driver lists changelog topics among the produced ones). */
    private readonly onLogged: (topic: string) => void = () => undefined,
  ) {
    this.cache = new RecordCache(cacheMaxBytes);
  }

  /**
   * Step 4: initialises every store of `task` (before `task.init()`); a store
   * in `sourceChangelogs` (its changelog is its table source's topic) gets no
   * changelog sink, as in the runtime: it logs nothing.
   */
  initStores(task: TaskProcessor, sourceChangelogs: ReadonlyMap<string, string> = new Map()): void {
    const label = formatTaskId(task.taskId);
    const dir = join(this.stateDir, label);
    mkdirSync(dir, { recursive: true });
    const sink: ChangelogSink = {
      send: (storeName, key, value, timestamp, headers) => {
        this.onLogged(changelogTopicName(this.applicationId, storeName));
        this.changelog(label, storeName).push({ key: Buffer.from(key), value: value === null ? null : Buffer.from(value), timestamp, ...(headers ? { headers } : {}) });
      },
    };
    const context: StoreInitContext = {
      applicationId: this.applicationId,
      taskId: task.taskId,
      stateDir: dir,
      changelog: sink,
      cache: this.cache,
      recordContext: () => task.recordContext(),
      logger: this.logger,
    };
    for (const store of task.stores) store.init(sourceChangelogs.has(store.name) ? { ...context, changelog: undefined } : context);
  }

  /** Step 6 after a flush: each logged store commits up to the end of its changelog. */
  commitStores(task: TaskProcessor): void {
    const label = formatTaskId(task.taskId);
    for (const store of task.stores) {
      const logged = store.loggingEnabled ? this.changelogs.get(`${label}/${store.name}`) : undefined;
      store.commit(logged?.length);
    }
  }

  /** Step 1: removes the state directory. */
  cleanUp(): void {
    rmSync(this.stateDir, { recursive: true, force: true });
  }

  private changelog(label: string, storeName: string): LoggedRecord[] {
    const id = `${label}/${storeName}`;
    let records = this.changelogs.get(id);
    if (records === undefined) {
      records = [];
      this.changelogs.set(id, records);
    }
    return records;
  }
}

/** True when `store` is a timestamped store (values carry their timestamp). */
export function isTimestampedStore(store: unknown): boolean {
  return store instanceof MeteredTimestampedKeyValueStore;
}

/**
 * The plain-value view of a timestamped store (Kafka's `KeyValueStoreFacade`):
 * reads drop the timestamps; a write stores the value with timestamp -1
 * (Kafka's `NO_TIMESTAMP`).
 */
export function keyValueFacade<K, V>(inner: KeyValueStore<K, ValueAndTimestamp<V>>): KeyValueStore<K, V> {
  const plain = (vt: ValueAndTimestamp<V> | null): V | null => (vt === null ? null : vt.value);
  const make = (value: V | null): ValueAndTimestamp<V> | null => (value === null ? null : { value, timestamp: -1 });
  const entries = (list: KeyValue<K, ValueAndTimestamp<V>>[]): KeyValue<K, V>[] => list.map((e) => ({ key: e.key, value: e.value.value }));
  return {
    get name() {
      return inner.name;
    },
    flush: () => inner.flush(),
    close: () => inner.close(),
    isOpen: () => inner.isOpen(),
    get: (key) => plain(inner.get(key)),
    put: (key, value) => inner.put(key, make(value)),
    putIfAbsent: (key, value) => plain(inner.putIfAbsent(key, { value, timestamp: -1 })),
    putAll: (list) => inner.putAll(list.map((e) => ({ key: e.key, value: make(e.value) }))),
    delete: (key) => plain(inner.delete(key)),
    range: (from, to) => entries(inner.range(from, to)),
    reverseRange: (from, to) => entries(inner.reverseRange(from, to)),
    all: () => entries(inner.all()),
    reverseAll: () => entries(inner.reverseAll()),
    prefixScan: (prefix, serializer) => entries(inner.prefixScan(prefix, serializer)),
    approximateNumEntries: () => inner.approximateNumEntries(),
  };
}
