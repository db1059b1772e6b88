/**
 * `Repartitioned`: the options of `KStream.repartition()`, with Java's fluent
 * helpers (`Repartitioned.as('r').withNumberOfPartitions(6)`).
 */
import { IllegalArgumentError } from '../errors.js';
import type { StreamPartitioner } from '../processors/processor.js';
import type { Serde } from '../serdes/serde.js';
import { requireFunction, requireNonNull, validateName } from './internal/checks.js';
import { fluent, serdeSetters, withChanges, type SerdeOf } from './internal/fluent.js';
import type { Unset } from './unset.js';

/**
 * How `repartition()` writes its topic `<applicationId>-<name>-repartition`:
 * serdes (default: the stream's, else the config's defaults), partition count
 * (default: the upstream sub-topology's), partitioner (default: murmur2 of
 * the key bytes), and the name (default `KSTREAM-REPARTITION-<n>`).
 */
export interface Repartitioned<K, V> {
  keySerde?: Serde<K>;
  valueSerde?: Serde<V>;
  /** Names the topic `<name>-repartition` and its nodes `<name>-repartition-sink/-filter/-source`. */
  name?: string;
  /** The repartition topic's partition count (a positive integer). */
  numberOfPartitions?: number;
  partitioner?: StreamPartitioner<K, V>;
}

/** `K` once known: the type a setter fixes on a side that was {@link Unset}, else the side's type. */
type Fix<K, K2> = [K] extends [Unset] ? K2 : K;

/** A {@link Repartitioned} built fluently; immutable, reads as the plain fields. */
export interface FluentRepartitioned<K, V> {
  readonly keySerde?: SerdeOf<K>;
  readonly valueSerde?: SerdeOf<V>;
  readonly name?: string;
  readonly numberOfPartitions?: number;
  readonly partitioner?: [K] extends [Unset] ? never : [V] extends [Unset] ? never : StreamPartitioner<K, V>;
  /** The same options with keys in `keySerde`. */
  withKeySerde<K2 = K>(keySerde: Serde<Fix<K, K2>>): FluentRepartitioned<Fix<K, K2>, V>;
  /** The same options with values in `valueSerde`. */
  withValueSerde<V2 = V>(valueSerde: Serde<Fix<V, V2>>): FluentRepartitioned<K, Fix<V, V2>>;
  /** The same options naming the topic `<name>-repartition`. */
  withName(name: string): FluentRepartitioned<K, V>;
  /** The same options with a topic of `numberOfPartitions` partitions. */
  withNumberOfPartitions(numberOfPartitions: number): FluentRepartitioned<K, V>;
  /** The same options choosing partitions with `partitioner`. */
  withStreamPartitioner<K2 = K, V2 = V>(partitioner: StreamPartitioner<Fix<K, K2>, Fix<V, V2>>): FluentRepartitioned<Fix<K, K2>, Fix<V, V2>>;
}

/** Throws unless `n` is a positive integer; returns it. */
export function checkNumberOfPartitions(n: unknown): number {
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1) {
    throw new IllegalArgumentError(`numberOfPartitions must be a positive integer; got ${String(n)}`);
  }
  return n;
}

const setters = {
  ...serdeSetters,
  withNumberOfPartitions(this: object, numberOfPartitions: number) {
    return withChanges(this, { numberOfPartitions: checkNumberOfPartitions(numberOfPartitions) });
  },
  withStreamPartitioner(this: object, partitioner: StreamPartitioner) {
    return withChanges(this, { partitioner: requireFunction(partitioner, 'partitioner') });
  },
};

/** Helpers for {@link Repartitioned}. */
export const Repartitioned = {
  /** Names the repartition topic `<name>-repartition` (validated at once as Kafka's `Named.validate`). */
  as<K = Unset, V = Unset>(name: string): FluentRepartitioned<K, V> {
    return fluent(setters, { name: validateName(requireNonNull(name, 'name')) });
  },
  /** Repartitions with these serdes. */
  with<K, V>(keySerde: Serde<K>, valueSerde: Serde<V>): FluentRepartitioned<K, V> {
    return fluent(setters, { keySerde: requireNonNull(keySerde, 'keySerde'), valueSerde: requireNonNull(valueSerde, 'valueSerde') });
  },
  /** Repartitions with `partitioner`. */
  streamPartitioner<K, V>(partitioner: StreamPartitioner<K, V>): FluentRepartitioned<K, V> {
    return fluent(setters, { partitioner: requireFunction(partitioner, 'partitioner') });
  },
  /** Repartitions into a topic of `numberOfPartitions` partitions. */
  numberOfPartitions<K = Unset, V = Unset>(numberOfPartitions: number): FluentRepartitioned<K, V> {
    return fluent(setters, { numberOfPartitions: checkNumberOfPartitions(numberOfPartitions) });
  },
};
