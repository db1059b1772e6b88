/**
 * Serdes of a stream–table join (Kafka's `Joined`): the key, the stream's
 * value and the table's value serde (used when the stream is repartitioned),
 * and the name of the join's processor and repartition topic.
 * TODO(issue 16, stream-table joins).
 */
import type { Serde } from '../serdes/serde.js';

/** See the file comment. */
export interface Joined<K, V, VO> {
  readonly keySerde?: Serde<K>;
  readonly valueSerde?: Serde<V>;
  readonly otherValueSerde?: Serde<VO>;
  readonly name?: string;
  /** Grace of a versioned table join (not supported: tables here keep one version). */
  readonly gracePeriodMs?: number;
}

/** Helpers for {@link Joined}. */
export const Joined = {
  with<K, V, VO>(keySerde: Serde<K>, valueSerde: Serde<V>, otherValueSerde: Serde<VO>): Joined<K, V, VO> {
    return { keySerde, valueSerde, otherValueSerde };
  },
  as<K, V, VO>(name: string): Joined<K, V, VO> {
    return { name };
  },
};
