/**
 * Option objects of the DSL, with Kafka Streams-style helpers.
 */
import type { StreamPartitioner } from '../processors/processor.js';
import type { Serde } from '../serdes/serde.js';
import type { KeyValueBytesStoreSupplier } from '../processors/state/bytes-store-contract.js';
import { requireNonNull, validateName } from './internal/checks.js';

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
}

/** A {@link Consumed} naming both serdes: the stream's types are theirs. */
export type ConsumedWithSerdes<K, V> = Consumed<K, V> & { keySerde: Serde<K>; valueSerde: Serde<V> };

/** Helpers for {@link Consumed}. */
export const Consumed = {
  /** Reads with these serdes. */
  with<K, V>(keySerde: Serde<K>, valueSerde: Serde<V>): ConsumedWithSerdes<K, V> {
    return { keySerde, valueSerde };
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

/** Helpers for {@link Produced}. */
export const Produced = {
  /** Writes with these serdes. */
  with<K, V>(keySerde: Serde<K>, valueSerde: Serde<V>): Produced<K, V> {
    return { keySerde, valueSerde };
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

/** Helpers for {@link Grouped}. */
export const Grouped = {
  /** Names the grouping (and its repartition topic `<name>-repartition`); fits a `Grouped` of any types. */
  as(name: string): { readonly name: string } {
    return { name: validateName(requireNonNull(name, 'name')) };
  },
  /** Groups with these serdes. */
  with<K, V>(keySerde: Serde<K>, valueSerde: Serde<V>): Grouped<K, V> {
    return { keySerde, valueSerde };
  },
};

/**
 * Where an aggregation keeps its state: store name (default generated) and
 * serdes of the stored bytes (default: the stream's serdes, else `Serdes.Json()`).
 */
export interface Materialized<K, V> {
  storeName?: string;
  keySerde?: Serde<K>;
  valueSerde?: Serde<V>;
  /** The store type: `Materialized.as(Stores.inMemoryKeyValueStore('s'))`; default a persistent store, as Kafka. */
  storeSupplier?: KeyValueBytesStoreSupplier;
  /** Default true: the store is changelogged. */
  loggingEnabled?: boolean;
  /** Extra changelog topic configs. */
  logConfig?: Record<string, string>;
  /** Default true for DSL stores, as Kafka: the record cache sits in front of the store. */
  cachingEnabled?: boolean;
  /** Retention of window/session stores (ms). */
  retentionMs?: number;
}

/** Helpers for {@link Materialized}. */
export const Materialized = {
  /** A store named `storeName` (validated at once as Kafka's `Named.validate`). */
  as<K, V>(storeName: string): Materialized<K, V> {
    return { storeName: validateName(requireNonNull(storeName, 'storeName')) };
  },
  /** Default store name, these serdes. */
  with<K, V>(keySerde: Serde<K>, valueSerde: Serde<V>): Materialized<K, V> {
    return { keySerde, valueSerde };
  },
};
