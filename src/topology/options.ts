/**
 * Option objects of the DSL, with Kafka Streams-style helpers.
 */
import type { VersionedBytesStoreSupplier } from '../state/versioned/versioned-store-builder.js';
import type { StreamPartitioner } from '../processors/processor.js';
import type { Serde } from '../serdes/serde.js';
import type { KeyValueBytesStoreSupplier } from '../state/bytes-store-contract.js';
import type { SessionBytesStoreSupplier } from '../state/session-store.js';
import type { WindowBytesStoreSupplier } from '../state/window-store.js';
import { dslStoreSuppliersOfType, isDslStoreSuppliers, type DslStoreSuppliers, type DslStoreType } from '../state/dsl-store-suppliers.js';
import { resolveTimestampExtractor, type TimestampExtractor } from '../processors/timestamp-extractors.js';
import { IllegalArgumentError } from '../errors.js';
import { requireFunction, requireNonNull, validateName } from './internal/checks.js';
import { fluent, serdeSetters, withChanges, type SerdeOf } from './internal/fluent.js';
import type { Unset } from './unset.js';

export type { Unset } from './unset.js';

/** `K` once known: the type a setter fixes on a side that was {@link Unset}, else the side's type. */
type Fix<K, K2> = [K] extends [Unset] ? K2 : K;

/** The partitioner field of a fluent option: typed once both sides are known. */
type PartitionerOf<K, V> = [K] extends [Unset] ? never : [V] extends [Unset] ? never : StreamPartitioner<K, V>;

/** A processor name chosen by the user instead of a generated one. */
export interface Named {
  readonly name: string;
}

/** Helpers for {@link Named}. */
export const Named = {
  /** `{ name }`; throws at once when `name` is not 1-249 of `[a-zA-Z0-9._-]` (Kafka's `Named.validate`). */
  as(name: string): Named {
    return { name: validateName(requireNonNull(name, 'name')) };
  },
};

/** How a stream is read: serdes (default: the builder's, else `Serdes.Buffer()`) and source node name. */
export interface Consumed<K, V> {
  keySerde?: Serde<K>;
  valueSerde?: Serde<V>;
  /** The source node name instead of `KSTREAM-SOURCE-<n>`. */
  name?: string;
  /** The source's timestamp extractor (Kafka's `Consumed.withTimestampExtractor`); default: the app's `defaultTimestampExtractor`. */
  timestampExtractor?: TimestampExtractor;
}

/** A {@link Consumed} naming both serdes: the stream's types are theirs. */
export type ConsumedWithSerdes<K, V> = Consumed<K, V> & { keySerde: Serde<K>; valueSerde: Serde<V> };

/** A side's type for an extractor: `unknown` while the side is {@link Unset}. */
type Known<T> = [T] extends [Unset] ? unknown : T;

/** The serde fields of a {@link FluentConsumed}: present (and typed) once set. */
type ConsumedSerdes<K, V> = ([K] extends [Unset] ? { readonly keySerde?: undefined } : { readonly keySerde: Serde<K> }) &
  ([V] extends [Unset] ? { readonly valueSerde?: undefined } : { readonly valueSerde: Serde<V> });

/**
 * A {@link Consumed} built fluently, as Java's: `Consumed.with(k, v).withName('src')`.
 * Immutable (each setter returns a new one); reads as the plain `{ keySerde, valueSerde, name, timestampExtractor }`.
 */
export type FluentConsumed<K, V> = ConsumedSerdes<K, V> & {
  readonly name?: string;
  /** The same options reading keys with `keySerde`. */
  withKeySerde<K2>(keySerde: Serde<K2>): FluentConsumed<K2, V>;
  /** The same options reading values with `valueSerde`. */
  withValueSerde<V2>(valueSerde: Serde<V2>): FluentConsumed<K, V2>;
  /** The same options naming the source node `name` (validated at once). */
  withName(name: string): FluentConsumed<K, V>;
  readonly timestampExtractor?: TimestampExtractor;
  /** The same options reading the record timestamps with `extractor` (checked at once). */
  withTimestampExtractor(extractor: TimestampExtractor<Known<K>, Known<V>>): FluentConsumed<K, V>;
};

/** The setters of {@link FluentConsumed}. */
const consumedSetters = {
  ...serdeSetters,
  withTimestampExtractor(this: object, extractor: TimestampExtractor) {
    resolveTimestampExtractor(requireNonNull(extractor, 'extractor'), 'Consumed.withTimestampExtractor(extractor)');
    return withChanges(this, { timestampExtractor: extractor });
  },
};

