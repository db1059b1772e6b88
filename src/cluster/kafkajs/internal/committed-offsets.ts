/**
 * Reads a group's committed offsets fresh from the group coordinator
 * (OffsetFetch through a lazily connected kafkajs admin client), and which
 * subscribed topics still exist (the same admin client).
 * OffsetFetch goes without `require_stable` (kafkajs speaks < v7): offsets of
 * a transaction still being completed are not waited for (DESIGN.md §2).
 */
import type { Admin, Kafka } from 'kafkajs';
import type { TopicPartition, TopicPartitionOffset } from '../../port.js';
import { mapKafkaJsError, type ErrorSite } from './error-mapping.js';
import { connectionFactsOf } from './security-errors.js';
import { topicPartitionKey } from '../../../records/topic-partition.js';

/** Committed-offset reader of one group. */
export class CommittedOffsetsReader {
  private readonly admin: Admin;
  private readonly site: ErrorSite;
  private connecting: Promise<void> | undefined;

  constructor(
    kafka: Kafka,
    private readonly groupId: string,
  ) {
    this.admin = kafka.admin();
    this.site = { facts: connectionFactsOf(kafka), access: [{ resource: 'GROUP', operation: 'DESCRIBE', name: groupId }, { resource: 'TOPIC', operation: 'DESCRIBE' }] };
  }

  /** The committed offset of each partition, -1 where none, in the order asked. */
  async read(partitions: TopicPartition[]): Promise<TopicPartitionOffset[]> {
    if (partitions.length === 0) return [];
    this.connecting ??= this.admin.connect();
    const topics = [...new Set(partitions.map((tp) => tp.topic))];
    try {
      await this.connecting;
      const answer = await this.admin.fetchOffsets({ groupId: this.groupId, topics });
      const offsets = new Map<string, number>();
      for (const t of answer) {
        for (const p of t.partitions) offsets.set(topicPartitionKey({ topic: t.topic, partition: p.partition }), Number(p.offset));
      }
      return partitions.map((tp) => {
        const offset = offsets.get(topicPartitionKey(tp));
        return { topic: tp.topic, partition: tp.partition, offset: offset === undefined || offset < 0 ? -1 : offset };
      });
    } catch (error) {
      this.connecting = undefined;
      throw mapKafkaJsError(error, `committed offsets of '${this.groupId}'`, this.site);
    }
  }

  /** Which of `topics` do not exist now (fresh metadata through the same admin client). */
  async missingTopics(topics: string[]): Promise<string[]> {
    this.connecting ??= this.admin.connect();
    try {
      await this.connecting;
      const existing = new Set(await this.admin.listTopics());
      return topics.filter((t) => !existing.has(t));
    } catch (error) {
      this.connecting = undefined;
      throw mapKafkaJsError(error, 'list topics', this.site);
    }
  }

  async close(): Promise<void> {
    if (!this.connecting) return;
    this.connecting = undefined;
    await this.admin.disconnect().catch(() => undefined);
  }
}
