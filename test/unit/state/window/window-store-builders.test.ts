/**
 * Ports of Kafka's WindowStoreBuilderTest, SessionStoreBuilderTest and the
 * window/session cases of StoresTest (argument checks, store stacks).
 * Mockito suppliers become plain supplier objects; `instanceOf` on the
 * wrapped layers reads the typed store's `inner` and the logging layer's
 * `wrapped`. Caching layers: Kafka's `CachingWindowStore` and
 * `CachingSessionStore`.
 * Cases about `Time` and `metricsScope` have no counterpart (no such arguments).
 */
import { describe, expect, it } from 'vitest';
import { IllegalArgumentError } from '../../../../src/errors.js';
import { Serdes } from '../../../../src/serdes/serdes.js';
import { Stores } from '../../../../src/state/stores.js';
import { ChangeLoggingSessionBytesStore, ChangeLoggingWindowBytesStore } from '../../../../src/state/window-change-logging.js';
import { SessionStoreBuilder, WindowStoreBuilder } from '../../../../src/state/window-store-builders.js';
import type { SessionBytesStore, SessionBytesStoreSupplier } from '../../../../src/state/session-store.js';
import type { WindowBytesStore, WindowBytesStoreSupplier } from '../../../../src/state/window-store.js';
import { TypedWindowStore } from '../../../../src/state/window-typed-store.js';
import { TypedSessionStore } from '../../../../src/state/session-typed-store.js';
import { CachingSessionStore } from '../../../../src/state/caching-session-store.js';
import { CachingWindowStore } from '../../../../src/state/caching-window-store.js';

const windowInner = Stores.inMemoryWindowStore('name', 10, 10, false).get();
const windowSupplier: WindowBytesStoreSupplier = { ...Stores.inMemoryWindowStore('name', 10, 10, false), get: () => windowInner };
const sessionInner = Stores.inMemorySessionStore('name', 10).get();
const sessionSupplier: SessionBytesStoreSupplier = { ...Stores.inMemorySessionStore('name', 10), get: () => sessionInner };
const windowBuilder = (): WindowStoreBuilder<string, string> => new WindowStoreBuilder(windowSupplier, Serdes.String(), Serdes.String());
const sessionBuilder = (): SessionStoreBuilder<string, string> => new SessionStoreBuilder(sessionSupplier, Serdes.String(), Serdes.String());
const nextOf = (store: unknown): WindowBytesStore | SessionBytesStore => (store as { inner: WindowBytesStore }).inner;

describe('WindowStoreBuilderTest', () => {
  // WindowStoreBuilderTest.shouldHaveMeteredStoreAsOuterStore
  it('shouldHaveMeteredStoreAsOuterStore', () => {
    expect(windowBuilder().build()).toBeInstanceOf(TypedWindowStore);
  });
  // WindowStoreBuilderTest.shouldHaveChangeLoggingStoreByDefault
  it('shouldHaveChangeLoggingStoreByDefault', () => {
    expect(nextOf(windowBuilder().build())).toBeInstanceOf(ChangeLoggingWindowBytesStore);
  });
  // WindowStoreBuilderTest.shouldNotHaveChangeLoggingStoreWhenDisabled
  it('shouldNotHaveChangeLoggingStoreWhenDisabled', () => {
    expect(nextOf(windowBuilder().withLoggingDisabled().build())).toBe(windowInner);
  });
  // WindowStoreBuilderTest.shouldHaveCachingStoreWhenEnabled
  it('shouldHaveCachingStoreWhenEnabled', () => {
    const builder = windowBuilder().withCachingEnabled();
    const store = builder.build();
    expect(store).toBeInstanceOf(TypedWindowStore);
    expect(builder.cachingEnabled).toBe(true);
    expect(nextOf(store)).toBeInstanceOf(CachingWindowStore);
  });
  // WindowStoreBuilderTest.shouldHaveChangeLoggingStoreWhenLoggingEnabled
  it('shouldHaveChangeLoggingStoreWhenLoggingEnabled', () => {
    const store = windowBuilder().withLoggingEnabled({}).build();
    const wrapped = nextOf(store);
    expect(wrapped).toBeInstanceOf(ChangeLoggingWindowBytesStore);
    expect((wrapped as ChangeLoggingWindowBytesStore).wrapped).toBe(windowInner);
  });
  // WindowStoreBuilderTest.shouldHaveCachingAndChangeLoggingWhenBothEnabled
  it('shouldHaveCachingAndChangeLoggingWhenBothEnabled', () => {
    const builder = windowBuilder().withLoggingEnabled({}).withCachingEnabled();
    const caching = nextOf(builder.build());
    expect(builder.cachingEnabled).toBe(true);
    expect(caching).toBeInstanceOf(CachingWindowStore);
    const changeLogging = (caching as CachingWindowStore).wrapped;
    expect(changeLogging).toBeInstanceOf(ChangeLoggingWindowBytesStore);
    expect((changeLogging as ChangeLoggingWindowBytesStore).wrapped).toBe(windowInner);
  });
  // WindowStoreBuilderTest.shouldDisableCachingWithRetainDuplicates
  it('shouldDisableCachingWithRetainDuplicates', () => {
    const supplier = Stores.inMemoryWindowStore('name', 10, 10, true);
    const builder = new WindowStoreBuilder(supplier, Serdes.String(), Serdes.String()).withCachingEnabled();
    const store = builder.build();
    expect(builder.cachingEnabled).toBe(false);
    expect(nextOf(store)).not.toBeInstanceOf(CachingWindowStore);
  });
  // WindowStoreBuilderTest.shouldDisableLogCompactionWithRetainDuplicates
  it('shouldDisableLogCompactionWithRetainDuplicates', () => {
    const supplier = Stores.persistentWindowStore('name', 10, 10, true);
    const builder = new WindowStoreBuilder(supplier, Serdes.String(), Serdes.String()).withCachingEnabled();
    expect(builder.logConfig['cleanup.policy']).toBe('delete');
  });
  // WindowStoreBuilderTest.shouldThrowNullPointerIfInnerIsNull
  it('shouldThrowNullPointerIfInnerIsNull', () => {
    expect(() => new WindowStoreBuilder(null as unknown as WindowBytesStoreSupplier, Serdes.String(), Serdes.String())).toThrow(IllegalArgumentError);
  });
});