/** Helpers for {@link Consumed}. */
export const Consumed = {
  /** Reads with these serdes. */
  with<K, V>(keySerde: Serde<K>, valueSerde: Serde<V>): FluentConsumed<K, V> {
    return fluent(consumedSetters, { keySerde: requireNonNull(keySerde, 'keySerde'), valueSerde: requireNonNull(valueSerde, 'valueSerde') });
  },
  /** Names the source node (Java's `Consumed.as(processorName)`); serdes default as without options. */
  as(processorName: string): FluentConsumed<Unset, Unset> {
    return fluent(consumedSetters, { name: validateName(requireNonNull(processorName, 'processorName')) });
  },
  /** Reads the record timestamps with `extractor` (Java's `Consumed.with(TimestampExtractor)`); serdes default as without options. */
  withTimestampExtractor(extractor: TimestampExtractor): FluentConsumed<Unset, Unset> {
    return (fluent(consumedSetters, {}) as FluentConsumed<Unset, Unset>).withTimestampExtractor(extractor);
  },
};

/** How a stream is written: serdes (default: the stream's known serdes), partitioner, sink node name. */
export interface Produced<K, V> {
  keySerde?: Serde<K>;
  valueSerde?: Serde<V>;
  partitioner?: StreamPartitioner<K, V>;
  /** The sink node name instead of `KSTREAM-SINK-<n>`. */
  name?: string;
}

/**
 * A {@link Produced} built fluently, as Java's: `Produced.with(k, v).withStreamPartitioner(p)`.
 * Immutable; reads as the plain `{ keySerde, valueSerde, partitioner, name }`.
 * A side not set yet ({@link Unset}) fits a stream of any type there.
 */
export interface FluentProduced<K, V> {
  readonly keySerde?: SerdeOf<K>;
  readonly valueSerde?: SerdeOf<V>;
  readonly partitioner?: PartitionerOf<K, V>;
  readonly name?: string;
  /** The same options writing keys with `keySerde`. */
  withKeySerde<K2 = K>(keySerde: Serde<Fix<K, K2>>): FluentProduced<Fix<K, K2>, V>;
  /** The same options writing values with `valueSerde`. */
  withValueSerde<V2 = V>(valueSerde: Serde<Fix<V, V2>>): FluentProduced<K, Fix<V, V2>>;
  /** The same options choosing partitions with `partitioner` (`undefined` from it: the default, murmur2 of the key bytes). */
  withStreamPartitioner<K2 = K, V2 = V>(partitioner: StreamPartitioner<Fix<K, K2>, Fix<V, V2>>): FluentProduced<Fix<K, K2>, Fix<V, V2>>;
  /** The same options naming the sink node `name`. */
  withName(name: string): FluentProduced<K, V>;
}

const producedSetters = {
  ...serdeSetters,
  withStreamPartitioner(this: object, partitioner: StreamPartitioner) {
    return withChanges(this, { partitioner: requireFunction(partitioner, 'partitioner') });
  },
};

/** Helpers for {@link Produced}. */
export const Produced = {
  /** Writes with these serdes (and `partitioner`, when given). */
  with<K, V>(keySerde: Serde<K>, valueSerde: Serde<V>, partitioner?: StreamPartitioner<K, V>): FluentProduced<K, V> {
    return fluent(producedSetters, {
      keySerde: requireNonNull(keySerde, 'keySerde'),
      valueSerde: requireNonNull(valueSerde, 'valueSerde'),
      partitioner: partitioner === undefined ? undefined : requireFunction(partitioner, 'partitioner'),
    });
  },
  /** Names the sink node (Java's `Produced.as(processorName)`). */
  as(processorName: string): FluentProduced<Unset, Unset> {
    return fluent(producedSetters, { name: validateName(requireNonNull(processorName, 'processorName')) });
  },
  /** Writes keys with `keySerde`. */
  keySerde<K>(keySerde: Serde<K>): FluentProduced<K, Unset> {
    return fluent(producedSetters, { keySerde: requireNonNull(keySerde, 'keySerde') });
  },
  /** Writes values with `valueSerde`. */
  valueSerde<V>(valueSerde: Serde<V>): FluentProduced<Unset, V> {
    return fluent(producedSetters, { valueSerde: requireNonNull(valueSerde, 'valueSerde') });
  },
  /** Chooses partitions with `partitioner`. */
  streamPartitioner<K, V>(partitioner: StreamPartitioner<K, V>): FluentProduced<K, V> {
    return fluent(producedSetters, { partitioner: requireFunction(partitioner, 'partitioner') });
  },
};

/**
 * How a stream is grouped: serdes of the grouping (and of its repartition
 * topic, when one is needed) and the name of the repartition topic
 * (`<applicationId>-<name>-repartition`) and of its nodes.
 */
