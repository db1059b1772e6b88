/**
 * The parameters of Kafka's `KStreamSlidingWindowAggregateTest` (its
 * `data()`: emit strategy x in-order iterator x cache) and its helpers
 * `setupWindowBytesStoreSupplier` / `setupMaterialized`, plus one variant
 * Kafka does not have: `onWindowUpdate` over a persistent (lmdb) window
 * store, so the algorithm runs on both store engines in both emit modes
 * (Kafka's `onWindowClose` cases use the default persistent store).
 */
import { EmitStrategy, Stores, type EmitStrategyType, type FluentMaterialized, type WindowBytesStoreSupplier } from '../../../src/index.js';
import type { WindowBytesEntry, WindowBytesStore } from '../../../src/state/window-store.js';

/** One parameter set. */
export interface SlidingVariant {
  readonly type: EmitStrategyType;
  readonly inOrderIterator: boolean;
  readonly withCache: boolean;
  /** sluice only: the `onWindowUpdate` store supplier is a persistent one. */
  readonly persistent: boolean;
}

/** Kafka's `data()`, then the two persistent-store variants. */
export const SLIDING_VARIANTS: SlidingVariant[] = [
  { type: 'ON_WINDOW_UPDATE', inOrderIterator: true, withCache: true, persistent: false },
  { type: 'ON_WINDOW_UPDATE', inOrderIterator: true, withCache: false, persistent: false },
  { type: 'ON_WINDOW_UPDATE', inOrderIterator: false, withCache: true, persistent: false },
  { type: 'ON_WINDOW_UPDATE', inOrderIterator: false, withCache: false, persistent: false },
  { type: 'ON_WINDOW_CLOSE', inOrderIterator: true, withCache: true, persistent: false },
  { type: 'ON_WINDOW_CLOSE', inOrderIterator: true, withCache: false, persistent: false },
  { type: 'ON_WINDOW_CLOSE', inOrderIterator: false, withCache: true, persistent: false },
  { type: 'ON_WINDOW_CLOSE', inOrderIterator: false, withCache: false, persistent: false },
  { type: 'ON_WINDOW_UPDATE', inOrderIterator: false, withCache: true, persistent: true },
  { type: 'ON_WINDOW_UPDATE', inOrderIterator: false, withCache: false, persistent: true },
];

/** Kafka's `InOrderMemoryWindowStore`: an in-memory window store whose backward fetches throw. */
export function inOrderMemoryWindowStoreSupplier(name: string, retentionPeriod: number, windowSize: number, retainDuplicates: boolean): WindowBytesStoreSupplier {
  const base = Stores.inMemoryWindowStore(name, retentionPeriod, windowSize, retainDuplicates);
  return {
    ...base,
    get(): WindowBytesStore {
      const store = base.get();
      const unsupported = (): never => {
        throw new Error('Backward fetch not supported here');
      };
      const fetchKey = store.fetchKey.bind(store);
      const fetchKeyRange = store.fetchKeyRange.bind(store);
      const fetchAll = store.fetchAll.bind(store);
      store.fetchKey = (key, from, to, forward): WindowBytesEntry[] => (forward ? fetchKey(key, from, to, true) : unsupported());
      store.fetchKeyRange = (kf, kt, from, to, forward): WindowBytesEntry[] => (forward ? fetchKeyRange(kf, kt, from, to, true) : unsupported());
      store.fetchAll = (from, to, forward): WindowBytesEntry[] => (forward ? fetchAll(from, to, true) : unsupported());
      return store;
    },
  };
}

/** The variant's emit strategy and Kafka's two helpers. */
export function slidingSetup(variant: SlidingVariant): {
  emitFinal: boolean;
  emitStrategy: EmitStrategy;
  setupWindowBytesStoreSupplier(index: number): WindowBytesStoreSupplier;
  setupMaterialized<K, V>(materialized: FluentMaterialized<K, V>): FluentMaterialized<K, V>;
} {
  const emitFinal = variant.type === 'ON_WINDOW_CLOSE';
  return {
    emitFinal,
    emitStrategy: emitFinal ? EmitStrategy.onWindowClose() : EmitStrategy.onWindowUpdate(),
    setupWindowBytesStoreSupplier(index) {
      if (variant.persistent) return Stores.persistentTimestampedWindowStore(`Persistent${index}`, 50000, 10, false);
      return variant.inOrderIterator ? inOrderMemoryWindowStoreSupplier(`InOrder${index}`, 50000, 10, false) : Stores.inMemoryWindowStore(`Reverse${index}`, 50000, 10, false);
    },
    setupMaterialized(materialized) {
      if (!emitFinal) return materialized;
      return variant.withCache ? materialized.withCachingEnabled() : materialized.withCachingDisabled();
    },
  };
}
