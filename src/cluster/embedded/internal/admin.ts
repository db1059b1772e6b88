/** The embedded cluster's {@link AdminPort}: thin wrappers over the broker. */
import type { AdminPort, GroupDescription, NewTopic, TopicDescription } from '../../port.js';
import type { Broker } from './broker.js';

/** Admin client of the embedded cluster. */
export class EmbeddedAdmin implements AdminPort {
  constructor(private readonly broker: Broker) {}
  async createTopic(name: string, options: NewTopic = {}): Promise<void> {
    this.broker.createTopic(name, options.partitions ?? 1, options.config ?? {}, options.replicationFactor ?? -1);
  }
  async deleteTopic(name: string): Promise<void> {
    this.broker.deleteTopic(name);
  }
  async listTopics(): Promise<string[]> {
    return this.broker.listTopics();
  }
  async describeTopic(name: string): Promise<TopicDescription> {
    return this.broker.describeTopic(name);
  }
  async alterTopicConfig(name: string, config: Record<string, string>): Promise<void> {
    this.broker.alterTopicConfig(name, config);
  }
  async endOffsets(topic: string): Promise<number[]> {
    return this.broker.endOffsets(topic);
  }
  async deleteRecords(topic: string, offsets: ReadonlyMap<number, number>): Promise<void> {
    this.broker.deleteRecords(topic, offsets);
  }
  async startOffsets(topic: string): Promise<number[]> {
    return this.broker.startOffsets(topic);
  }
  async committedOffsets(groupId: string, topic: string): Promise<number[]> {
    return this.broker.committedOffsets(groupId, topic);
  }
  async offsetsForTime(topic: string, timestamp: number): Promise<number[]> {
    return this.broker.offsetsForTime(topic, timestamp);
  }
  async setCommittedOffsets(groupId: string, topic: string, offsets: ReadonlyMap<number, number>): Promise<void> {
    this.broker.endOffsets(topic); // an unknown topic rejects
    this.broker.groups.commit(groupId, [...offsets].map(([partition, offset]) => ({ topic, partition, offset })));
  }
  async describeGroup(groupId: string): Promise<GroupDescription> {
    const { members } = this.broker.groups.describeGroup(groupId);
    return {
      groupId,
      state: members.length > 0 ? 'Stable' : 'Empty',
      members: members.map((m) => ({ memberId: m.memberId, clientId: m.memberId.replace(/-[0-9a-f-]{36}$/, ''), assignment: m.assignment })),
    };
  }
  async close(): Promise<void> {}
}
