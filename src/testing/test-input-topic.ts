/**
 * TestInputTopic: pipes records into a TopologyTestDriver.
 */
import type { Headers } from '../records/types.js';
import type { KeyValue } from '../records/key-value.js';
import type { Serializer } from '../serdes/serde.js';
import { checkedSerialize } from '../serdes/checked-serde.js';
import { headersError, timestampError } from '../records/record-checks.js';
import { IllegalArgumentError } from '../errors.js';

/** A record to pipe: every field but `value` is optional. */
export interface TestRecordInput<K, V> {
  key?: K | null;
  value: V | null;
  timestamp?: number;
  headers?: Headers;
}

/** What an input topic needs from its driver. */
export interface InputSink {
  pipe(topic: string, key: Buffer | null, value: Buffer | null, headers: Headers, timestamp: number): void;
}

/** Options of an input topic. */
export interface TestInputTopicOptions {
  /** Timestamp of the first record piped without one (default: the driver's wall-clock time). */
  startTimestampMs?: number;
  /** Added to the topic's time after each record piped without a timestamp (default 0). */
  autoAdvanceMs?: number;
}

/**
 * An input topic of a {@link TopologyTestDriver}: each `pipe*` call
 * serializes, then processes the records synchronously through the topology.
 * What Kafka could never deliver is refused at once: a fractional or negative
 * timestamp (InvalidTimestampError), a header value that is neither a string
 * nor a Buffer (InvalidRecordError), serializer output that is not a Buffer or
 * null (SerializationError).
 */
export class TestInputTopic<K, V> {
  private currentTimeMs: number;
  private readonly autoAdvanceMs: number;

  /** @internal Use `driver.createInputTopic()`. */
  constructor(
    private readonly sink: InputSink,
    /** The topic name. */
    readonly topic: string,
    private readonly keySerializer: Serializer<K>,
    private readonly valueSerializer: Serializer<V>,
    startTimestampMs: number,
    options: TestInputTopicOptions = {},
  ) {
    this.currentTimeMs = options.startTimestampMs ?? startTimestampMs;
    this.autoAdvanceMs = options.autoAdvanceMs ?? 0;
    // Kafka's TestInputTopic: "autoAdvance must be positive" (zero allowed)
    if (!(this.autoAdvanceMs >= 0)) throw new IllegalArgumentError(`autoAdvance must be positive: autoAdvanceMs of topic '${topic}' is ${this.autoAdvanceMs}; give 0 or more`);
  }

  /** Pipes one record; without `timestamp` the topic's current time is used (then auto-advanced). */
  pipeInput(key: K | null, value: V | null, timestamp?: number, headers: Headers = {}): void {
    this.pipeRecord({ key, value, headers, ...(timestamp === undefined ? {} : { timestamp }) });
  }

  /** Pipes one record with a null key. */
  pipeValue(value: V | null, timestamp?: number): void {
    this.pipeInput(null, value, timestamp);
  }

  /** Pipes one record given as an object. */
  pipeRecord(record: TestRecordInput<K, V>): void {
    let timestamp = record.timestamp;
    if (timestamp === undefined) {
      timestamp = this.currentTimeMs;
      this.currentTimeMs += this.autoAdvanceMs;
    }
    const headers = record.headers ?? {};
    // A record read from Kafka always has a whole, non-negative timestamp and string/Buffer headers.
    const invalid = timestampError(timestamp, this.topic) ?? headersError(headers, this.topic);
    if (invalid !== null) throw invalid;
    const key = checkedSerialize(this.keySerializer, this.topic, record.key ?? null, headers, 'KEY');
    const value = checkedSerialize(this.valueSerializer, this.topic, record.value, headers, 'VALUE');
    this.sink.pipe(this.topic, key, value, headers, timestamp);
  }

  /** Pipes records in order. */
  pipeRecordList(records: Iterable<TestRecordInput<K, V>>): void {
    for (const record of records) this.pipeRecord(record);
  }

  /**
   * Pipes key-value pairs in order: at the topic's current time, or (Kafka's
   * overload) the first at `startTimestampMs` and each next one `advanceMs`
   * later, leaving the topic's current time as it is.
   */
  pipeKeyValueList(pairs: Iterable<KeyValue<K | null, V | null>>, startTimestampMs?: number, advanceMs = 0): void {
    let recordTime = startTimestampMs;
    for (const { key, value } of pairs) {
      this.pipeInput(key, value, recordTime);
      if (recordTime !== undefined) recordTime += advanceMs;
    }
  }

  /** Pipes values with null keys, in order; with `startTimestampMs` and `advanceMs` as {@link pipeKeyValueList}. */
  pipeValueList(values: Iterable<V | null>, startTimestampMs?: number, advanceMs = 0): void {
    let recordTime = startTimestampMs;
    for (const value of values) {
      this.pipeValue(value, recordTime);
      if (recordTime !== undefined) recordTime += advanceMs;
    }
  }

  /** Moves the topic's current time forward by `ms`; a negative `ms` is an IllegalArgumentError (as Kafka's). */
  advanceTime(ms: number): void {
    if (!(ms >= 0)) throw new IllegalArgumentError(`advance must be positive: advanceTime(${ms}) on topic '${this.topic}'; give 0 or more`);
    this.currentTimeMs += ms;
  }
}
