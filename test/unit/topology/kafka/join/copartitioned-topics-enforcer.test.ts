/**
 * Port of Kafka's `CopartitionedTopicsEnforcerTest`
 * (streams/src/test/java/org/apache/kafka/streams/processor/internals/) against
 * `enforceCopartitioning`; inputs and expected counts are Kafka's. The cluster
 * of Kafka's `before()`: topics `first` and `second` with 2 partitions each.
 * A repartition topic "with enforced number of partitions" is one with a
 * fixed count (`Repartitioned.withNumberOfPartitions`); the others carry the
 * count sized so far. Kafka's messages are kept (after its "Invalid topology:
 * thread " prefix); every error has code TOPICS_NOT_COPARTITIONED.
 */
import { describe, expect, it } from 'vitest';
import { TopologyError } from '../../../../../src/index.js';
import { enforceCopartitioning, TOPICS_NOT_COPARTITIONED } from '../../../../../src/topology/internal/copartition.js';

interface RepartitionTopicConfig {
  name: string;
  /** Sized so far (Kafka's `setNumberOfPartitions`). */
  partitions: number;
  enforced: boolean;
}
const createTopicConfig = (name: string, partitions: number): RepartitionTopicConfig => ({ name, partitions, enforced: false });
const createRepartitionTopicConfigWithEnforcedNumberOfPartitions = (name: string, partitions: number): RepartitionTopicConfig => ({ name, partitions, enforced: true });

/** Kafka's `validator.enforce(group, repartitionTopicConfigs, cluster)`: the counts the repartition topics end with. */
function enforce(group: string[], configs: RepartitionTopicConfig[], cluster: Record<string, number>): Map<string, number> {
  const internal = new Map(configs.map((c) => [c.name, c.enforced ? c.partitions : undefined]));
  const sized = new Map(configs.map((c) => [c.name, c.partitions]));
  const result = enforceCopartitioning([group], { internal, countOf: (t) => cluster[t] ?? sized.get(t) });
  return new Map([...sized, ...result]);
}

function thrown(fn: () => unknown): TopologyError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(TopologyError);
    return error as TopologyError;
  }
  throw new Error('expected a TopologyError');
}

const cluster = { first: 2, second: 2 };

