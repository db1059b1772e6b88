/**
 * Serdes, names and stores of a stream–stream join (Kafka's `StreamJoined`),
 * built fluently as Java's:
 * `StreamJoined.with(k, v, ov).withName('orders-payments').withStoreName('op').withLoggingDisabled()`.
 * Immutable; reads as the plain fields.
 *
 * - `name` names the join's processors (`<name>-this-windowed`, `<name>-this-join`,
 *   `<name>-merge`, ...) and its repartition topics (`<name>-left-repartition`);
 * - `storeName` names its stores (`<storeName>-this-join-store`, ...) and so
 *   their changelogs; without it the stores are named after the processors
 *   (`KSTREAM-JOINTHIS-<n>-store`);
 * - store suppliers must retain duplicates and have `windowSize = before + after`
 *   and `retentionPeriod = windowSize + grace` (checked when the join is built).
 */
import { IllegalArgumentError } from '../errors.js';
import type { WindowBytesStoreSupplier } from '../state/window-store.js';
import type { Serde } from '../serdes/serde.js';
import { requireNonNull, validateName } from './internal/checks.js';
import { fluent, serdeSetters, withChanges } from './internal/fluent.js';

/** See the file comment. */
export interface StreamJoined<K, V, VO> {
  readonly keySerde?: Serde<K>;
  readonly valueSerde?: Serde<V>;
  readonly otherValueSerde?: Serde<VO>;
  readonly thisStoreSupplier?: WindowBytesStoreSupplier;
  readonly otherStoreSupplier?: WindowBytesStoreSupplier;
  /** Base name of the join's processors. */
  readonly name?: string;
  /** Base name of the join's stores and their changelogs. */
  readonly storeName?: string;
  readonly loggingEnabled?: boolean;
  readonly logConfig?: Record<string, string>;
}

/** A {@link StreamJoined} with Java's fluent setters; each returns a new object. */
export interface FluentStreamJoined<K, V, VO> extends StreamJoined<K, V, VO> {
  /** Names the join's processors and repartition topics. */
  withName(name: string): FluentStreamJoined<K, V, VO>;
  /** Names the join's stores (and changelogs): `<storeName>-this-join-store`, `<storeName>-other-join-store`. */
  withStoreName(storeName: string): FluentStreamJoined<K, V, VO>;
  withKeySerde(keySerde: Serde<K>): FluentStreamJoined<K, V, VO>;
  withValueSerde(valueSerde: Serde<V>): FluentStreamJoined<K, V, VO>;
  withOtherValueSerde(otherValueSerde: Serde<VO>): FluentStreamJoined<K, V, VO>;
  /** The window store of this stream's records. */
  withThisStoreSupplier(supplier: WindowBytesStoreSupplier): FluentStreamJoined<K, V, VO>;
  /** The window store of the other stream's records. */
  withOtherStoreSupplier(supplier: WindowBytesStoreSupplier): FluentStreamJoined<K, V, VO>;
  /** Changelogged stores (the default), with these extra changelog topic configs. */
  withLoggingEnabled(config?: Record<string, string>): FluentStreamJoined<K, V, VO>;
  /** Stores without changelogs (not restored after a move or restart). */
  withLoggingDisabled(): FluentStreamJoined<K, V, VO>;
}

function requireSupplier(supplier: unknown, argument: string): WindowBytesStoreSupplier {
  requireNonNull(supplier, argument);
  const s = supplier as Partial<WindowBytesStoreSupplier>;
  if (typeof s !== 'object' || typeof s.get !== 'function' || typeof s.retainDuplicates !== 'boolean') {
    throw new IllegalArgumentError(`${argument} must be a WindowBytesStoreSupplier, e.g. Stores.inMemoryWindowStore(name, retentionMs, windowSizeMs, true)`);
  }
  return s as WindowBytesStoreSupplier;
}

const streamJoinedSetters = {
  withName: serdeSetters.withName,
  withKeySerde: serdeSetters.withKeySerde,
  withValueSerde: serdeSetters.withValueSerde,
  withStoreName(this: object, storeName: string) {
    return withChanges(this, { storeName: validateName(requireNonNull(storeName, 'storeName')) });
  },
  withOtherValueSerde(this: object, otherValueSerde: Serde<unknown>) {
    return withChanges(this, { otherValueSerde: requireNonNull(otherValueSerde, 'otherValueSerde') });
  },
  withThisStoreSupplier(this: object, supplier: WindowBytesStoreSupplier) {
    return withChanges(this, { thisStoreSupplier: requireSupplier(supplier, 'thisStoreSupplier') });
  },
  withOtherStoreSupplier(this: object, supplier: WindowBytesStoreSupplier) {
    return withChanges(this, { otherStoreSupplier: requireSupplier(supplier, 'otherStoreSupplier') });
  },
  withLoggingEnabled(this: object, config: Record<string, string> = {}) {
    if (typeof config !== 'object' || config === null) throw new IllegalArgumentError("config can't be null");
    return withChanges(this, { loggingEnabled: true, logConfig: { ...config } });
  },
  withLoggingDisabled(this: object) {
    return withChanges(this, { loggingEnabled: false, logConfig: undefined });
  },
};

function isSupplier(value: unknown): value is WindowBytesStoreSupplier {
  return typeof value === 'object' && value !== null && typeof (value as { get?: unknown }).get === 'function' && 'retainDuplicates' in value;
}

/** These serdes (of the key, this stream's values, the other stream's values). */
function streamJoinedWith<K, V, VO>(keySerde: Serde<K>, valueSerde: Serde<V>, otherValueSerde: Serde<VO>): FluentStreamJoined<K, V, VO>;
/** These window stores (this stream's, the other stream's). */
function streamJoinedWith<K, V, VO>(thisStoreSupplier: WindowBytesStoreSupplier, otherStoreSupplier: WindowBytesStoreSupplier): FluentStreamJoined<K, V, VO>;
function streamJoinedWith<K, V, VO>(...args: unknown[]): FluentStreamJoined<K, V, VO> {
  if (args.length === 2 || isSupplier(args[0])) {
    return fluent(streamJoinedSetters, {
      thisStoreSupplier: requireSupplier(args[0], 'thisStoreSupplier'),
      otherStoreSupplier: requireSupplier(args[1], 'otherStoreSupplier'),
    });
  }
  const [keySerde, valueSerde, otherValueSerde] = args as [Serde<K>?, Serde<V>?, Serde<VO>?];
  return fluent(streamJoinedSetters, { keySerde: keySerde ?? undefined, valueSerde: valueSerde ?? undefined, otherValueSerde: otherValueSerde ?? undefined });
}

/** Helpers for {@link StreamJoined}. */
export const StreamJoined = {
  with: streamJoinedWith,
  /** Stores named after `storeName` (validated as Kafka's `Named.validate`). */
  as<K = unknown, V = unknown, VO = unknown>(storeName: string): FluentStreamJoined<K, V, VO> {
    return fluent(streamJoinedSetters, { storeName: validateName(requireNonNull(storeName, 'storeName')) });
  },
};
