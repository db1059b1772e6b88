/**
 * The one topic-partition key of sluice: `<topic>-<partition>`, Kafka's
 * `TopicPartition.toString()`. Used as a map key and in logs and error
 * messages alike. It is unambiguous: a partition has no `-`, so the last `-`
 * separates the two (`my-topic-3` is partition 3 of `my-topic`).
 */
import type { TopicPartition } from './types.js';

/** `orders-3` for partition 3 of `orders`. Accepts any object with `topic` and `partition` (extra fields ignored). */
export function topicPartitionKey(tp: TopicPartition): string {
  return `${tp.topic}-${tp.partition}`;
}

/** The inverse of {@link topicPartitionKey}. */
export function parseTopicPartitionKey(key: string): TopicPartition {
  const at = key.lastIndexOf('-');
  const partition = Number(key.slice(at + 1));
  if (at <= 0 || !Number.isInteger(partition) || partition < 0) {
    throw new TypeError(`'${key}' is not a topic-partition key (<topic>-<partition>)`);
  }
  return { topic: key.slice(0, at), partition };
}