describe('SessionStoreBuilderTest', () => {
  // SessionStoreBuilderTest.shouldHaveMeteredStoreAsOuterStore
  it('shouldHaveMeteredStoreAsOuterStore', () => {
    expect(sessionBuilder().build()).toBeInstanceOf(TypedSessionStore);
  });
  // SessionStoreBuilderTest.shouldHaveChangeLoggingStoreByDefault
  it('shouldHaveChangeLoggingStoreByDefault', () => {
    expect(nextOf(sessionBuilder().build())).toBeInstanceOf(ChangeLoggingSessionBytesStore);
  });
  // SessionStoreBuilderTest.shouldNotHaveChangeLoggingStoreWhenDisabled
  it('shouldNotHaveChangeLoggingStoreWhenDisabled', () => {
    expect(nextOf(sessionBuilder().withLoggingDisabled().build())).toBe(sessionInner);
  });
  // SessionStoreBuilderTest.shouldHaveCachingStoreWhenEnabled
  it('shouldHaveCachingStoreWhenEnabled', () => {
    const builder = sessionBuilder().withCachingEnabled();
    const store = builder.build();
    expect(store).toBeInstanceOf(TypedSessionStore);
    expect(builder.cachingEnabled).toBe(true);
    expect(nextOf(store)).toBeInstanceOf(CachingSessionStore);
  });
  // SessionStoreBuilderTest.shouldHaveChangeLoggingStoreWhenLoggingEnabled
  it('shouldHaveChangeLoggingStoreWhenLoggingEnabled', () => {
    const wrapped = nextOf(sessionBuilder().withLoggingEnabled({}).build());
    expect(wrapped).toBeInstanceOf(ChangeLoggingSessionBytesStore);
    expect((wrapped as ChangeLoggingSessionBytesStore).wrapped).toBe(sessionInner);
  });
  // SessionStoreBuilderTest.shouldHaveCachingAndChangeLoggingWhenBothEnabled
  it('shouldHaveCachingAndChangeLoggingWhenBothEnabled', () => {
    const builder = sessionBuilder().withLoggingEnabled({}).withCachingEnabled();
    const caching = nextOf(builder.build());
    expect(builder.cachingEnabled).toBe(true);
    expect(caching).toBeInstanceOf(CachingSessionStore);
    const changeLogging = (caching as CachingSessionStore).wrapped;
    expect(changeLogging).toBeInstanceOf(ChangeLoggingSessionBytesStore);
    expect((changeLogging as ChangeLoggingSessionBytesStore).wrapped).toBe(sessionInner);
  });
  // SessionStoreBuilderTest.shouldThrowNullPointerIfStoreSupplierIsNull
  it('shouldThrowNullPointerIfStoreSupplierIsNull', () => {
    expect(() => new SessionStoreBuilder(null as unknown as SessionBytesStoreSupplier, Serdes.String(), Serdes.String())).toThrow('supplier cannot be null');
  });
  // SessionStoreBuilderTest.shouldThrowNullPointerIfNameIsNull
  it('shouldThrowNullPointerIfNameIsNull', () => {
    const nameless = { ...sessionSupplier, name: null as unknown as string };
    expect(() => new SessionStoreBuilder(nameless, Serdes.String(), Serdes.String())).toThrow('name cannot be null');
  });
});

