/**
 * Validation of `sendOffsetsToTransaction(offsets, groupId)` (issue 12, item 3).
 * Garbage offsets (-5, NaN, 1.5, 1e300) or unknown topics used to be committed
 * as they were, after which an app of that group skipped records or processed
 * nothing with lag 0.
 *
 * Steps (the code mirrors them):
 * 1. the group id is a non-empty string;
 * 2. `offsets` is an array of `{ topic, partition, offset }` objects, no
 *    topic-partition twice;
 * 3. every offset is a safe non-negative integer, every partition a
 *    non-negative integer;
 * 4. every topic is known to the cluster (metadata wait bounded by
 *    `maxBlockMs`) and every partition is below its partition count (read
 *    afresh before rejecting: partitions may have been added).
 *
 * A failure throws {@link IllegalArgumentError} (kind `usage`) before any
 * offset is sent: nothing is committed and the transaction stays usable.
 */
import type { TopicPartitionOffset } from '../../records/types.js';
import { IllegalArgumentError, UnknownTopicError } from '../../errors.js';
import { describeValue, topicNameProblem } from './record-checks.js';

/** What the checks need to know of a topic. */
export type PartitionCountLookup = (topic: string) => Promise<{ partitions: number }>;

const CALL = 'sendOffsetsToTransaction()';

function isNonNegativeSafeInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/** Throws {@link IllegalArgumentError} unless `offsets` and `groupId` may be committed; see the module comment. */
export async function checkTxnOffsets(
  offsets: unknown,
  groupId: unknown,
  lookup: PartitionCountLookup,
  /** Reads the topic's metadata afresh (partitions may have been added since it was cached). */
  lookupFresh: PartitionCountLookup = lookup,
): Promise<void> {
  // 1.
  if (typeof groupId !== 'string' || groupId.length === 0) {
    throw new IllegalArgumentError(`${CALL}: the group id must be a non-empty string (the consumer group's id), got ${describeValue(groupId)}`);
  }
  // 2.
  if (!Array.isArray(offsets)) {
    throw new IllegalArgumentError(`${CALL}: offsets must be an array of { topic, partition, offset }, got ${describeValue(offsets)}`);
  }
  const seen = new Set<string>();
  const byTopic = new Map<string, TopicPartitionOffset[]>();
  for (const [i, entry] of offsets.entries()) {
    const where = `${CALL}: offsets[${i}]`;
    if (entry === null || typeof entry !== 'object') {
      throw new IllegalArgumentError(`${where} must be an object { topic, partition, offset }, got ${describeValue(entry)}`);
    }
    const { topic, partition, offset } = entry as Record<string, unknown>;
    const topicProblem = topicNameProblem(topic);
    if (topicProblem) throw new IllegalArgumentError(`${where}: ${topicProblem}`);
    // 3.
    if (!isNonNegativeSafeInteger(partition)) {
      throw new IllegalArgumentError(`${where}: the partition of topic '${String(topic)}' must be a non-negative integer, got ${describeValue(partition)}`);
    }
    if (!isNonNegativeSafeInteger(offset)) {
      throw new IllegalArgumentError(
        `${where}: the offset of ${String(topic)}-${partition} must be a non-negative safe integer (the next offset to read), got ${describeValue(offset)}`,
      );
    }
    const id = `${String(topic)}-${partition}`;
    if (seen.has(id)) throw new IllegalArgumentError(`${where}: ${id} is listed twice; give one offset per topic-partition`);
    seen.add(id);
    const list = byTopic.get(topic as string) ?? [];
    list.push({ topic: topic as string, partition, offset });
    byTopic.set(topic as string, list);
  }
  // 4.
  for (const [topic, list] of byTopic) {
    let partitions: number;
    try {
      ({ partitions } = await lookup(topic));
    } catch (err) {
      if (err instanceof UnknownTopicError) {
        throw new IllegalArgumentError(`${CALL}: topic '${topic}' does not exist in the cluster; commit offsets of the topics the group consumes`, {
          cause: err,
        });
      }
      throw err;
    }
    if (list.some((o) => o.partition >= partitions)) ({ partitions } = await lookupFresh(topic));
    const bad = list.find((o) => o.partition >= partitions);
    if (bad) {
      throw new IllegalArgumentError(
        `${CALL}: partition ${bad.partition} of topic '${topic}' does not exist: the topic has ${partitions} partition(s) [0..${partitions - 1}]`,
      );
    }
  }
}
