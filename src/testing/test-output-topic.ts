/**
 * TestOutputTopic: reads what a TopologyTestDriver's sinks wrote.
 */
import type { Headers } from '../records/types.js';
import { IllegalStateError, StreamsError } from '../errors.js';
import type { KeyValue } from '../records/key-value.js';
import type { Deserializer } from '../serdes/serde.js';
import { checkedDeserialize } from '../serdes/checked-serde.js';
import type { CapturedRecord } from './internal/driver-collector.js';

/** A record read from an output topic. */
export interface TestRecord<K, V> {
  topic: string;
  partition: number;
  key: K | null;
  value: V | null;
  headers: Headers;
  timestamp: number;
}

/**
 * An output topic of a {@link TopologyTestDriver}. Reading consumes: records
 * are returned once, in the order the sinks wrote them.
 */
export class TestOutputTopic<K, V> {
  /** @internal Use `driver.createOutputTopic()`. */
  constructor(
    private readonly queue: CapturedRecord[],
    /** The topic name. */
    readonly topic: string,
    private readonly keyDeserializer: Deserializer<K>,
    private readonly valueDeserializer: Deserializer<V>,
    /** Throws when the driver still has async work in flight (the topic's contents are not final yet). */
    private readonly requireSettled: (op: string) => void = () => undefined,
  ) {}

  /** Reads the next record; throws when the topic is empty. */
  readRecord(): TestRecord<K, V> {
    this.requireSettled(`read output topic '${this.topic}'`);
    const raw = this.queue.shift();
    if (raw === undefined) {
      throw new StreamsError(`Output topic '${this.topic}' is empty; check isEmpty() before reading`, { code: 'EMPTY_TOPIC', kind: 'usage' });
    }
    return {
      topic: raw.topic,
      partition: raw.partition,
      key: checkedDeserialize(this.keyDeserializer, raw.topic, raw.key, raw.headers, 'KEY'),
      value: checkedDeserialize(this.valueDeserializer, raw.topic, raw.value, raw.headers, 'VALUE'),
      headers: raw.headers,
      timestamp: raw.timestamp,
    };
  }

  /** Reads the next key and value. */
  readKeyValue(): KeyValue<K | null, V | null> {
    const { key, value } = this.readRecord();
    return { key, value };
  }

  /** Reads the next value. */
  readValue(): V | null {
    return this.readRecord().value;
  }

  /** Reads every remaining record. */
  readRecordsToList(): TestRecord<K, V>[] {
    const out: TestRecord<K, V>[] = [];
    while (!this.isEmpty()) out.push(this.readRecord());
    return out;
  }

  /** Reads every remaining key and value. */
  readKeyValuesToList(): KeyValue<K | null, V | null>[] {
    return this.readRecordsToList().map(({ key, value }) => ({ key, value }));
  }

  /** Reads every remaining value. */
  readValuesToList(): Array<V | null> {
    return this.readRecordsToList().map((r) => r.value);
  }

  /**
   * Reads every remaining record into a map: the last value per key wins, a
   * tombstone is kept as `key -> null` (as Kafka's). A record with a null key
   * is an IllegalStateError (Kafka's message), thrown before anything is read.
   */
  readKeyValuesToMap(): Map<K, V | null> {
    this.requireSettled(`read output topic '${this.topic}'`);
    if (this.queue.some((raw) => raw.key === null)) {
      throw new IllegalStateError(`Null keys not allowed with readKeyValuesToMap method (output topic '${this.topic}'); read it with readKeyValuesToList()`);
    }
    const map = new Map<K, V | null>();
    for (const { key, value } of this.readRecordsToList()) {
      if (key === null) throw new IllegalStateError(`Null keys not allowed with readKeyValuesToMap method (output topic '${this.topic}'); read it with readKeyValuesToList()`);
      map.set(key, value);
    }
    return map;
  }

  /** True when nothing is left to read. */
  isEmpty(): boolean {
    this.requireSettled(`read output topic '${this.topic}'`);
    return this.queue.length === 0;
  }

  /** The number of records left to read. */
  getQueueSize(): number {
    this.requireSettled(`read output topic '${this.topic}'`);
    return this.queue.length;
  }
}
