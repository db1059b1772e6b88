/**
 * Serdes of a stream–table join (Kafka's `Joined`): the key, the stream's
 * value and the table's value serde (the first two write the repartition
 * topic when the stream's key changed before the join), and the name of the
 * join's processor and repartition topic. Built fluently, as Java's:
 * `Joined.with(k, v, vo).withName('enrich')`; immutable, reads as the plain
 * fields.
 */
import { IllegalArgumentError } from '../errors.js';
import type { Serde } from '../serdes/serde.js';
import { requireNonNull, validateName } from './internal/checks.js';
import { fluent, serdeSetters, withChanges, type SerdeOf } from './internal/fluent.js';
import type { Unset } from './unset.js';

/** See the file comment. */
export interface Joined<K, V, VO> {
  readonly keySerde?: Serde<K>;
  readonly valueSerde?: Serde<V>;
  readonly otherValueSerde?: Serde<VO>;
  /** Names the join processor and its repartition topic `<name>-repartition`. */
  readonly name?: string;
  /**
   * Grace period in ms of a join with a versioned table (KIP-923, Kafka
   * 3.6+): each stream record waits in the join's buffer (store
   * `<join name>-Buffer`, changelogged) until the stream time passed its
   * timestamp plus the grace, then joins the table as of its timestamp, so
   * table updates arriving up to the grace late are seen. Set (0 too), the
   * table must be versioned with a history retention of at least the grace,
   * else the join is a TopologyError.
   */
  readonly gracePeriodMs?: number;
}

/** `K` once known: the type a setter fixes on a side that was {@link Unset}, else the side's type. */
type Fix<K, K2> = [K] extends [Unset] ? K2 : K;

/** A {@link Joined} built fluently; a side not set yet ({@link Unset}) fits a join of any type there. */
export interface FluentJoined<K, V, VO> {
  readonly keySerde?: SerdeOf<K>;
  readonly valueSerde?: SerdeOf<V>;
  readonly otherValueSerde?: SerdeOf<VO>;
  readonly name?: string;
  readonly gracePeriodMs?: number;
  /** The same options with keys in `keySerde`. */
  withKeySerde<K2 = K>(keySerde: Serde<Fix<K, K2>>): FluentJoined<Fix<K, K2>, V, VO>;
  /** The same options with the stream's values in `valueSerde`. */
  withValueSerde<V2 = V>(valueSerde: Serde<Fix<V, V2>>): FluentJoined<K, Fix<V, V2>, VO>;
  /** The same options with the table's values in `otherValueSerde`. */
  withOtherValueSerde<VO2 = VO>(otherValueSerde: Serde<Fix<VO, VO2>>): FluentJoined<K, V, Fix<VO, VO2>>;
  /** The same options naming the join `name` (validated at once). */
  withName(name: string): FluentJoined<K, V, VO>;
  /** The same options with a grace period in ms (see {@link Joined.gracePeriodMs}: the table must be versioned). */
  withGracePeriod(gracePeriodMs: number): FluentJoined<K, V, VO>;
}

/** Throws unless `ms` is a non-negative finite number; returns it. */
function checkGrace(ms: unknown): number {
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) {
    throw new IllegalArgumentError(`gracePeriod must be a non-negative number of ms; got ${String(ms)}`);
  }
  return ms;
}

const setters = {
  ...serdeSetters,
  withOtherValueSerde(this: object, otherValueSerde: Serde<unknown>) {
    return withChanges(this, { otherValueSerde: requireNonNull(otherValueSerde, 'otherValueSerde') });
  },
  withGracePeriod(this: object, gracePeriodMs: number) {
    return withChanges(this, { gracePeriodMs: checkGrace(gracePeriodMs) });
  },
};

/** A serde given as `null`/`undefined` to `Joined.with` means "the default", as Java's `Joined.with(null, null, null)`. */
function optional<T>(serde: Serde<T> | null | undefined): Serde<T> | undefined {
  return serde ?? undefined;
}

/** Helpers for {@link Joined}. */
export const Joined = {
  /**
   * With these serdes (a null one: the stream's, else the defaults), and
   * optionally a name and a grace period (Java's `with(k, v, vo, name, grace)`).
   */
  with<K, V, VO>(
    keySerde: Serde<K> | null | undefined,
    valueSerde: Serde<V> | null | undefined,
    otherValueSerde: Serde<VO> | null | undefined,
    name?: string,
    gracePeriodMs?: number,
  ): FluentJoined<K, V, VO> {
    return fluent(setters, {
      keySerde: optional(keySerde),
      valueSerde: optional(valueSerde),
      otherValueSerde: optional(otherValueSerde),
      name: name === undefined || name === null ? undefined : validateName(name),
      gracePeriodMs: gracePeriodMs === undefined || gracePeriodMs === null ? undefined : checkGrace(gracePeriodMs),
    });
  },
  /** Names the join and its repartition topic (validated at once as Kafka's `Named.validate`). */
  as<K = Unset, V = Unset, VO = Unset>(name: string): FluentJoined<K, V, VO> {
    return fluent(setters, { name: validateName(requireNonNull(name, 'name')) });
  },
  /** With keys in `keySerde`. */
  keySerde<K>(keySerde: Serde<K>): FluentJoined<K, Unset, Unset> {
    return fluent(setters, { keySerde: requireNonNull(keySerde, 'keySerde') });
  },
  /** With the stream's values in `valueSerde`. */
  valueSerde<V>(valueSerde: Serde<V>): FluentJoined<Unset, V, Unset> {
    return fluent(setters, { valueSerde: requireNonNull(valueSerde, 'valueSerde') });
  },
  /** With the table's values in `otherValueSerde`. */
  otherValueSerde<VO>(otherValueSerde: Serde<VO>): FluentJoined<Unset, Unset, VO> {
    return fluent(setters, { otherValueSerde: requireNonNull(otherValueSerde, 'otherValueSerde') });
  },
};
