/**
 * The co-partitioning rule of joins (Kafka's `CopartitionedTopicsEnforcer`):
 * the topics of one co-partition group must have the same partition count,
 * so that partition p of each holds the same keys. External topics must
 * already agree; internal (repartition) topics are sized to match.
 */
import { TopologyError } from '../../errors.js';

/** The error code of a co-partition group whose topics differ in partition count. */
export const TOPICS_NOT_COPARTITIONED = 'TOPICS_NOT_COPARTITIONED';

/** One topic of a group and its count, for the message. */
interface Counted {
  topic: string;
  partitions: number;
}

/** The TopologyError naming every topic of the group and its count, and the fix. */
export function notCopartitioned(topics: readonly Counted[]): TopologyError {
  const list = topics.map((t) => `${t.topic} (${t.partitions} partition${t.partitions === 1 ? '' : 's'})`).join(', ');
  const target = topics[topics.length - 1]?.partitions ?? 1;
  return new TopologyError(
    `Topics not co-partitioned: [${list}]; a join needs the same number of partitions on both sides: ` +
      `re-create one topic with the other's count, or repartition one side (repartition({ numberOfPartitions: ${target} }))`,
    { code: TOPICS_NOT_COPARTITIONED },
  );
}

/** What {@link enforceCopartitioning} reads. */
export interface CopartitionCounts {
  /** Internal topics, each with its fixed count (`Repartitioned.withNumberOfPartitions`) or undefined. */
  internal: ReadonlyMap<string, number | undefined>;
  /** The count of a topic: external ones as described, internal ones as sized so far. */
  countOf(topic: string): number | undefined;
}

/**
 * The count each internal topic of `groups` must have, as Kafka's `enforce`, per group:
 * 1. split the group into internal and external topics (an external one without a count: a TopologyError);
 * 2. the group's count: the external topics' common count (differing: {@link TOPICS_NOT_COPARTITIONED});
 *    with internal topics only, the common fixed count of the fixed ones (differing: Kafka's "Following
 *    topics do not have the same number of partitions"), else the maximum of their counts;
 * 3. each internal topic without a fixed count gets it; a fixed one that differs is Kafka's "Number of
 *    partitions [n] of repartition topic [t] doesn't match" (all three with code TOPICS_NOT_COPARTITIONED).
 */
export function enforceCopartitioning(groups: readonly string[][], counts: CopartitionCounts): Map<string, number> {
  const sized = new Map<string, number>();
  for (const group of groups) {
    // 1. split
    const internal = group.filter((t) => counts.internal.has(t));
    const external: Counted[] = group
      .filter((t) => !counts.internal.has(t))
      .map((topic) => {
        const partitions = counts.countOf(topic);
        if (partitions === undefined) throw new TopologyError(`Co-partitioned topic '${topic}' not found; create it before starting the application`);
        return { topic, partitions };
      });
    const fixed: Counted[] = internal.flatMap((topic) => {
      const partitions = counts.internal.get(topic);
      return partitions === undefined ? [] : [{ topic, partitions }];
    });
    // 2. the group's count
    let count: number;
    if (external.length > 0) {
      count = sameCount(external);
    } else if (fixed.length > 0) {
      count = sameFixedCount(fixed);
    } else {
      count = Math.max(0, ...internal.map((t) => counts.countOf(t) ?? 0));
      if (count <= 0) throw new TopologyError(`Could not validate the co-partitioning of topics [${group.join(', ')}]: no partition count is known`);
    }
    // 3. internal topics
    for (const topic of internal) {
      const own = counts.internal.get(topic);
      if (own !== undefined && own !== count) {
        throw new TopologyError(
          `Number of partitions [${own}] of repartition topic [${topic}] doesn't match number of partitions [${count}] of the source topic. ` +
            `Fix the partition count given to repartition() for it (Repartitioned.withNumberOfPartitions(${count})) or re-create the topics it is joined with`,
          { code: TOPICS_NOT_COPARTITIONED },
        );
      }
      sized.set(topic, count);
    }
  }
  return sized;
}

/** Kafka's message for fixed repartition topics of one group that differ (a sorted `{topic=count}` map). */
function sameFixedCount(topics: readonly Counted[]): number {
  const first = topics[0]?.partitions ?? 0;
  if (topics.some((t) => t.partitions !== first)) {
    const sorted = [...topics].sort((a, b) => (a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : 0)).map((t) => `${t.topic}=${t.partitions}`);
    throw new TopologyError(
      `Following topics do not have the same number of partitions: [{${sorted.join(', ')}}]. ` +
        'They are joined, so give their repartition() calls the same numberOfPartitions',
      { code: TOPICS_NOT_COPARTITIONED },
    );
  }
  return first;
}

function sameCount(topics: readonly Counted[]): number {
  const first = topics[0]?.partitions ?? 0;
  if (topics.some((t) => t.partitions !== first)) throw notCopartitioned(topics);
  return first;
}

/**
 * The start-time check against the actual counts (internal topics exist by
 * then): every topic of a group with a known count has the same one.
 * Topics without a count are left to the missing-topic checks.
 */
export function checkCopartitioned(groups: readonly string[][], partitionCounts: ReadonlyMap<string, number>): void {
  for (const group of groups) {
    const counted = group.flatMap((topic) => {
      const partitions = partitionCounts.get(topic);
      return partitions === undefined ? [] : [{ topic, partitions }];
    });
    if (new Set(counted.map((c) => c.partitions)).size > 1) throw notCopartitioned(counted);
  }
}
