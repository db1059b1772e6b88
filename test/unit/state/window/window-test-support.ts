/** Shared helpers of the window store ports (Kafka's AbstractWindowBytesStoreTest helpers). */
import type { KeyValue } from '../../../../src/records/key-value.js';
import type { Serde } from '../../../../src/serdes/serde.js';
import { Serdes } from '../../../../src/serdes/serdes.js';
import { Stores } from '../../../../src/state/stores.js';
import { windowBytesStoreSupplier } from '../../../../src/state/window-stores.js';
import { WindowKeySchema } from '../../../../src/state/window-key-schema.js';
import type { TypedWindowStore } from '../../../../src/state/window-typed-store.js';
import type { Windowed } from '../../../../src/state/window-types.js';
import { OverlayTestEngine, testDisk, type Logged } from './helpers.js';

export const WINDOW_SIZE = 3;
export const SEGMENT_INTERVAL = 60_000;
export const RETENTION_PERIOD = 2 * SEGMENT_INTERVAL;
export const STORE_NAME = 'InMemoryWindowStore';

/** Kafka's `buildWindowStore(retentionPeriod, windowSize, retainDuplicates, keySerde, valueSerde)`. */
export type BuildWindowStore = <K, V>(
  retentionPeriod: number,
  windowSize: number,
  retainDuplicates: boolean,
  keySerde: Serde<K>,
  valueSerde: Serde<V>,
) => TypedWindowStore<K, V>;

/** The two stores the abstract test runs against: in memory, and persistent on the KIP-892 test engine. */
export const WINDOW_STORE_KINDS: Array<[string, BuildWindowStore]> = [
  [
    'in-memory',
    (retentionPeriod, windowSize, retainDuplicates, keySerde, valueSerde) =>
      Stores.windowStoreBuilder(Stores.inMemoryWindowStore(STORE_NAME, retentionPeriod, windowSize, retainDuplicates), keySerde, valueSerde).build() as never,
  ],
  [
    'persistent',
    (retentionPeriod, windowSize, retainDuplicates, keySerde, valueSerde) => {
      const disk = testDisk();
      const supplier = windowBytesStoreSupplier(STORE_NAME, retentionPeriod, windowSize, retainDuplicates, 'persistent', (n) => new OverlayTestEngine(n, disk));
      return Stores.windowStoreBuilder(supplier, keySerde, valueSerde).build() as never;
    },
  ],
];

/** Kafka's `windowedPair`. */
export function windowedPair<K, V>(key: K, value: V, timestamp: number, windowSize = WINDOW_SIZE): KeyValue<Windowed<K>, V> {
  return { key: { key, window: WindowKeySchema.timeWindowForSize(timestamp, windowSize) }, value };
}

/** Kafka's `valuesToSet`. */
export function valuesToSet<V>(entries: ReadonlyArray<KeyValue<unknown, V>>): Set<V> {
  return new Set(entries.map((e) => e.value));
}

/** Kafka's `entriesByKey` over the collected changelog (Integer keys, String values). */
export function entriesByKey(changeLog: readonly Logged[], startTime: number): Map<number, Set<string>> {
  const out = new Map<number, Set<string>>();
  for (const entry of changeLog) {
    const timestamp = WindowKeySchema.extractStoreTimestamp(entry.key);
    const key = WindowKeySchema.extractStoreKey(entry.key, Serdes.Integer(), '');
    const value = entry.value === null ? null : Serdes.String().deserialize('', entry.value);
    const set = out.get(key) ?? new Set<string>();
    set.add(`${String(value)}@${timestamp - startTime}`);
    out.set(key, set);
  }
  return out;
}