describe('StoresTest (window and session cases)', () => {
  const expectArgError = (f: () => unknown, message: string): void => {
    expect(f).toThrow(IllegalArgumentError);
    expect(f).toThrow(message);
  };
  const noName = null as unknown as string;
  // StoresTest.shouldThrowIfIPersistentWindowStoreStoreNameIsNull
  it('shouldThrowIfIPersistentWindowStoreStoreNameIsNull', () => expectArgError(() => Stores.persistentWindowStore(noName, 0, 0, false), 'name cannot be null'));
  // StoresTest.shouldThrowIfIPersistentTimestampedWindowStoreStoreNameIsNull
  it('shouldThrowIfIPersistentTimestampedWindowStoreStoreNameIsNull', () =>
    expectArgError(() => Stores.persistentTimestampedWindowStore(noName, 0, 0, false), 'name cannot be null'));
  // StoresTest.shouldThrowIfIPersistentWindowStoreRetentionPeriodIsNegative
  it('shouldThrowIfIPersistentWindowStoreRetentionPeriodIsNegative', () =>
    expectArgError(() => Stores.persistentWindowStore('anyName', -1, 0, false), 'retentionPeriod cannot be negative'));
  // StoresTest.shouldThrowIfIPersistentTimestampedWindowStoreRetentionPeriodIsNegative
  it('shouldThrowIfIPersistentTimestampedWindowStoreRetentionPeriodIsNegative', () =>
    expectArgError(() => Stores.persistentTimestampedWindowStore('anyName', -1, 0, false), 'retentionPeriod cannot be negative'));
  // StoresTest.shouldThrowIfIPersistentWindowStoreIfWindowSizeIsNegative
  it('shouldThrowIfIPersistentWindowStoreIfWindowSizeIsNegative', () =>
    expectArgError(() => Stores.persistentWindowStore('anyName', 0, -1, false), 'windowSize cannot be negative'));
  // StoresTest.shouldThrowIfIPersistentTimestampedWindowStoreIfWindowSizeIsNegative
  it('shouldThrowIfIPersistentTimestampedWindowStoreIfWindowSizeIsNegative', () =>
    expectArgError(() => Stores.persistentTimestampedWindowStore('anyName', 0, -1, false), 'windowSize cannot be negative'));
  // StoresTest.shouldThrowIfIPersistentSessionStoreStoreNameIsNull
  it('shouldThrowIfIPersistentSessionStoreStoreNameIsNull', () => expectArgError(() => Stores.persistentSessionStore(noName, 0), 'name cannot be null'));
  // StoresTest.shouldThrowIfIPersistentSessionStoreRetentionPeriodIsNegative
  it('shouldThrowIfIPersistentSessionStoreRetentionPeriodIsNegative', () =>
    expectArgError(() => Stores.persistentSessionStore('anyName', -1), 'retentionPeriod cannot be negative'));
  // StoresTest.shouldThrowIfSupplierIsNullForWindowStoreBuilder
  it('shouldThrowIfSupplierIsNullForWindowStoreBuilder', () =>
    expectArgError(() => Stores.windowStoreBuilder(null as unknown as WindowBytesStoreSupplier, Serdes.ByteArray(), Serdes.ByteArray()), 'supplier cannot be null'));
  // StoresTest.shouldThrowIfSupplierIsNullForSessionStoreBuilder
  it('shouldThrowIfSupplierIsNullForSessionStoreBuilder', () =>
    expectArgError(() => Stores.sessionStoreBuilder(null as unknown as SessionBytesStoreSupplier, Serdes.ByteArray(), Serdes.ByteArray()), 'supplier cannot be null'));
  // Stores.inMemoryWindowStore / persistentWindowStore: window size larger than retention (Kafka's message)
  it('refuses a window size larger than the retention period, naming both', () =>
    expectArgError(
      () => Stores.inMemoryWindowStore('w', 5, 10, false),
      'The retention period of the window store w must be no smaller than its window size. Got size=[10], retention=[5]',
    ));
  // StoresTest.shouldBuildWindowStore / shouldBuildTimestampedWindowStore / ...ThatWrapsWindowStore / ...ThatWrapsInMemoryWindowStore / shouldBuildSessionStore
  it('shouldBuildWindowStore, shouldBuildTimestampedWindowStore(s), shouldBuildSessionStore', () => {
    expect(Stores.windowStoreBuilder(Stores.persistentWindowStore('store', 3, 3, true), Serdes.String(), Serdes.String()).build()).toBeInstanceOf(TypedWindowStore);
    expect(
      Stores.timestampedWindowStoreBuilder(Stores.persistentTimestampedWindowStore('store', 3, 3, true), Serdes.String(), Serdes.String()).build(),
    ).toBeInstanceOf(TypedWindowStore);
    expect(Stores.timestampedWindowStoreBuilder(Stores.persistentWindowStore('store', 3, 3, true), Serdes.String(), Serdes.String()).build()).toBeInstanceOf(TypedWindowStore);
    const inMemory = Stores.timestampedWindowStoreBuilder(Stores.inMemoryWindowStore('store', 3, 3, true), Serdes.String(), Serdes.String())
      .withLoggingDisabled()
      .withCachingDisabled()
      .build();
    expect(inMemory.persistent).toBe(false);
    expect(Stores.sessionStoreBuilder(Stores.persistentSessionStore('name', 10), Serdes.String(), Serdes.String()).build()).toBeInstanceOf(TypedSessionStore);
  });
});
