/**
 * The layers of a versioned store:
 * - the change-logging layer, ported from Kafka's ChangeLoggingVersionedKeyValueBytesStoreTest
 *   (shouldPropagateAndLogOnPut, shouldPropagateAndLogOnPutNull, shouldPropagateAndLogOnDeleteWithTimestamp,
 *   shouldDelegateGet, shouldDelegateGetWithTimestamp; inputs and expectations unchanged);
 * - the builder, ported from Kafka's VersionedKeyValueStoreBuilderTest (outer layer typed, change
 *   logging by default and when enabled, none when disabled, caching throws, null serdes accepted);
 * - the changelog topic configs (Kafka's VersionedChangelogTopicConfig: min.compaction.lag.ms =
 *   history retention + 24 h unless given);
 * - a restart of each engine gives the same history: lmdb from its files (data and stream time
 *   committed with the checkpoint), in memory from the changelog it wrote.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IllegalStateError, Serdes, Stores } from '../../../../src/index.js';
import { InMemoryKeyValueBytesStore } from '../../../../src/state/in-memory/in-memory-key-value-bytes-store.js';
import type { ChangelogRecord, StoreInitContext } from '../../../../src/state/store-contract.js';
import { ChangeLoggingVersionedBytesStore } from '../../../../src/state/versioned/change-logging-versioned-bytes-store.js';
import { ListVersionedBytesStore } from '../../../../src/state/versioned/versioned-bytes-store.js';
import { MeteredVersionedKeyValueStore, VersionedKeyValueStore } from '../../../../src/state/versioned/versioned-key-value-store.js';
import { storeContext, tempStateDir } from '../helpers.js';

const HISTORY_RETENTION = 1000;

/** A context whose changelog sink collects what is sent (with offsets, as a changelog would give them). */
function collectingContext(dir: string, collected: ChangelogRecord[]): StoreInitContext {
  return {
    ...storeContext(dir),
    changelog: { send: (_store, key, value, timestamp) => void collected.push({ key, value, timestamp, offset: collected.length }) },
  };
}

describe('ChangeLoggingVersionedKeyValueBytesStoreTest (ported)', () => {
  let state: ReturnType<typeof tempStateDir>;
  let inner: ListVersionedBytesStore;
  let store: ChangeLoggingVersionedBytesStore;
  let collected: ChangelogRecord[];
  const raw = (s: string) => Buffer.from(s);
  beforeEach(() => {
    state = tempStateDir();
    collected = [];
    inner = new ListVersionedBytesStore(new InMemoryKeyValueBytesStore('bytes_store'), HISTORY_RETENTION);
    store = new ChangeLoggingVersionedBytesStore(inner);
    store.init(collectingContext(state.dir, collected));
  });
  afterEach(() => {
    store.close();
    state.cleanup();
  });

  it('shouldPropagateAndLogOnPut', () => {
    expect(store.put(raw('k'), raw('foo'), 10)).toBe(VersionedKeyValueStore.PUT_RETURN_CODE_VALID_TO_UNDEFINED);
    expect(inner.get(raw('k'))).toEqual({ value: raw('foo'), timestamp: 10 });
    expect(collected).toHaveLength(1);
    expect(collected[0]).toMatchObject({ key: raw('k'), value: raw('foo'), timestamp: 10 });
  });

  it('shouldPropagateAndLogOnPutNull', () => {
    inner.put(raw('k'), raw('foo'), 9);
    expect(inner.get(raw('k'))).toEqual({ value: raw('foo'), timestamp: 9 });
    expect(store.put(raw('k'), null, 10)).toBe(VersionedKeyValueStore.PUT_RETURN_CODE_VALID_TO_UNDEFINED);
    expect(inner.get(raw('k'))).toBeNull();
    expect(collected).toHaveLength(1);
    expect(collected[0]).toMatchObject({ key: raw('k'), value: null, timestamp: 10 });
  });

  it('shouldPropagateAndLogOnDeleteWithTimestamp', () => {
    inner.put(raw('k'), raw('foo'), 9);
    expect(store.delete(raw('k'), 10)).toEqual({ value: raw('foo'), timestamp: 9 });
    expect(inner.get(raw('k'))).toBeNull();
    expect(collected).toHaveLength(1);
    expect(collected[0]).toMatchObject({ key: raw('k'), value: null, timestamp: 10 });
  });

  it('shouldDelegateGet and shouldDelegateGetWithTimestamp', () => {
    inner.put(raw('k'), raw('v'), 8);
    expect(store.get(raw('k'))).toEqual({ value: raw('v'), timestamp: 8 });
    expect(store.getAsOf(raw('k'), 10)).toEqual({ value: raw('v'), timestamp: 8 });
    expect(collected).toHaveLength(0);
  });
});

