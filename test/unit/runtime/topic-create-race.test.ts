/**
 * Several instances starting at once race on creating the internal and
 * changelog topics: the loser's create answers TOPIC_ALREADY_EXISTS while the
 * winner's topic is not yet in the metadata it describes. The loser waits for
 * the metadata instead of failing with "exists with undefined partitions"
 * (seen with three instances starting together on real Kafka).
 */
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { AdminPort } from '../../../src/cluster/port.js';
import { KafkaErrorCode, KafkaProtocolError } from '../../../src/errors.js';
import { ensureInternalTopics } from '../../../src/runtime/internal/internal-topics.js';
import { partitionsOfExisting } from '../../../src/runtime/internal/topic-partitions.js';
import type { TopologyRuntime } from '../../../src/processors/task-contract.js';

/** An admin whose topic was created by someone else and shows in describeTopic only after `unknownFor` describes. */
function racingAdmin(partitions: number, unknownFor: number): AdminPort & { describes: number } {
  const admin = {
    describes: 0,
    async createTopic(): Promise<void> {
      throw new KafkaProtocolError(KafkaErrorCode.TOPIC_ALREADY_EXISTS, 'Topic already exists');
    },
    async describeTopic(topic: string) {
      admin.describes++;
      if (admin.describes <= unknownFor) throw new KafkaProtocolError(KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION, `unknown ${topic}`);
      return { name: topic, partitions };
    },
  };
  return admin as unknown as AdminPort & { describes: number };
}

describe('creating a topic another instance is creating', () => {
  it('waits until the topic shows in the metadata, then checks its count', async () => {
    const admin = racingAdmin(3, 4);
    const topology = { internalTopicPartitionCounts: () => new Map([['app-x-repartition', 3]]) } as unknown as TopologyRuntime;
    const counts = await ensureInternalTopics(admin, topology, new Map(), pino({ level: 'silent' }));
    expect(counts.get('app-x-repartition')).toBe(3);
    expect(admin.describes).toBe(5); // one before the create, three unknown after it, then the count
  });

  it('still fails with the mismatch error when the other instance created another count', async () => {
    const admin = racingAdmin(2, 1);
    const topology = { internalTopicPartitionCounts: () => new Map([['app-x-repartition', 3]]) } as unknown as TopologyRuntime;
    await expect(ensureInternalTopics(admin, topology, new Map(), pino({ level: 'silent' }))).rejects.toThrow(/exists with 2 partitions, but the topology needs 3/);
  });

  it('gives up after its timeout when the topic never shows', async () => {
    expect(await partitionsOfExisting(racingAdmin(3, 1_000), 't', 200)).toBeUndefined();
  });
});
