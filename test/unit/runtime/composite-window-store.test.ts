/**
 * Port of Kafka's CompositeReadOnlyWindowStoreTest (inputs and expected
 * outputs unchanged) on sluice's window view (`app.store(... windowStore())`,
 * src/runtime/internal/store-views.ts): two "providers" (tasks) each holding
 * in-memory window stores (window size 30 000), the view reading every local
 * store of its name, in task order. Kafka's ReadOnlyWindowStoreStub is a real
 * in-memory window store here; its `setOpen(false)` is `close()`.
 * Left out: the iterator cases (emptyIterator…/peekNextKey/next throwing
 * NoSuchElementException): sluice's reads return arrays; and
 * shouldThrowNPEIfKeyIsNull's NullPointerException is an IllegalArgumentError.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { IllegalArgumentError } from '../../../src/errors.js';
import { InvalidStateStoreError, type LocalStores, type StoreQueryParameters } from '../../../src/runtime/interactive-queries.js';
import { windowView } from '../../../src/runtime/internal/store-views.js';
import { Serdes } from '../../../src/serdes/serdes.js';
import { Stores } from '../../../src/state/stores.js';
import type { ManagedStateStore } from '../../../src/state/store-contract.js';
import type { ReadOnlyWindowStore, WindowStore } from '../../../src/state/window-store.js';
import { testContext } from '../state/window/helpers.js';

const WINDOW_SIZE = 30_000;
const storeName = 'window-store';
const params: StoreQueryParameters<unknown> = { storeName, queryableStoreType: { kind: 'window' } };

/** A real typed in-memory window store (Kafka's ReadOnlyWindowStoreStub). */
function windowStoreStub(name: string): WindowStore<string, string> & ManagedStateStore {
  const store = Stores.windowStoreBuilder(Stores.inMemoryWindowStore(name, 24 * 60 * 60 * 1000, WINDOW_SIZE, false), Serdes.String(), Serdes.String()).withLoggingDisabled().build();
  (store as unknown as ManagedStateStore).init(testContext({ changelog: false }));
  return store as unknown as WindowStore<string, string> & ManagedStateStore;
}

/** Kafka's StateStoreProviderStub: the stores of one task by name. */
type Provider = Map<string, WindowStore<string, string> & ManagedStateStore>;

/** The view over providers (WrappingStoreProvider): each provider's store named `storeName`, in order. */
function composite(providers: Provider[], name = storeName): ReadOnlyWindowStore<string, string> {
  const local: LocalStores = () => ({
    appState: 'RUNNING',
    stores: providers.flatMap((p, i) => {
      const store = p.get(name);
      return store ? [{ taskId: `0_${i}`, state: 'RUNNING' as const, store }] : [];
    }),
  });
  return windowView<string, string>({ ...params, storeName: name }, local);
}

const win = (key: string, start: number, value: string) => ({ key: { key, window: { start, end: start + WINDOW_SIZE } }, value });

