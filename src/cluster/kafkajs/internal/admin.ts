/**
 * {@link AdminPort} over the kafkajs admin client.
 *
 * kafkajs has no IncrementalAlterConfigs (it is `noImplementedRequestDefinitions`
 * in `protocol/requests/index.js`); its AlterConfigs *replaces* a topic's
 * dynamic configs, dropping every one not named. `alterTopicConfig` therefore
 * reads the topic's explicit (DYNAMIC_TOPIC_CONFIG) entries first and sends
 * them merged with the change. Two concurrent alterations of the same topic
 * can lose one of them (read-modify-write).
 */
import kafkajs, { type Admin, type Kafka } from 'kafkajs';
import { KafkaErrorCode, KafkaProtocolError, kafkaErrorName } from '../../../errors.js';
import type { AdminPort, ClientConnectionOptions, GroupDescription, NewTopic, TopicDescription } from '../../port.js';
import { mapKafkaJsError } from './error-mapping.js';
import { connectionFactsOf, isAuthorizationCode, principalOf, type Access, type ConnectionFacts } from './security-errors.js';
import { pollUntil, retryWhile } from '../../../internal/retry.js';
import { kafkaJsRetry } from './retry-options.js';

const { AssignerProtocol, ConfigResourceTypes } = kafkajs;

/** `configSource` value of an explicitly set topic config (DescribeConfigs v1+). */
const DYNAMIC_TOPIC_CONFIG = 1;

/** The rejection for a topic that does not exist: UNKNOWN_TOPIC_OR_PARTITION naming the topic. */
export function unknownTopic(name: string): KafkaProtocolError {
  return new KafkaProtocolError(
    KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
    `UNKNOWN_TOPIC_OR_PARTITION (3): topic '${name}' does not exist`,
  );
}