describe('CopartitionedTopicsEnforcerTest', () => {
  // CopartitionedTopicsEnforcerTest.shouldThrowTopologyBuilderExceptionIfNoPartitionsFoundForCoPartitionedTopic
  it('shouldThrowTopologyBuilderExceptionIfNoPartitionsFoundForCoPartitionedTopic', () => {
    expect(thrown(() => enforce(['topic'], [], {})).message).toMatch(/Co-partitioned topic 'topic' not found/);
  });

  // CopartitionedTopicsEnforcerTest.shouldThrowTopologyBuilderExceptionIfPartitionCountsForCoPartitionedTopicsDontMatch
  it('shouldThrowTopologyBuilderExceptionIfPartitionCountsForCoPartitionedTopicsDontMatch', () => {
    // partitions.remove(second-0): `second` has 1 partition
    const error = thrown(() => enforce(['first', 'second'], [], { first: 2, second: 1 }));
    expect(error.code).toBe(TOPICS_NOT_COPARTITIONED);
    expect(error.message).toMatch(/^Topics not co-partitioned: \[first \(2 partitions\), second \(1 partition\)\]/);
  });

  // CopartitionedTopicsEnforcerTest.shouldEnforceCopartitioningOnRepartitionTopics
  it('shouldEnforceCopartitioningOnRepartitionTopics', () => {
    const config = createTopicConfig('repartitioned', 10);
    expect(enforce(['first', 'second', config.name], [config], cluster).get(config.name)).toBe(2);
  });

  // CopartitionedTopicsEnforcerTest.shouldSetNumPartitionsToMaximumPartitionsWhenAllTopicsAreRepartitionTopics
  it('shouldSetNumPartitionsToMaximumPartitionsWhenAllTopicsAreRepartitionTopics', () => {
    const one = createTopicConfig('one', 1);
    const two = createTopicConfig('two', 15);
    const three = createTopicConfig('three', 5);
    const counts = enforce([one.name, two.name, three.name], [one, two, three], {});
    expect([counts.get('one'), counts.get('two'), counts.get('three')]).toEqual([15, 15, 15]);
  });

  // CopartitionedTopicsEnforcerTest.shouldThrowAnExceptionIfRepartitionTopicConfigsWithEnforcedNumOfPartitionsHaveDifferentNumOfPartitions
  it('shouldThrowAnExceptionIfRepartitionTopicConfigsWithEnforcedNumOfPartitionsHaveDifferentNumOfPartitions', () => {
    const topic1 = createRepartitionTopicConfigWithEnforcedNumberOfPartitions('repartitioned-1', 10);
    const topic2 = createRepartitionTopicConfigWithEnforcedNumberOfPartitions('repartitioned-2', 5);
    const error = thrown(() => enforce([topic1.name, topic2.name], [topic1, topic2], cluster));
    expect(error.message).toContain('Following topics do not have the same number of partitions: [{repartitioned-1=10, repartitioned-2=5}]');
    expect(error.code).toBe(TOPICS_NOT_COPARTITIONED);
  });

  // CopartitionedTopicsEnforcerTest.shouldNotThrowAnExceptionWhenRepartitionTopicConfigsWithEnforcedNumOfPartitionsAreValid
  it('shouldNotThrowAnExceptionWhenRepartitionTopicConfigsWithEnforcedNumOfPartitionsAreValid', () => {
    const topic1 = createRepartitionTopicConfigWithEnforcedNumberOfPartitions('repartitioned-1', 10);
    const topic2 = createRepartitionTopicConfigWithEnforcedNumberOfPartitions('repartitioned-2', 10);
    const counts = enforce([topic1.name, topic2.name], [topic1, topic2], cluster);
    expect([counts.get(topic1.name), counts.get(topic2.name)]).toEqual([10, 10]);
  });

  // CopartitionedTopicsEnforcerTest.shouldThrowAnExceptionWhenNumberOfPartitionsOfNonRepartitionTopicAndRepartitionTopicWithEnforcedNumOfPartitionsDoNotMatch
  it('shouldThrowAnExceptionWhenNumberOfPartitionsOfNonRepartitionTopicAndRepartitionTopicWithEnforcedNumOfPartitionsDoNotMatch', () => {
    const topic1 = createRepartitionTopicConfigWithEnforcedNumberOfPartitions('repartitioned-1', 10);
    const error = thrown(() => enforce([topic1.name, 'second'], [topic1], cluster));
    expect(error.message).toContain("Number of partitions [10] of repartition topic [repartitioned-1] doesn't match number of partitions [2] of the source topic.");
    expect(error.code).toBe(TOPICS_NOT_COPARTITIONED);
  });

  // CopartitionedTopicsEnforcerTest.shouldNotThrowAnExceptionWhenNumberOfPartitionsOfNonRepartitionTopicAndRepartitionTopicWithEnforcedNumOfPartitionsMatch
  it('shouldNotThrowAnExceptionWhenNumberOfPartitionsOfNonRepartitionTopicAndRepartitionTopicWithEnforcedNumOfPartitionsMatch', () => {
    const topic1 = createRepartitionTopicConfigWithEnforcedNumberOfPartitions('repartitioned-1', 2);
    expect(enforce([topic1.name, 'second'], [topic1], cluster).get(topic1.name)).toBe(2);
  });

  // CopartitionedTopicsEnforcerTest.shouldDeductNumberOfPartitionsFromRepartitionTopicWithEnforcedNumberOfPartitions
  it('shouldDeductNumberOfPartitionsFromRepartitionTopicWithEnforcedNumberOfPartitions', () => {
    const topic1 = createRepartitionTopicConfigWithEnforcedNumberOfPartitions('repartitioned-1', 2);
    const topic2 = createTopicConfig('repartitioned-2', 5);
    const topic3 = createRepartitionTopicConfigWithEnforcedNumberOfPartitions('repartitioned-3', 2);
    const counts = enforce([topic1.name, topic2.name], [topic1, topic2, topic3], cluster);
    expect(counts.get(topic1.name)).toBe(counts.get(topic2.name));
    expect(counts.get(topic2.name)).toBe(counts.get(topic3.name));
  });
});
