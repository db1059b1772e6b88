/**
 * Port of Kafka's CompositeReadOnlySessionStoreTest (inputs and expected
 * outputs unchanged) on sluice's session view (`app.store(... sessionStore())`,
 * src/runtime/internal/store-views.ts): two "providers" (tasks) holding
 * in-memory session stores of Long aggregates, the view reading every local
 * store of its name, in task order. Kafka's ReadOnlySessionStoreStub is a real
 * in-memory session store here; `setOpen(false)` is `close()`; a
 * NullPointerException is an IllegalArgumentError; results are arrays.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { IllegalArgumentError } from '../../../src/errors.js';
import { InvalidStateStoreError, type LocalStores } from '../../../src/runtime/interactive-queries.js';
import { sessionView } from '../../../src/runtime/internal/store-views.js';
import { Serdes } from '../../../src/serdes/serdes.js';
import { Stores } from '../../../src/state/stores.js';
import type { ManagedStateStore } from '../../../src/state/store-contract.js';
import type { ReadOnlySessionStore, SessionStore } from '../../../src/state/session-store.js';
import { testContext } from '../state/window/helpers.js';

const storeName = 'session-store';
type Stub = SessionStore<string, number> & ManagedStateStore;
type Provider = Map<string, Stub>;

/** A real typed in-memory session store (Kafka's ReadOnlySessionStoreStub). */
function sessionStoreStub(name: string): Stub {
  const store = Stores.sessionStoreBuilder(Stores.inMemorySessionStore(name, 24 * 60 * 60 * 1000), Serdes.String(), Serdes.Long()).withLoggingDisabled().build();
  (store as unknown as ManagedStateStore).init(testContext({ changelog: false }));
  return store as unknown as Stub;
}

/** The view over providers (WrappingStoreProvider): each provider's store named `name`, in order; `rebalancing`: StateStoreProviderStub(true). */
function composite(providers: Provider[], name = storeName, rebalancing = false): ReadOnlySessionStore<string, number> {
  const local: LocalStores = () => {
    if (rebalancing) throw new InvalidStateStoreError('store is unavailable');
    return {
      appState: 'RUNNING',
      stores: providers.flatMap((p, i) => {
        const store = p.get(name);
        return store ? [{ taskId: `0_${i}`, state: 'RUNNING' as const, store }] : [];
      }),
    };
  };
  return sessionView<string, number>({ storeName: name, queryableStoreType: { kind: 'session' } }, local);
}

const windowed = (key: string, start: number, end: number) => ({ key, window: { start, end } });

describe("CompositeReadOnlySessionStoreTest (Kafka's, on sluice's session view)", () => {
  let stubProviderOne: Provider;
  let stubProviderTwo: Provider;
  let underlyingSessionStore: Stub;
  let otherUnderlyingStore: Stub;
  let sessionStore: ReadOnlySessionStore<string, number>;
  const secondUnderlying = (): Stub => {
    const second = sessionStoreStub(storeName);
    stubProviderTwo.set(storeName, second);
    return second;
  };

  beforeEach(() => {
    stubProviderOne = new Map();
    stubProviderTwo = new Map();
    underlyingSessionStore = sessionStoreStub(storeName);
    otherUnderlyingStore = sessionStoreStub('other-session-store');
    stubProviderOne.set(storeName, underlyingSessionStore);
    stubProviderOne.set('other-session-store', otherUnderlyingStore);
    sessionStore = composite([stubProviderOne, stubProviderTwo]);
  });

  it('shouldFetchResultsFromUnderlyingSessionStore', () => {
    underlyingSessionStore.put(windowed('a', 0, 0), 1);
    underlyingSessionStore.put(windowed('a', 10, 10), 2);
    expect(sessionStore.fetch('a')).toEqual([{ key: windowed('a', 0, 0), value: 1 }, { key: windowed('a', 10, 10), value: 2 }]);
  });

  it('shouldReturnEmptyIteratorIfNoData', () => {
    expect(sessionStore.fetch('b')).toEqual([]);
  });

  it('shouldFindValueForKeyWhenMultiStores', () => {
    const second = secondUnderlying();
    const keyOne = windowed('key-one', 0, 0);
    const keyTwo = windowed('key-two', 0, 0);
    underlyingSessionStore.put(keyOne, 0);
    second.put(keyTwo, 10);
    expect(sessionStore.fetch('key-one')).toEqual([{ key: keyOne, value: 0 }]);
    expect(sessionStore.fetch('key-two')).toEqual([{ key: keyTwo, value: 10 }]);
  });

  it('shouldNotGetValueFromOtherStores', () => {
    const expectedKey = windowed('foo', 0, 0);
    otherUnderlyingStore.put(windowed('foo', 10, 10), 10);
    underlyingSessionStore.put(expectedKey, 1);
    expect(sessionStore.fetch('foo')).toEqual([{ key: expectedKey, value: 1 }]);
  });

  it('shouldThrowInvalidStateStoreExceptionOnRebalance', () => {
    expect(() => composite([new Map()], 'whateva', true).fetch('a')).toThrow(InvalidStateStoreError);
  });

  it('shouldThrowInvalidStateStoreExceptionIfSessionFetchThrows', () => {
    underlyingSessionStore.close();
    expect(() => sessionStore.fetch('key')).toThrow(InvalidStateStoreError);
  });

  it('shouldThrowNullPointerExceptionIfFetchingNullKey / shouldThrowNPEIfKeyIsNull', () => {
    expect(() => sessionStore.fetch(null as unknown as string)).toThrow(IllegalArgumentError);
    expect(() => underlyingSessionStore.fetch(null as unknown as string)).toThrow(IllegalArgumentError);
  });

  it('shouldFetchKeyRangeAcrossStores, WithNullKeyFrom, WithNullKeyTo, WithNullKeyFromKeyTo', () => {
    const second = secondUnderlying();
    underlyingSessionStore.put(windowed('a', 0, 0), 0);
    second.put(windowed('b', 0, 0), 10);
    const both = [{ key: windowed('a', 0, 0), value: 0 }, { key: windowed('b', 0, 0), value: 10 }];
    expect(sessionStore.fetch('a', 'b')).toEqual(both);
    expect(sessionStore.fetch(null, 'b')).toEqual(both);
    expect(sessionStore.fetch('a', null)).toEqual(both);
    expect(sessionStore.fetch(null, null)).toEqual(both);
  });
});
