/**
 * Output records of a task: what a sink node hands to the collector, and
 * dead-letter records of a handler answer.
 */
import { TopologyError } from '../../errors.js';
import type { DeadLetterRecord } from '../../handlers/types.js';
import type { Serializer } from '../../serdes/serde.js';
import { checkedSerializer } from '../../serdes/checked-serde.js';
import type { RecordContext } from '../processor.js';
import type { Record } from '../record.js';
import type { SinkNodeDef } from '../plan.js';
import type { OutputRecord, RecordCollector } from '../task-contract.js';

const RAW = { serialize: (_topic: string, data: Buffer | null) => data } as Serializer<unknown>;

/**
 * The output records of sink `def` for `record`: the topic (fixed or from the
 * extractor) and the partitions (from the sink's partitioner, when the
 * collector knows the partition count): one record, one per partition of a
 * multicast (KIP-837), none when the partitioner chose an empty set. Throws
 * what user code throws, and a TopologyError for a partition out of range.
 * The serializers are wrapped in `checkedSerializer`, so every collector (the
 * runtime's and the test driver's) gets a Buffer or null from them, or a
 * SerializationError naming the serde and the topic.
 */
export function sinkOutputs(
  def: SinkNodeDef,
  record: Record<unknown, unknown>,
  context: RecordContext,
  collector: RecordCollector,
): OutputRecord[] {
  const topic = typeof def.topic === 'string' ? def.topic : def.topic(record.key, record.value, context);
  if (typeof topic !== 'string' || topic === '') {
    throw new TopologyError(`Sink '${def.name}': the topic name extractor returned ${JSON.stringify(topic)}; it must return a topic name`);
  }
  const output = (partition: number | undefined): OutputRecord => ({
    topic,
    key: record.key,
    value: record.value,
    keySerializer: checkedSerializer(def.keySerializer, 'KEY'),
    valueSerializer: checkedSerializer(def.valueSerializer, 'VALUE'),
    headers: { ...record.headers },
    timestamp: record.timestamp,
    ...(partition === undefined ? {} : { partition }),
  });
  const partitions = def.partitioner ? collector.partitionsFor?.(topic) : undefined;
  if (def.partitioner === undefined || partitions === undefined) return [output(undefined)];
  const chosen = def.partitioner(topic, record.key, record.value, partitions);
  if (chosen === undefined || typeof chosen === 'number') return [output(chosen)];
  if (!Array.isArray(chosen)) {
    throw new TopologyError(`Sink '${def.name}': the stream partitioner returned ${String(chosen)}; return a partition number, an array of them (multicast), or undefined`);
  }
  const unique = [...new Set(chosen as readonly number[])];
  const bad = unique.find((p) => !Number.isInteger(p) || p < 0 || p >= partitions);
  if (bad !== undefined) {
    throw new TopologyError(`Sink '${def.name}': the stream partitioner chose partition ${String(bad)} of topic '${topic}', which has partitions 0..${partitions - 1}`);
  }
  return unique.map((p) => output(p));
}

/** A dead-letter record of handler `slot` as an output record (bytes pass through unchanged). */
export function deadLetterOutput(dl: DeadLetterRecord, timestamp: number, slot: NonNullable<OutputRecord['deadLetterOf']>): OutputRecord {
  return {
    deadLetterOf: slot,
    topic: dl.topic,
    key: dl.key,
    value: dl.value,
    keySerializer: RAW,
    valueSerializer: RAW,
    headers: dl.headers ?? {},
    timestamp: dl.timestamp ?? timestamp,
  };
}
