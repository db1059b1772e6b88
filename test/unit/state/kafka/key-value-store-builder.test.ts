/**
 * Ported from Kafka's KeyValueStoreBuilderTest and
 * TimestampedKeyValueStoreBuilderTest. The change-logging and caching layers
 * are replaced by marker layers (vi.mock of store-layers.ts) so the stack the
 * builder assembles can be checked as Kafka checks `wrapped()`. Not ported:
 * the MockTime/metricsScope cases (sluice has neither), the timestamped
 * byte-store adapter cases (sluice engines store bytes, the timestamped
 * format is the typed layer's serde); null serdes throw in sluice (there are
 * no context default serdes for stores), unlike Kafka's
 * shouldNotThrowNullPointerIfKeySerdeIsNull.
 */
import { describe, expect, it, vi } from 'vitest';
import { Serdes, Stores } from '../../../../src/index.js';
import type { KeyValueBytesStore, KeyValueBytesStoreSupplier } from '../../../../src/state/bytes-store-contract.js';
import { InMemoryKeyValueBytesStore } from '../../../../src/state/in-memory/in-memory-key-value-bytes-store.js';
import { MeteredKeyValueStore } from '../../../../src/state/metered-key-value-store.js';
import { KeyValueStoreBuilder, TimestampedKeyValueStoreBuilder } from '../../../../src/state/store-builders.js';
import { MeteredTimestampedKeyValueStore } from '../../../../src/state/timestamped-key-value-store.js';

interface Marker {
  layer: 'change-logging' | 'caching';
  inner: KeyValueBytesStore;
  options: unknown;
}
const layerOf = (store: KeyValueBytesStore): Marker | undefined => (store as unknown as { marker?: Marker }).marker;

vi.mock('../../../../src/state/store-layers.js', () => {
  const wrap = (layer: Marker['layer']) => (inner: KeyValueBytesStore, options: unknown) =>
    Object.assign(Object.create(inner) as KeyValueBytesStore, { marker: { layer, inner, options } });
  return { wrapChangeLogging: wrap('change-logging'), wrapCaching: wrap('caching') };
});

const S = Serdes.String();

describe.each([
  ['KeyValueStoreBuilderTest', (supplier: KeyValueBytesStoreSupplier) => new KeyValueStoreBuilder(supplier, S, S), MeteredKeyValueStore, false],
  ['TimestampedKeyValueStoreBuilderTest', (supplier: KeyValueBytesStoreSupplier) => new TimestampedKeyValueStoreBuilder(supplier, S, S), MeteredTimestampedKeyValueStore, true],
] as const)('%s', (_name, makeBuilder, outerClass, timestamped) => {
  function setUp() {
    const inner = new InMemoryKeyValueBytesStore('name');
    const supplier: KeyValueBytesStoreSupplier = { name: 'name', kind: 'in-memory', get: () => inner };
    return { inner, builder: makeBuilder(supplier) };
  }

  // shouldHaveMeteredStoreAsOuterStore
  it('shouldHaveMeteredStoreAsOuterStore', () => {
    expect(setUp().builder.build()).toBeInstanceOf(outerClass);
  });

  // shouldHaveChangeLoggingStoreByDefault
  it('shouldHaveChangeLoggingStoreByDefault', () => {
    const { builder, inner } = setUp();
    const store = builder.build();
    expect(layerOf(store.inner)?.layer).toBe('change-logging');
    expect(layerOf(store.inner)?.inner).toBe(inner);
    expect(layerOf(store.inner)?.options).toEqual({ timestamped, logConfig: { 'cleanup.policy': 'compact' } });
    expect(store.loggingEnabled).toBe(true);
    expect(store.changelogConfig).toEqual({ 'cleanup.policy': 'compact' });
  });

  // shouldNotHaveChangeLoggingStoreWhenDisabled
  it('shouldNotHaveChangeLoggingStoreWhenDisabled', () => {
    const { builder, inner } = setUp();
    const store = builder.withLoggingDisabled().build();
    expect(store.inner).toBe(inner);
    expect(store.loggingEnabled).toBe(false);
  });

  // shouldHaveCachingStoreWhenEnabled
  it('shouldHaveCachingStoreWhenEnabled', () => {
    const store = setUp().builder.withCachingEnabled().build();
    expect(store).toBeInstanceOf(outerClass);
    expect(layerOf(store.inner)?.layer).toBe('caching');
    expect(layerOf(store.inner)?.options).toEqual({ timestamped });
  });

  // shouldHaveChangeLoggingStoreWhenLoggingEnabled
  it('shouldHaveChangeLoggingStoreWhenLoggingEnabled', () => {
    const { builder, inner } = setUp();
    const store = builder.withLoggingEnabled({}).build();
    expect(store).toBeInstanceOf(outerClass);
    expect(layerOf(store.inner)?.layer).toBe('change-logging');
    expect(layerOf(store.inner)?.inner).toBe(inner);
  });

  // shouldHaveCachingAndChangeLoggingWhenBothEnabled
  it('shouldHaveCachingAndChangeLoggingWhenBothEnabled', () => {
    const { builder, inner } = setUp();
    const store = builder.withLoggingEnabled({}).withCachingEnabled().build();
    const caching = layerOf(store.inner);
    expect(caching?.layer).toBe('caching');
    const changeLogging = layerOf(caching?.inner as KeyValueBytesStore);
    expect(changeLogging?.layer).toBe('change-logging');
    expect(changeLogging?.inner).toBe(inner);
  });

  // shouldThrowNullPointerIfInnerIsNull
  it('shouldThrowNullPointerIfInnerIsNull', () => {
    expect(() => makeBuilder(null as unknown as KeyValueBytesStoreSupplier)).toThrow(/the store supplier is missing/);
  });

  it('merges withLoggingEnabled configs over compaction, and each build() is a new stack', () => {
    const { builder } = setUp();
    const store = builder.withLoggingEnabled({ 'min.compaction.lag.ms': '100' }).build();
    expect(store.changelogConfig).toEqual({ 'cleanup.policy': 'compact', 'min.compaction.lag.ms': '100' });
    expect(builder.logConfig).toEqual({ 'min.compaction.lag.ms': '100' });
    expect(builder.build()).not.toBe(store);
  });
});

describe('Stores suppliers', () => {
  it('name their engine: in-memory or persistent (lmdb), each get() a new engine', () => {
    const memory = Stores.inMemoryKeyValueStore('m');
    const persistent = Stores.persistentKeyValueStore('p');
    const timestamped = Stores.persistentTimestampedKeyValueStore('t');
    expect([memory.kind, persistent.kind, timestamped.kind]).toEqual(['in-memory', 'persistent', 'persistent']);
    expect(memory.get()).not.toBe(memory.get());
    expect(persistent.get().persistent).toBe(true);
    expect(timestamped.get().name).toBe('t');
    expect(() => Stores.persistentKeyValueStore('')).toThrow(/Stores.persistentKeyValueStore: the store name must be a non-empty string/);
  });

  it('builders refuse a value that is not a serde, naming it (null is the app default, as Kafka)', () => {
    expect(() => Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore('x'), S, 'String' as unknown as typeof S)).toThrow(
      /Stores.keyValueStoreBuilder\('x'\): the value serde is not a serde/,
    );
    expect(() => Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore('x'), null, null)).not.toThrow();
  });
});
