/**
 * The input side of a task: which source node reads a record's topic, its
 * deserialization (a failure goes to the deserialization handler) and its
 * timestamp (./timestamp-extraction.ts), as Kafka's `RecordQueue` does
 * before a record reaches its source node.
 */
import { IllegalStateError, bypassesRecordHandlers } from '../../errors.js';
import type { ConsumedRecord } from '../../records/types.js';
import { checkedDeserialize } from '../../serdes/checked-serde.js';
import type { SourceNodeDef } from '../plan.js';
import { Record } from '../record.js';
import type { ResolvedExtractor } from '../timestamp-extractors.js';
import type { TaskNode } from './task-graph.js';
import type { TaskHandling } from './task-handling.js';
import { TimestampExtraction } from './timestamp-extraction.js';

/** A record ready for its source node, or why it is skipped. */
export type SourceInputResult =
  | { source: TaskNode; record: Record<unknown, unknown> }
  /** The deserialization handler answered CONTINUE (it has done its part). */
  | { skipped: 'deserialization' }
  /** The extracted timestamp is negative: the task drops the record (logged and counted as an operator's drop). */
  | { skipped: 'timestamp'; source: TaskNode; reason: string };

/** The sources of one task. */
export class SourceInput {
  readonly time: TimestampExtraction;

  constructor(
    private readonly label: string,
    private readonly ordered: readonly TaskNode[],
    private readonly sourceByTopic: Map<string, TaskNode>,
    private readonly handling: TaskHandling,
    defaultExtractor?: ResolvedExtractor,
  ) {
    this.time = new TimestampExtraction(defaultExtractor);
  }

  /**
   * Prepares `raw` for its source:
   * 1. find the source of its topic (a pattern source matching it, cached);
   * 2. deserialize key and value (a failure goes to the deserialization handler);
   * 3. extract its timestamp (a negative one: skipped);
   * 4. the record to forward, stamped with that timestamp; the task's current
   *    record takes it too (sinks and stores see the extracted time, as in Kafka).
   */
  read(raw: ConsumedRecord): SourceInputResult {
    // 1.
    const source = this.sourceByTopic.get(raw.topic) ?? this.patternSource(raw.topic);
    if (source === undefined) {
      throw new IllegalStateError(
        `Task ${this.label} has no source for topic '${raw.topic}'; its topics are [${[...this.sourceByTopic.keys()].join(', ')}]`,
      );
    }
    const def = source.def as SourceNodeDef;
    // 2.
    let key: unknown;
    let value: unknown;
    try {
      key = checkedDeserialize(def.keyDeserializer, raw.topic, raw.key, raw.headers, 'KEY');
      value = checkedDeserialize(def.valueDeserializer, raw.topic, raw.value, raw.headers, 'VALUE');
    } catch (error) {
      if (bypassesRecordHandlers(error)) throw error; // retriable: the task retries the record, no handler drops it
      this.handling.onDeserializationError(def.name, raw, error);
      return { skipped: 'deserialization' };
    }
    // 3.
    const stamp = this.time.stamp(def, raw, key, value);
    if ('skip' in stamp) return { skipped: 'timestamp', source, reason: stamp.skip };
    // 4.
    source.processed++;
    this.handling.current = { ...this.handling.current, timestamp: stamp.timestamp };
    return { source, record: new Record(key, value, stamp.timestamp, raw.headers) };
  }

  /**
   * The I/O the sources' deserializers need before `records` can be read
   * synchronously (`Deserializer.resolve`: a Schema Registry serde fetching
   * unknown schema ids): a promise only when there is some, else undefined.
   * No cost for sources whose deserializers have no `resolve`.
   */
  resolve(records: readonly ConsumedRecord[]): Promise<void> | undefined {
    let waits: Array<Promise<void>> | undefined;
    for (const raw of records) {
      const source = this.sourceByTopic.get(raw.topic) ?? this.patternSource(raw.topic);
      if (source === undefined) continue;
      const { keyDeserializer: k, valueDeserializer: v } = source.def as SourceNodeDef;
      if (k.resolve === undefined && v.resolve === undefined) continue;
      const key = k.resolve?.(raw.topic, raw.key, raw.headers);
      const value = v.resolve?.(raw.topic, raw.value, raw.headers);
      if (key !== undefined) (waits ??= []).push(key);
      if (value !== undefined) (waits ??= []).push(value);
    }
    return waits === undefined ? undefined : Promise.all(waits).then(() => undefined);
  }

  /** The pattern source whose pattern matches `topic` (a topic first met after the plan was built: the test driver), cached. */
  private patternSource(topic: string): TaskNode | undefined {
    const node = this.ordered.find((n) => n.def.kind === 'source' && n.def.pattern?.test(topic) === true);
    if (node !== undefined) this.sourceByTopic.set(topic, node);
    return node;
  }
}