/** The first partition's error of a kafkajs `KafkaJSDeleteTopicRecordsError` (possibly wrapped by its retrier). */
function firstPartitionError(error: unknown): unknown {
  for (let e: unknown = error, depth = 0; e !== undefined && e !== null && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const found = (e as { partitions?: Array<{ error?: unknown }> }).partitions?.[0]?.error;
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Retries a coordinator call on the retriable coordinator errors kafkajs' admin does not retry (up to ~10 s). */
function retryCoordinator<T>(fn: () => Promise<T>): Promise<T> {
  return retryWhile(fn, {
    retryIf: (error, attempt) => error instanceof KafkaProtocolError && error.retriable && attempt < 20,
    delayMs: (attempt) => Math.min(50 * 2 ** attempt, 500),
  });
}

/** Admin port backed by one lazily connected kafkajs admin client. */
export class KafkaJsAdmin implements AdminPort {
  private readonly admin: Admin;
  private readonly facts: ConnectionFacts | undefined;
  private connecting: Promise<void> | undefined;

  /** `connection`: Kafka's `admin.retries`, `retry.backoff.ms` and `retry.backoff.max.ms` become kafkajs' `retry` (see kafkaJsRetry). */
  constructor(kafka: Kafka, connection: ClientConnectionOptions = {}) {
    const retry = kafkaJsRetry(connection);
    this.admin = retry === undefined ? kafka.admin() : kafka.admin({ retry });
    this.facts = connectionFactsOf(kafka);
  }

  private async client(): Promise<Admin> {
    this.connecting ??= this.admin.connect();
    try {
      await this.connecting;
    } catch (error) {
      this.connecting = undefined;
      throw mapKafkaJsError(error, 'admin connect', { facts: this.facts });
    }
    return this.admin;
  }

  /** Runs an admin call, mapping kafkajs errors (`access`: what the call needs, named by an authorization failure). */
  private async call<T>(context: string, fn: (admin: Admin) => Promise<T>, access: readonly Access[] = []): Promise<T> {
    const admin = await this.client();
    try {
      const result = await fn(admin);
      if (this.facts) this.facts.answered = true;
      return result;
    } catch (error) {
      throw mapKafkaJsError(error, context, { facts: this.facts, access });
    }
  }

  /**
   * Rejects with UNKNOWN_TOPIC_OR_PARTITION unless the topic exists (fresh metadata, no kafkajs retry loop).
   * On a secured cluster the message adds that the principal may lack DESCRIBE: Kafka lists only the
   * topics a principal may describe.
   */
  private async requireTopic(name: string): Promise<void> {
    const topics = await this.call('list topics', (a) => a.listTopics(), [{ resource: 'TOPIC', operation: 'DESCRIBE', name }]);
    if (topics.includes(name)) return;
    const secured = this.facts !== undefined && (this.facts.mechanism !== undefined || this.facts.certificateSubject !== undefined);
    if (!secured) throw unknownTopic(name);
    throw new KafkaProtocolError(
      KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
      `UNKNOWN_TOPIC_OR_PARTITION (3): topic '${name}' does not exist, or ${principalOf(this.facts)} may not see it ` +
        `(the cluster lists only the topics a principal may DESCRIBE; READ or WRITE on the topic grant it)`,
    );
  }

  /**
   * Creates a topic and waits until every partition has a leader, so a produce right after works.
   * 1. CreateTopics with kafkajs' waitForLeaders.
   * 2. Under KRaft the answer can come before this broker's metadata cache knows the topic, and
   *    kafkajs' waitForLeaders retries LEADER_NOT_AVAILABLE only: UNKNOWN_TOPIC_OR_PARTITION there
   *    means "created, not yet visible".
   * 3. Poll metadata (up to 15 s) until every partition has a leader.
   */
  async createTopic(name: string, options: NewTopic = {}): Promise<void> {
    const partitions = options.partitions ?? 1;
    const configEntries = Object.entries(options.config ?? {}).map(([key, value]) => ({ name: key, value }));
    let created: boolean;
    try {
      created = await this.call(`create topic '${name}'`, (a) =>
        a.createTopics({ topics: [{ topic: name, numPartitions: partitions, replicationFactor: options.replicationFactor ?? -1, configEntries }], waitForLeaders: true }),
        [{ resource: 'TOPIC', operation: 'CREATE', name }, { resource: 'CLUSTER', operation: 'CREATE' }],
      );
    } catch (error) {
      if (error instanceof KafkaProtocolError && error.kafkaCode === KafkaErrorCode.INVALID_CONFIG) {
        const given = configEntries.map((c) => `${c.name}=${c.value}`).join(', ') || 'none';
        throw new KafkaProtocolError(
          KafkaErrorCode.INVALID_CONFIG,
          `${error.message}. The broker refused a config of topic '${name}' (given: ${given}); fix the value or remove the key.`,
          { cause: error },
        );
      }
      if (!(error instanceof KafkaProtocolError) || error.kafkaCode !== KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION) throw error;
      created = true;
    }
    if (!created) {
      throw new KafkaProtocolError(KafkaErrorCode.TOPIC_ALREADY_EXISTS, `TOPIC_ALREADY_EXISTS (36): topic '${name}' already exists`);
    }
    const ready = await pollUntil(
      () =>
        this.call(`metadata of '${name}'`, (a) => a.fetchTopicMetadata({ topics: [name] }), [{ resource: 'TOPIC', operation: 'DESCRIBE', name }]).then(
          (m) => m.topics[0]?.partitions.length === partitions && m.topics[0].partitions.every((p) => p.leader >= 0),
          () => false,
        ),
      { timeoutMs: 15_000, intervalMs: 100 },
    );
    if (!ready) throw unknownTopic(name);
  }

  /** Deletes a topic and waits (up to 10 s) until metadata no longer lists it, so it can be created again at once. */
  async deleteTopic(name: string): Promise<void> {
    await this.requireTopic(name);
    await this.call(`delete topic '${name}'`, (a) => a.deleteTopics({ topics: [name] }), [{ resource: 'TOPIC', operation: 'DELETE', name }]);
    await pollUntil(async () => !(await this.call('list topics', (a) => a.listTopics())).includes(name), { timeoutMs: 10_000, intervalMs: 100 });
  }

  /** User topics; internal ones (`__consumer_offsets`, `__transaction_state`, ...) are left out, as Java's listTopics does. */
  async listTopics(): Promise<string[]> {
    const topics = await this.call('list topics', (a) => a.listTopics());
    return topics.filter((t) => !t.startsWith('__')).sort();
  }

  async describeTopic(name: string): Promise<TopicDescription> {
    await this.requireTopic(name);
    const metadata = await this.call(`describe topic '${name}'`, (a) => a.fetchTopicMetadata({ topics: [name] }), [{ resource: 'TOPIC', operation: 'DESCRIBE', name }]);
    const topic = metadata.topics.find((t) => t.name === name);
    if (!topic) throw unknownTopic(name);
    let entries: Awaited<ReturnType<KafkaJsAdmin['configEntries']>>;
    try {
      entries = await this.configEntries(name);
    } catch (error) {
      // Least privilege (READ or WRITE on a user topic) includes DESCRIBE, not DESCRIBE_CONFIGS: say so, do not fail.
      if (error instanceof KafkaProtocolError && isAuthorizationCode(error.kafkaCode)) {
        return { name, partitions: topic.partitions.length, config: {}, configUnreadable: error.message };
      }
      throw error;
    }
    const config: Record<string, string> = {};
    for (const entry of entries) if (entry.configValue !== null) config[entry.configName] = entry.configValue;
    return { name, partitions: topic.partitions.length, config, replicationFactor: topic.partitions[0]?.replicas.length ?? 0 };
  }

  /** Every config entry of a topic, defaults included (DescribeConfigs with no names). */
  private async configEntries(name: string): Promise<Array<{ configName: string; configValue: string | null; configSource?: number }>> {
    const result = await this.call(`describe configs of '${name}'`, (a) =>
      a.describeConfigs({ resources: [{ type: ConfigResourceTypes.TOPIC, name }], includeSynonyms: false }),
      [{ resource: 'TOPIC', operation: 'DESCRIBE_CONFIGS', name }],
    );
    const resource = result.resources[0];
    if (!resource) throw unknownTopic(name);
    if (resource.errorCode) {
      throw mapKafkaJsError({ name: 'KafkaJSProtocolError', type: kafkaErrorName(resource.errorCode), code: resource.errorCode, message: resource.errorMessage || kafkaErrorName(resource.errorCode) }, `describe configs of '${name}'`, {
        facts: this.facts,
        access: [{ resource: 'TOPIC', operation: 'DESCRIBE_CONFIGS', name }],
      });
    }
    return resource.configEntries as Array<{ configName: string; configValue: string | null; configSource?: number }>;
  }

  async alterTopicConfig(name: string, config: Record<string, string>): Promise<void> {
    await this.requireTopic(name);
    // 1. Read the explicit configs (AlterConfigs would drop them).
    const explicit: Record<string, string> = {};
    for (const entry of await this.configEntries(name)) {
      if (entry.configSource === DYNAMIC_TOPIC_CONFIG && entry.configValue !== null) explicit[entry.configName] = entry.configValue;
    }
    // 2. Send them merged with the change.
    const merged = { ...explicit, ...config };
    await this.call(`alter configs of '${name}'`, (a) =>
      a.alterConfigs({
        validateOnly: false,
        resources: [
          {
            type: ConfigResourceTypes.TOPIC,
            name,
            configEntries: Object.entries(merged).map(([key, value]) => ({ name: key, value })),
          },
        ],
      }),
      [{ resource: 'TOPIC', operation: 'ALTER_CONFIGS', name }],
    );
    // 3. Under KRaft the broker applies the change from its metadata log a little later: wait
    //    (up to 10 s) until DescribeConfigs shows it, so a describe right after reads the write.
    await pollUntil(
      async () => {
        const current = new Map((await this.configEntries(name)).map((e) => [e.configName, e.configValue]));
        return Object.entries(config).every(([key, value]) => current.get(key) === value);
      },
      { timeoutMs: 10_000, intervalMs: 50 },
    );
  }

  async endOffsets(topic: string): Promise<number[]> {
    await this.requireTopic(topic);
    const offsets = await this.call(`end offsets of '${topic}'`, (a) => a.fetchTopicOffsets(topic), [{ resource: 'TOPIC', operation: 'DESCRIBE', name: topic }]);
    const result: number[] = [];
    for (const o of offsets) result[o.partition] = Number(o.high);
    return result;
  }

  /** Log start offset (kafkajs' `low`) per partition. */
  async startOffsets(topic: string): Promise<number[]> {
    await this.requireTopic(topic);
    const offsets = await this.call(`start offsets of '${topic}'`, (a) => a.fetchTopicOffsets(topic));
    const result: number[] = [];
    for (const o of offsets) result[o.partition] = Number(o.low);
    return result;
  }

  /**
   * DeleteRecords through kafkajs' `deleteTopicRecords`: 1. fresh metadata of the topic (kafkajs looks the
   * partition leaders up in its cache); 2. the request, one per leader; a partition error (e.g.
   * OFFSET_OUT_OF_RANGE beyond the high watermark) rejects with that partition's Kafka error.
   */
  async deleteRecords(topic: string, offsets: ReadonlyMap<number, number>): Promise<void> {
    if (offsets.size === 0) return;
    // 1.
    await this.call(`metadata of '${topic}'`, (a) => a.fetchTopicMetadata({ topics: [topic] }));
    // 2.
    const partitions = [...offsets].map(([partition, offset]) => ({ partition, offset: String(offset) }));
    try {
      await this.call(`delete records of '${topic}'`, (a) => a.deleteTopicRecords({ topic, partitions }));
    } catch (error) {
      const partitionError = firstPartitionError(error);
      throw partitionError === undefined ? error : mapKafkaJsError(partitionError, `delete records of '${topic}'`);
    }
  }

  /**
   * kafkajs' `fetchTopicOffsetsByTimestamp` (ListOffsets with a timestamp); -1 where no record is that late
   * (kafkajs answers the high watermark there: a found record's offset is always below it).
   */
  async offsetsForTime(topic: string, timestamp: number): Promise<number[]> {
    const end = await this.endOffsets(topic);
    const offsets = await this.call(`offsets of '${topic}' at ${timestamp}`, (a) => a.fetchTopicOffsetsByTimestamp(topic, timestamp), [
      { resource: 'TOPIC', operation: 'DESCRIBE', name: topic },
    ]);
    const result: number[] = end.map(() => -1);
    for (const o of offsets) {
      const offset = Number(o.offset);
      result[o.partition] = offset >= 0 && offset < (end[o.partition] ?? 0) ? offset : -1;
    }
    return result;
  }

  /** kafkajs' `setOffsets` (OffsetCommit outside the group generation); refused by Kafka while the group has members. */
  async setCommittedOffsets(groupId: string, topic: string, offsets: ReadonlyMap<number, number>): Promise<void> {
    const partitions = [...offsets].map(([partition, offset]) => ({ partition, offset: String(offset) }));
    await retryCoordinator(() =>
      this.call(`set committed offsets of '${groupId}' on '${topic}'`, (a) => a.setOffsets({ groupId, topic, partitions }), [
        { resource: 'GROUP', operation: 'READ', name: groupId },
        { resource: 'TOPIC', operation: 'READ', name: topic },
      ]),
    );
  }

  async committedOffsets(groupId: string, topic: string): Promise<number[]> {
    await this.requireTopic(topic);
    const groups = await retryCoordinator(() =>
      this.call(`committed offsets of '${groupId}' on '${topic}'`, (a) => a.fetchOffsets({ groupId, topics: [topic] }), [
        { resource: 'GROUP', operation: 'DESCRIBE', name: groupId },
        { resource: 'TOPIC', operation: 'DESCRIBE', name: topic },
      ]),
    );
    const result: number[] = [];
    for (const p of groups.find((g) => g.topic === topic)?.partitions ?? []) result[p.partition] = Number(p.offset);
    return Array.from(result, (o) => (o === undefined || o < 0 ? -1 : o));
  }

  async describeGroup(groupId: string): Promise<GroupDescription> {
    const { groups } = await retryCoordinator(() =>
      this.call(`describe group '${groupId}'`, (a) => a.describeGroups([groupId]), [{ resource: 'GROUP', operation: 'DESCRIBE', name: groupId }]),
    );
    const group = groups.find((g) => g.groupId === groupId);
    return {
      groupId,
      state: group?.state ?? 'Dead',
      members: (group?.members ?? []).map((m) => {
        const decoded = m.memberAssignment.length > 0 ? AssignerProtocol.MemberAssignment.decode(m.memberAssignment) : null;
        const assignment = Object.entries(decoded?.assignment ?? {}).flatMap(([topic, partitions]) => partitions.map((partition) => ({ topic, partition })));
        return { memberId: m.memberId, clientId: m.clientId, assignment };
      }),
    };
  }

  async close(): Promise<void> {
    const connecting = this.connecting;
    this.connecting = undefined;
    if (connecting) await connecting.catch(() => undefined);
    await this.admin.disconnect();
  }
}