describe("CompositeReadOnlyWindowStoreTest (Kafka's, on sluice's window view)", () => {
  let stubProviderOne: Provider;
  let stubProviderTwo: Provider;
  let underlyingWindowStore: WindowStore<string, string> & ManagedStateStore;
  let otherUnderlyingStore: WindowStore<string, string> & ManagedStateStore;
  let windowStore: ReadOnlyWindowStore<string, string>;
  /** A second store of the same name in provider two (the "MultiStores"/"AcrossStores" cases). */
  const secondUnderlying = () => {
    const second = windowStoreStub(storeName);
    stubProviderTwo.set(storeName, second);
    return second;
  };

  beforeEach(() => {
    stubProviderOne = new Map();
    stubProviderTwo = new Map();
    underlyingWindowStore = windowStoreStub(storeName);
    stubProviderOne.set(storeName, underlyingWindowStore);
    otherUnderlyingStore = windowStoreStub('other-window-store');
    stubProviderOne.set('other-window-store', otherUnderlyingStore);
    windowStore = composite([stubProviderOne, stubProviderTwo]);
  });

  it('shouldFetchValuesFromWindowStore / shouldBackwardFetchValuesFromWindowStore', () => {
    underlyingWindowStore.put('my-key', 'my-value', 0);
    underlyingWindowStore.put('my-key', 'my-later-value', 10);
    expect(windowStore.fetch('my-key', 0, 25)).toEqual([{ key: 0, value: 'my-value' }, { key: 10, value: 'my-later-value' }]);
    expect(windowStore.backwardFetch('my-key', 0, 25)).toEqual([{ key: 10, value: 'my-later-value' }, { key: 0, value: 'my-value' }]);
  });

  it('shouldReturnEmptyIteratorIfNoData / shouldReturnBackwardEmptyIteratorIfNoData', () => {
    expect(windowStore.fetch('my-key', 0, 25)).toEqual([]);
    expect(windowStore.backwardFetch('my-key', 0, 25)).toEqual([]);
  });

  it('shouldFindValueForKeyWhenMultiStores (and Backwards)', () => {
    const second = secondUnderlying();
    underlyingWindowStore.put('key-one', 'value-one', 0);
    second.put('key-two', 'value-two', 10);
    expect(windowStore.fetch('key-one', 0, 1)).toEqual([{ key: 0, value: 'value-one' }]);
    expect(windowStore.fetch('key-two', 10, 11)).toEqual([{ key: 10, value: 'value-two' }]);
    expect(windowStore.backwardFetch('key-one', 0, 1)).toEqual([{ key: 0, value: 'value-one' }]);
    expect(windowStore.backwardFetch('key-two', 10, 11)).toEqual([{ key: 10, value: 'value-two' }]);
  });

  it('shouldNotGetValuesFromOtherStores (and Backward)', () => {
    otherUnderlyingStore.put('some-key', 'some-value', 0);
    underlyingWindowStore.put('some-key', 'my-value', 1);
    expect(windowStore.fetch('some-key', 0, 2)).toEqual([{ key: 1, value: 'my-value' }]);
    expect(windowStore.backwardFetch('some-key', 0, 2)).toEqual([{ key: 1, value: 'my-value' }]);
  });

  it('shouldThrowInvalidStateStoreExceptionOnRebalance (and WhenBackwards)', () => {
    const rebalancing = windowView<string, string>({ ...params, storeName: 'foo' }, () => {
      throw new InvalidStateStoreError('store is unavailable');
    });
    expect(() => rebalancing.fetch('key', 1, 10)).toThrow(InvalidStateStoreError);
    expect(() => rebalancing.backwardFetch('key', 1, 10)).toThrow(InvalidStateStoreError);
    // sluice's own rebalance: a task holding the store restores
    const restoring = windowView<string, string>(params, () => ({ appState: 'REBALANCING', stores: [{ taskId: '0_0', state: 'RESTORING', store: underlyingWindowStore }] }));
    expect(() => restoring.fetch('key', 1, 10)).toThrow(InvalidStateStoreError);
  });

  it('shouldThrowInvalidStateStoreExceptionIfFetchThrows (and IfBackwardFetchThrows)', () => {
    underlyingWindowStore.close();
    const store = composite([stubProviderOne], 'window-store');
    for (const read of [() => store.fetch('key', 1, 10), () => store.backwardFetch('key', 1, 10)]) {
      let error: unknown;
      try {
        read();
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(InvalidStateStoreError);
      expect((error as Error).message).toMatch(/^State store 'window-store' is not available anymore and may have been migrated to another instance; please re-discover its location from the state metadata/);
    }
  });

  it('shouldFetchKeyRangeAcrossStores, WithNullKeyTo, WithNullKeyFrom, WithNullKeyFromKeyTo', () => {
    const second = secondUnderlying();
    underlyingWindowStore.put('a', 'a', 0);
    second.put('b', 'b', 10);
    expect(windowStore.fetch('a', 'b', 0, 10)).toEqual([win('a', 0, 'a'), win('b', 10, 'b')]);
    second.put('c', 'c', 10);
    expect(windowStore.fetch('b', null, 0, 10)).toEqual([win('b', 10, 'b'), win('c', 10, 'c')]);
    expect(windowStore.fetch(null, 'b', 0, 10)).toEqual([win('a', 0, 'a'), win('b', 10, 'b')]);
    expect(windowStore.fetch(null, null, 0, 10)).toEqual([win('a', 0, 'a'), win('b', 10, 'b'), win('c', 10, 'c')]);
  });

  it('shouldBackwardFetchKeyRangeAcrossStores, WithNullKeyTo, WithNullKeyFrom, WithNullKeyFromKeyTo', () => {
    const second = secondUnderlying();
    underlyingWindowStore.put('a', 'a', 0);
    second.put('b', 'b', 10);
    expect(windowStore.backwardFetch('a', 'b', 0, 10)).toEqual([win('a', 0, 'a'), win('b', 10, 'b')]);
    second.put('c', 'c', 10);
    expect(windowStore.backwardFetch('b', null, 0, 10)).toEqual([win('c', 10, 'c'), win('b', 10, 'b')]);
    expect(windowStore.backwardFetch(null, 'b', 0, 10)).toEqual([win('a', 0, 'a'), win('b', 10, 'b')]);
    expect(windowStore.backwardFetch(null, null, 0, 10)).toEqual([win('a', 0, 'a'), win('c', 10, 'c'), win('b', 10, 'b')]);
  });

  it('shouldFetchKeyValueAcrossStores', () => {
    const second = secondUnderlying();
    underlyingWindowStore.put('a', 'a', 0);
    second.put('b', 'b', 10);
    expect(windowStore.fetch('a', 0)).toBe('a');
    expect(windowStore.fetch('b', 10)).toBe('b');
    expect(windowStore.fetch('c', 10)).toBeNull();
    expect(windowStore.fetch('a', 10)).toBeNull();
  });

  it('shouldGetAllAcrossStores, shouldGetBackwardAllAcrossStores, shouldFetchAllAcrossStores, shouldBackwardFetchAllAcrossStores', () => {
    const second = secondUnderlying();
    underlyingWindowStore.put('a', 'a', 0);
    second.put('b', 'b', 10);
    expect(windowStore.all()).toEqual([win('a', 0, 'a'), win('b', 10, 'b')]);
    expect(windowStore.backwardAll()).toEqual([win('a', 0, 'a'), win('b', 10, 'b')]);
    expect(windowStore.fetchAll(0, 10)).toEqual([win('a', 0, 'a'), win('b', 10, 'b')]);
    expect(windowStore.backwardFetchAll(0, 10)).toEqual([win('a', 0, 'a'), win('b', 10, 'b')]);
  });

  it('shouldThrowNPEIfKeyIsNull', () => {
    expect(() => windowStore.fetch(null as unknown as string, 0, 0)).toThrow(IllegalArgumentError);
  });
});