export interface Grouped<K, V> {
  keySerde?: Serde<K>;
  valueSerde?: Serde<V>;
  /** Names the repartition topic `<name>-repartition` (default: after the state store). */
  name?: string;
}

/**
 * A {@link Grouped} built fluently, as Java's: `Grouped.as('g').withKeySerde(k)`.
 * Immutable; reads as the plain `{ keySerde, valueSerde, name }`.
 */
export interface FluentGrouped<K, V> {
  readonly keySerde?: SerdeOf<K>;
  readonly valueSerde?: SerdeOf<V>;
  readonly name?: string;
  /** The same grouping with keys (and repartitioned keys) in `keySerde`. */
  withKeySerde<K2 = K>(keySerde: Serde<Fix<K, K2>>): FluentGrouped<Fix<K, K2>, V>;
  /** The same grouping with values in `valueSerde`. */
  withValueSerde<V2 = V>(valueSerde: Serde<Fix<V, V2>>): FluentGrouped<K, Fix<V, V2>>;
  /** The same grouping named `name` (its repartition topic `<name>-repartition`). */
  withName(name: string): FluentGrouped<K, V>;
}

/** Helpers for {@link Grouped}. */
export const Grouped = {
  /** Names the grouping (and its repartition topic `<name>-repartition`); fits a `Grouped` of any types. */
  as(name: string): FluentGrouped<Unset, Unset> {
    return fluent(serdeSetters, { name: validateName(requireNonNull(name, 'name')) });
  },
  /** Groups with these serdes. */
  with<K, V>(keySerde: Serde<K>, valueSerde: Serde<V>): FluentGrouped<K, V> {
    return fluent(serdeSetters, { keySerde: requireNonNull(keySerde, 'keySerde'), valueSerde: requireNonNull(valueSerde, 'valueSerde') });
  },
  /** Groups with keys in `keySerde`. */
  keySerde<K>(keySerde: Serde<K>): FluentGrouped<K, Unset> {
    return fluent(serdeSetters, { keySerde: requireNonNull(keySerde, 'keySerde') });
  },
  /** Groups with values in `valueSerde`. */
  valueSerde<V>(valueSerde: Serde<V>): FluentGrouped<Unset, V> {
    return fluent(serdeSetters, { valueSerde: requireNonNull(valueSerde, 'valueSerde') });
  },
};

/** The store suppliers `Materialized` takes (Kafka's `KeyValueBytesStoreSupplier`, `VersionedBytesStoreSupplier`, `WindowBytesStoreSupplier`, `SessionBytesStoreSupplier`). */
export type MaterializedStoreSupplier = KeyValueBytesStoreSupplier | VersionedBytesStoreSupplier | WindowBytesStoreSupplier | SessionBytesStoreSupplier;

/**
 * Where an aggregation keeps its state: store name (default generated) and
 * serdes of the stored bytes (default: the stream's serdes, else `Serdes.Json()`).
 */
export interface Materialized<K, V> {
  storeName?: string;
  keySerde?: Serde<K>;
  valueSerde?: Serde<V>;
  /**
   * The store type: `Materialized.as(Stores.inMemoryKeyValueStore('s'))`; default a persistent store, as Kafka.
   * Windowed aggregations take a window store supplier, session-windowed ones a session store supplier.
   */
  storeSupplier?: MaterializedStoreSupplier;
  /**
   * The engine of this store when no `storeSupplier` is given (Kafka's
   * `Materialized.withStoreType` / `Materialized.as(DslStoreSuppliers)`);
   * default the app's `dslStoreSuppliers` config, else lmdb.
   */
  dslStoreSuppliers?: DslStoreSuppliers;
  /** Default true: the store is changelogged. */
  loggingEnabled?: boolean;
  /** Extra changelog topic configs. */
  logConfig?: Record<string, string>;
  /** Default true for DSL stores, as Kafka: the record cache sits in front of the store. */
  cachingEnabled?: boolean;
  /** Retention of window/session stores (ms). */
  retentionMs?: number;
}

/**
 * A {@link Materialized} built fluently, as Java's:
 * `Materialized.as('s').withKeySerde(k).withValueSerde(v).withLoggingDisabled()`.
 * Immutable; reads as the plain `Materialized` fields.
 */
