/**
 * The immutable record of the Processor API (Kafka Streams' `Record`).
 */
import type { Headers } from '../records/types.js';

/**
 * An immutable record flowing between processors: key, value, timestamp and
 * headers. The `with*` methods return a copy with one field changed.
 */
export class Record<K, V> {
  /** The record's headers (a frozen copy). */
  readonly headers: Readonly<Headers>;

  /**
   * @param key the key (may be `null`)
   * @param value the value (`null` is a tombstone)
   * @param timestamp ms since the epoch
   * @param headers optional headers, copied
   */
  constructor(
    readonly key: K,
    readonly value: V,
    readonly timestamp: number,
    headers: Headers = {},
  ) {
    if (!Number.isFinite(timestamp)) throw new TypeError(`Record timestamp must be a finite number, got ${timestamp}`);
    this.headers = Object.freeze({ ...headers });
    Object.freeze(this);
  }

  /** A copy with another key. */
  withKey<NK>(key: NK): Record<NK, V> {
    return new Record(key, this.value, this.timestamp, this.headers);
  }

  /** A copy with another value. */
  withValue<NV>(value: NV): Record<K, NV> {
    return new Record(this.key, value, this.timestamp, this.headers);
  }

  /** A copy with another timestamp. */
  withTimestamp(timestamp: number): Record<K, V> {
    return new Record(this.key, this.value, timestamp, this.headers);
  }

  /** A copy with other headers (replacing all of them). */
  withHeaders(headers: Headers): Record<K, V> {
    return new Record(this.key, this.value, this.timestamp, headers);
  }
}
