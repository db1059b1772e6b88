/**
 * The window and session members of `Stores` (Kafka's `Stores.*WindowStore`,
 * `*SessionStore` and their builders), with Kafka's argument checks and
 * messages. Spread into `Stores` by `stores.ts`.
 *
 * Times are milliseconds (Kafka takes `Duration`s). The segment interval
 * (how much stream time passes between two purges of expired entries) is
 * Kafka's default `max(retentionPeriod / 2, 60 s)`.
 */
import { IllegalArgumentError } from '../errors.js';
import type { Serde } from '../serdes/serde.js';
import { inMemoryWindowEngine, persistentWindowEngine } from './internal/window-engines.js';
import { EngineSessionBytesStore } from './session-bytes-store.js';
import type { SessionBytesStoreSupplier } from './session-store.js';
import { EngineWindowBytesStore } from './window-bytes-store.js';
import { SessionStoreBuilder, TimestampedWindowStoreBuilder, WindowStoreBuilder } from './window-store-builders.js';
import type { BytesEngineFactory, WindowBytesStoreSupplier } from './window-store.js';

function checkName(name: unknown): asserts name is string {
  if (name === null || name === undefined) throw new IllegalArgumentError('name cannot be null');
  if (typeof name !== 'string' || name === '') throw new IllegalArgumentError(`The store name must be a non-empty string; got ${JSON.stringify(name)}`);
}

function checkMillis(value: unknown, what: string): asserts value is number {
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw new IllegalArgumentError(`${what} must be an integer number of milliseconds; got ${String(value)}`);
  }
  if (value < 0) throw new IllegalArgumentError(`${what} cannot be negative`);
}

function segmentIntervalFor(retentionPeriod: number): number {
  return Math.max(Math.floor(retentionPeriod / 2), 60_000);
}

/** A window bytes store supplier over engines from `engine`. */
export function windowBytesStoreSupplier(
  name: string,
  retentionPeriod: number,
  windowSize: number,
  retainDuplicates: boolean,
  kind: 'in-memory' | 'persistent',
  engine: BytesEngineFactory,
  timestamped = false,
): WindowBytesStoreSupplier {
  checkName(name);
  checkMillis(retentionPeriod, 'retentionPeriod');
  checkMillis(windowSize, 'windowSize');
  if (windowSize > retentionPeriod) {
    throw new IllegalArgumentError(
      `The retention period of the window store ${name} must be no smaller than its window size. Got size=[${windowSize}], retention=[${retentionPeriod}]`,
    );
  }
  const segmentInterval = segmentIntervalFor(retentionPeriod);
  const options = { retentionPeriod, windowSize, retainDuplicates: retainDuplicates === true, segmentInterval };
  return { name, kind, timestamped, ...options, get: () => new EngineWindowBytesStore(name, engine(name), options) };
}

/** A session bytes store supplier over engines from `engine`. */
export function sessionBytesStoreSupplier(
  name: string,
  retentionPeriod: number,
  kind: 'in-memory' | 'persistent',
  engine: BytesEngineFactory,
): SessionBytesStoreSupplier {
  checkName(name);
  checkMillis(retentionPeriod, 'retentionPeriod');
  const options = { retentionPeriod, segmentInterval: segmentIntervalFor(retentionPeriod) };
  return { name, kind, ...options, get: () => new EngineSessionBytesStore(name, engine(name), options) };
}

/** The window and session store factories of `Stores`. */
export const WindowStores = {
  /** An in-memory window store supplier; `retentionPeriod >= windowSize`, both in ms. */
  inMemoryWindowStore(name: string, retentionPeriod: number, windowSize: number, retainDuplicates: boolean): WindowBytesStoreSupplier {
    return windowBytesStoreSupplier(name, retentionPeriod, windowSize, retainDuplicates, 'in-memory', inMemoryWindowEngine);
  },
  /** A persistent window store supplier; `retentionPeriod >= windowSize`, both in ms. */
  persistentWindowStore(name: string, retentionPeriod: number, windowSize: number, retainDuplicates: boolean): WindowBytesStoreSupplier {
    return windowBytesStoreSupplier(name, retentionPeriod, windowSize, retainDuplicates, 'persistent', persistentWindowEngine);
  },
  /** A persistent window store supplier for timestamped window stores. */
  persistentTimestampedWindowStore(name: string, retentionPeriod: number, windowSize: number, retainDuplicates: boolean): WindowBytesStoreSupplier {
    return windowBytesStoreSupplier(name, retentionPeriod, windowSize, retainDuplicates, 'persistent', persistentWindowEngine, true);
  },
  /** A builder of typed window stores. */
  windowStoreBuilder<K, V>(supplier: WindowBytesStoreSupplier, keySerde: Serde<K>, valueSerde: Serde<V>): WindowStoreBuilder<K, V> {
    return new WindowStoreBuilder(supplier, keySerde, valueSerde);
  },
  /** A builder of timestamped window stores (values `{ value, timestamp }`). */
  timestampedWindowStoreBuilder<K, V>(supplier: WindowBytesStoreSupplier, keySerde: Serde<K>, valueSerde: Serde<V>): TimestampedWindowStoreBuilder<K, V> {
    return new TimestampedWindowStoreBuilder(supplier, keySerde, valueSerde);
  },
  /** An in-memory session store supplier (retention in ms). */
  inMemorySessionStore(name: string, retentionPeriod: number): SessionBytesStoreSupplier {
    return sessionBytesStoreSupplier(name, retentionPeriod, 'in-memory', inMemoryWindowEngine);
  },
  /** A persistent session store supplier (retention in ms). */
  persistentSessionStore(name: string, retentionPeriod: number): SessionBytesStoreSupplier {
    return sessionBytesStoreSupplier(name, retentionPeriod, 'persistent', persistentWindowEngine);
  },
  /** A builder of typed session stores. */
  sessionStoreBuilder<K, AGG>(supplier: SessionBytesStoreSupplier, keySerde: Serde<K>, valueSerde: Serde<AGG>): SessionStoreBuilder<K, AGG> {
    return new SessionStoreBuilder(supplier, keySerde, valueSerde);
  },
};