describe('VersionedKeyValueStoreBuilderTest (ported)', () => {
  const supplier = () => Stores.persistentVersionedKeyValueStore('versioned-store', HISTORY_RETENTION);
  it('shouldHaveMeteredStoreAsOuterStore and shouldHaveChangeLoggingStoreByDefault', () => {
    const store = Stores.versionedKeyValueStoreBuilder(supplier(), Serdes.String(), Serdes.String()).build();
    expect(store).toBeInstanceOf(MeteredVersionedKeyValueStore);
    expect((store as MeteredVersionedKeyValueStore<string, string>).inner).toBeInstanceOf(ChangeLoggingVersionedBytesStore);
  });
  it('shouldNotHaveChangeLoggingStoreWhenDisabled', () => {
    const store = Stores.versionedKeyValueStoreBuilder(supplier(), Serdes.String(), Serdes.String()).withLoggingDisabled().build() as MeteredVersionedKeyValueStore<string, string>;
    expect(store.inner).toBeInstanceOf(ListVersionedBytesStore);
    expect(store.loggingEnabled).toBe(false);
  });
  it('shouldHaveChangeLoggingStoreWhenLoggingEnabled', () => {
    const store = Stores.versionedKeyValueStoreBuilder(supplier(), Serdes.String(), Serdes.String()).withLoggingEnabled({}).build() as MeteredVersionedKeyValueStore<string, string>;
    expect(store.inner).toBeInstanceOf(ChangeLoggingVersionedBytesStore);
    expect((store.inner as ChangeLoggingVersionedBytesStore).wrapped).toBeInstanceOf(ListVersionedBytesStore);
  });
  it('shouldThrowWhenCachingEnabled', () => {
    expect(() => Stores.versionedKeyValueStoreBuilder(supplier(), Serdes.String(), Serdes.String()).withCachingEnabled()).toThrow(IllegalStateError);
  });
  it('shouldNotThrowNullPointerIfKeySerdeIsNull / ValueSerdeIsNull; a missing supplier or name is refused', () => {
    expect(() => Stores.versionedKeyValueStoreBuilder(supplier(), null, Serdes.String())).not.toThrow();
    expect(() => Stores.versionedKeyValueStoreBuilder(supplier(), Serdes.String(), null)).not.toThrow();
    expect(() => Stores.versionedKeyValueStoreBuilder(null as never, Serdes.String(), Serdes.String())).toThrow(/versioned one/);
    expect(() => Stores.persistentVersionedKeyValueStore('', 10)).toThrow(/non-empty/);
    expect(() => Stores.persistentVersionedKeyValueStore('v', -1)).toThrow(/historyRetentionMs must be a whole number of ms >= 0/);
    expect(() => Stores.persistentVersionedKeyValueStore('v', 10, 0)).toThrow(/segmentIntervalMs must be a whole number of ms > 0/);
  });
  it('changelog topic: compacted, min.compaction.lag.ms = history retention + 24 h unless given (VersionedChangelogTopicConfig)', () => {
    const store = Stores.versionedKeyValueStoreBuilder(supplier(), Serdes.String(), Serdes.String()).build() as MeteredVersionedKeyValueStore<string, string>;
    expect(store.changelogConfig).toEqual({ 'cleanup.policy': 'compact', 'min.compaction.lag.ms': String(HISTORY_RETENTION + 86_400_000) });
    const given = Stores.versionedKeyValueStoreBuilder(supplier(), Serdes.String(), Serdes.String()).withLoggingEnabled({ 'min.compaction.lag.ms': '5' }).build() as MeteredVersionedKeyValueStore<string, string>;
    expect(given.changelogConfig['min.compaction.lag.ms']).toBe('5');
  });
});

describe('a restart gives the same history', () => {
  let state: ReturnType<typeof tempStateDir>;
  beforeEach(() => (state = tempStateDir()));
  afterEach(() => state.cleanup());

  const history = (store: VersionedKeyValueStore<string, string>) => ({
    latest: store.get('k'),
    at15: store.get('k', 15),
    at25: store.get('k', 25),
    at5: store.get('k', 5),
    other: store.get('o'),
    // 1010 is the stream time: a put at 9 is older than the 1000 ms retention
    late: store.put('late', 'x', 9),
  });
  const write = (store: VersionedKeyValueStore<string, string>) => {
    store.put('k', 'a', 10);
    store.put('k', 'b', 20);
    store.put('k', null, 30);
    store.put('k', 'c', 1010);
    store.put('o', 'x', 1010);
  };
  const expected = {
    latest: { value: 'c', timestamp: 1010 },
    at15: { value: 'a', timestamp: 10, validTo: 20 },
    at25: { value: 'b', timestamp: 20, validTo: 30 },
    at5: null,
    other: { value: 'x', timestamp: 1010 },
    late: VersionedKeyValueStore.PUT_RETURN_CODE_NOT_PUT,
  };

  it('lmdb: reopened from its files (data and stream time committed with the checkpoint)', () => {
    const build = () => Stores.versionedKeyValueStoreBuilder(Stores.persistentVersionedKeyValueStore('v', 1000), Serdes.String(), Serdes.String()).build() as MeteredVersionedKeyValueStore<string, string>;
    const first = build();
    const sent: ChangelogRecord[] = [];
    first.init(collectingContext(state.dir, sent));
    write(first);
    first.flush();
    first.commit(sent.length);
    first.close();
    const second = build();
    second.init(collectingContext(state.dir, []));
    expect(second.checkpoint()).toBe(5);
    expect(history(second)).toEqual(expected);
    second.close();
  });

  it('in memory: restored from the changelog it wrote', () => {
    const build = () => Stores.versionedKeyValueStoreBuilder(Stores.inMemoryVersionedKeyValueStore('v', 1000), Serdes.String(), Serdes.String()).build() as MeteredVersionedKeyValueStore<string, string>;
    const first = build();
    const sent: ChangelogRecord[] = [];
    first.init(collectingContext(state.dir, sent));
    write(first);
    expect(sent.map((r) => [r.key.toString(), r.value?.toString() ?? null, r.timestamp])).toEqual([
      ['k', 'a', 10], ['k', 'b', 20], ['k', null, 30], ['k', 'c', 1010], ['o', 'x', 1010],
    ]);
    first.close();
    const second = build();
    second.init(collectingContext(state.dir, []));
    second.restoreBatch(sent.slice(0, 2));
    second.restoreBatch(sent.slice(2));
    expect(history(second)).toEqual(expected);
    second.close();
  });
});