export interface FluentMaterialized<K, V> {
  readonly storeName?: string;
  readonly keySerde?: SerdeOf<K>;
  readonly valueSerde?: SerdeOf<V>;
  readonly storeSupplier?: MaterializedStoreSupplier;
  readonly dslStoreSuppliers?: DslStoreSuppliers;
  readonly loggingEnabled?: boolean;
  readonly logConfig?: Record<string, string>;
  readonly cachingEnabled?: boolean;
  readonly retentionMs?: number;
  /** The same store with keys in `keySerde`. */
  withKeySerde<K2 = K>(keySerde: Serde<Fix<K, K2>>): FluentMaterialized<Fix<K, K2>, V>;
  /** The same store with values in `valueSerde`. */
  withValueSerde<V2 = V>(valueSerde: Serde<Fix<V, V2>>): FluentMaterialized<K, Fix<V, V2>>;
  /** Changelogged (the default), with these extra changelog topic configs. */
  withLoggingEnabled(config?: Record<string, string>): FluentMaterialized<K, V>;
  /** Not changelogged (the store is not restored after a move or restart); drops the changelog configs, as Java. */
  withLoggingDisabled(): FluentMaterialized<K, V>;
  /** With the record cache in front of the store (the DSL default). */
  withCachingEnabled(): FluentMaterialized<K, V>;
  /** Without the record cache: every update is forwarded. */
  withCachingDisabled(): FluentMaterialized<K, V>;
  /** Retention of window/session stores, in ms; a negative one throws "Retention must not be negative." (Java's message). */
  withRetention(retentionMs: number): FluentMaterialized<K, V>;
  /** The engine of this store: `'in_memory'`, or `'rocks_db'` / `'lmdb'` (both lmdb); Kafka's `withStoreType`. */
  withStoreType(storeType: DslStoreType): FluentMaterialized<K, V>;
}

const materializedSetters = {
  withKeySerde: serdeSetters.withKeySerde,
  withValueSerde: serdeSetters.withValueSerde,
  withLoggingEnabled(this: object, config: Record<string, string> = {}) {
    if (typeof config !== 'object' || config === null) throw new IllegalArgumentError("config can't be null");
    return withChanges(this, { loggingEnabled: true, logConfig: { ...config } });
  },
  withLoggingDisabled(this: object) {
    return withChanges(this, { loggingEnabled: false, logConfig: undefined });
  },
  withCachingEnabled(this: object) {
    return withChanges(this, { cachingEnabled: true });
  },
  withCachingDisabled(this: object) {
    return withChanges(this, { cachingEnabled: false });
  },
  withRetention(this: object, retentionMs: number) {
    if (typeof retentionMs !== 'number' || Number.isNaN(retentionMs)) throw new IllegalArgumentError(`retention must be a number of ms; got ${String(retentionMs)}`);
    if (retentionMs < 0) throw new IllegalArgumentError('Retention must not be negative.');
    return withChanges(this, { retentionMs });
  },
  withStoreType(this: object, storeType: DslStoreType) {
    return withChanges(this, { dslStoreSuppliers: dslStoreSuppliersOfType(requireNonNull(storeType, 'storeType'), 'Materialized.withStoreType') });
  },
};

/** Helpers for {@link Materialized}. */
export const Materialized = {
  /**
   * A store named `storeName` (validated at once as Kafka's `Named.validate`),
   * or the store `supplier` gives (`Materialized.as(Stores.inMemoryKeyValueStore('s'))`,
   * named after it), or a generated name on the engine of `suppliers`
   * (`Materialized.as(new BuiltInDslStoreSuppliers.InMemoryDslStoreSuppliers())`).
   */
  as<K = Unset, V = Unset>(storeNameOrSupplier: string | MaterializedStoreSupplier | DslStoreSuppliers): FluentMaterialized<K, V> {
    if (typeof storeNameOrSupplier === 'string') return fluent(materializedSetters, { storeName: validateName(storeNameOrSupplier) });
    if (isDslStoreSuppliers(storeNameOrSupplier)) return fluent(materializedSetters, { dslStoreSuppliers: storeNameOrSupplier });
    const supplier = requireNonNull(storeNameOrSupplier, 'supplier');
    if (typeof supplier !== 'object' || typeof supplier.name !== 'string') {
      throw new IllegalArgumentError('Materialized.as needs a store name or a store supplier (e.g. Stores.inMemoryKeyValueStore(name), Stores.inMemoryWindowStore(...))');
    }
    return fluent(materializedSetters, { storeName: validateName(supplier.name), storeSupplier: supplier });
  },
  /** Default store name, these serdes. */
  with<K, V>(keySerde: Serde<K>, valueSerde: Serde<V>): FluentMaterialized<K, V> {
    return fluent(materializedSetters, { keySerde: requireNonNull(keySerde, 'keySerde'), valueSerde: requireNonNull(valueSerde, 'valueSerde') });
  },
};
