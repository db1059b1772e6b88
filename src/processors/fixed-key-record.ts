/**
 * The record of a fixed-key processor (Kafka Streams' `FixedKeyRecord`,
 * KIP-820): its key is the input record's and cannot be changed.
 */
import type { Headers } from '../records/types.js';
import { Record } from './record.js';

/** Only this module builds FixedKeyRecords (Kafka's `InternalFixedKeyRecordFactory`). */
const CREATE = Symbol('FixedKeyRecord.create');

/**
 * An immutable record whose key is fixed: it is handed to a
 * `FixedKeyProcessor` and can only be forwarded as a copy with another
 * value, timestamp or headers (there is no `withKey`, and users cannot
 * build one), so what `processValues` forwards keeps the input's key and
 * the stream needs no repartitioning downstream.
 */
export class FixedKeyRecord<K, V> {
  readonly #record: Record<K, V>;

  /** @internal Not for users: FixedKeyRecords come from the input record (`processValues`). */
  constructor(token: typeof CREATE, record: Record<K, V>) {
    if (token !== CREATE) throw new TypeError('FixedKeyRecord cannot be created directly: forward record.withValue(...) of the record your FixedKeyProcessor received');
    this.#record = record;
    Object.freeze(this);
  }

  /** The key (may be `null`); the input record's. */
  get key(): K {
    return this.#record.key;
  }

  /** The value (`null` is a tombstone). */
  get value(): V {
    return this.#record.value;
  }

  /** ms since the epoch. */
  get timestamp(): number {
    return this.#record.timestamp;
  }

  /** The record's headers (a frozen copy). */
  get headers(): Readonly<Headers> {
    return this.#record.headers;
  }

  /** A copy with another value. */
  withValue<NV>(value: NV): FixedKeyRecord<K, NV> {
    return new FixedKeyRecord(CREATE, this.#record.withValue(value));
  }

  /** A copy with another timestamp. */
  withTimestamp(timestamp: number): FixedKeyRecord<K, V> {
    return new FixedKeyRecord(CREATE, this.#record.withTimestamp(timestamp));
  }

  /** A copy with other headers (replacing all of them). */
  withHeaders(headers: Headers): FixedKeyRecord<K, V> {
    return new FixedKeyRecord(CREATE, this.#record.withHeaders(headers));
  }

  /** @internal The plain record this one stands for (what the task forwards). */
  static toRecord<K, V>(record: FixedKeyRecord<K, V>): Record<K, V> {
    return record.#record;
  }

  /** @internal The fixed-key view of an input record (used by the `processValues` adapter only). */
  static fromRecord<K, V>(record: Record<K, V>): FixedKeyRecord<K, V> {
    return new FixedKeyRecord(CREATE, record);
  }
}
