/**
 * Internal topic configs and replication factor (src/runtime/internal/internal-topic-config.ts):
 * Kafka's InternalTopicConfigTest cases ported with their inputs where they map, the merge order
 * "library defaults < topicConfig < the store's own config", and what reaches the created topics.
 */
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { EmbeddedKafkaCluster } from '../../../src/cluster/embedded/embedded-cluster.js';
import type { AdminPort } from '../../../src/cluster/port.js';
import { ConfigError, KafkaErrorCode, KafkaProtocolError } from '../../../src/errors.js';
import { windowedChangelogConfig } from '../../../src/state/window-store-builders.js';
import { ensureChangelogTopics } from '../../../src/runtime/internal/changelog-topics.js';
import { ensureInternalTopics } from '../../../src/runtime/internal/internal-topics.js';
import { changelogTopicConfig, createInternalTopic, repartitionTopicConfig } from '../../../src/runtime/internal/internal-topic-config.js';
import type { TopologyRuntime } from '../../../src/processors/task-contract.js';

const KV_STORE = { 'cleanup.policy': 'compact' };
const logger = pino({ level: 'silent' });

describe('InternalTopicConfigTest (ported)', () => {
  it('shouldSetCreateTimeByDefaultForWindowedChangelog', () => {
    expect(changelogTopicConfig(windowedChangelogConfig(10, {}), {})['message.timestamp.type']).toBe('CreateTime');
  });
  it('shouldSetCreateTimeByDefaultForUnwindowedUnversionedChangelog', () => {
    expect(changelogTopicConfig(KV_STORE, {})['message.timestamp.type']).toBe('CreateTime');
  });
  it('shouldSetCreateTimeByDefaultForRepartitionTopic', () => {
    expect(repartitionTopicConfig({})['message.timestamp.type']).toBe('CreateTime');
  });
  // Kafka: retention 10 + additional retention 20 = "30"; sluice's additional retention is Kafka's default, 1 day.
  it('shouldAugmentRetentionMsWithWindowedChangelog (additional retention: the 1-day default)', () => {
    expect(changelogTopicConfig(windowedChangelogConfig(10, {}), {})['retention.ms']).toBe(String(10 + 24 * 60 * 60 * 1000));
  });
  it('shouldUseSuppliedConfigsForWindowedChangelogConfig', () => {
    expect(changelogTopicConfig(windowedChangelogConfig(10, { 'message.timestamp.type': 'LogAppendTime' }), {})['message.timestamp.type']).toBe('LogAppendTime');
  });
  it('shouldUseSuppliedConfigsForUnwindowedUnversionedChangelogConfig', () => {
    const properties = changelogTopicConfig({ ...KV_STORE, 'retention.ms': '1000', 'retention.bytes': '10000', 'message.timestamp.type': 'LogAppendTime' }, {});
    expect([properties['retention.ms'], properties['retention.bytes'], properties['message.timestamp.type']]).toEqual(['1000', '10000', 'LogAppendTime']);
  });
  // Kafka passes per-topic configs; a sluice repartition topic has none of its own, so topicConfig is the user's only say.
  it('shouldUseSuppliedConfigsForRepartitionConfig (through topicConfig)', () => {
    const properties = repartitionTopicConfig({ 'retention.ms': '1000', 'message.timestamp.type': 'LogAppendTime' });
    expect([properties['retention.ms'], properties['message.timestamp.type']]).toEqual(['1000', 'LogAppendTime']);
  });
});

describe('merge order: library defaults < topicConfig < the store\'s own config', () => {
  it("repartition topics get Kafka's repartition defaults (delete, 50 MiB segments, no retention: the purge deletes)", () => {
    expect(repartitionTopicConfig({})).toEqual({ 'cleanup.policy': 'delete', 'segment.bytes': '52428800', 'retention.ms': '-1', 'message.timestamp.type': 'CreateTime' });
    expect(repartitionTopicConfig({ 'min.insync.replicas': '2' })['min.insync.replicas']).toBe('2');
  });

  it('topicConfig reaches changelogs and overrides a library default, as in Kafka (cleanup.policy included)', () => {
    expect(changelogTopicConfig(KV_STORE, { 'min.insync.replicas': '2' })).toEqual({ 'cleanup.policy': 'compact', 'message.timestamp.type': 'CreateTime', 'min.insync.replicas': '2' });
    expect(changelogTopicConfig(KV_STORE, { 'cleanup.policy': 'compact,delete' })['cleanup.policy']).toBe('compact,delete');
  });

  it("a store's own config wins over topicConfig", () => {
    expect(changelogTopicConfig({ 'cleanup.policy': 'delete', 'retention.ms': '5000' }, { 'cleanup.policy': 'compact', 'retention.ms': '1' })).toMatchObject({ 'cleanup.policy': 'delete', 'retention.ms': '5000' });
  });

  it("a window store's retention (retention + 1 day) wins over topicConfig['retention.ms'], as Kafka's WindowedChangelogTopicConfig", () => {
    expect(changelogTopicConfig(windowedChangelogConfig(1000, {}), { 'retention.ms': '60000' })['retention.ms']).toBe(String(1000 + 86_400_000));
  });
});

describe('what reaches the created internal topics', () => {
  const runtime = {
    subtopologies: [{ id: 0, sourceTopics: ['in'], sinkTopics: ['app-g-repartition'] }, { id: 1, sourceTopics: ['app-g-repartition'], sinkTopics: [] }],
    internalTopics: [{ name: 'app-g-repartition' }],
    internalTopicPartitionCounts: () => new Map([['app-g-repartition', 2]]),
    changelogTopics: () => [{ storeName: 's', topic: 'app-s-changelog', subtopology: 1, config: KV_STORE }],
  } as unknown as TopologyRuntime;

  it('replicationFactor and topicConfig on the repartition and changelog topics (embedded: the factor is recorded)', async () => {
    const cluster = new EmbeddedKafkaCluster();
    const admin = cluster.admin();
    const settings = { replicationFactor: 3, topicConfig: { 'min.insync.replicas': '2' } };
    await ensureInternalTopics(admin, runtime, new Map([['in', 2]]), logger, settings);
    await ensureChangelogTopics(admin, runtime, 'app', new Map([['app-g-repartition', 2]]), logger, settings);
    const repartition = await admin.describeTopic('app-g-repartition');
    const changelog = await admin.describeTopic('app-s-changelog');
    expect([repartition.replicationFactor, changelog.replicationFactor]).toEqual([3, 3]);
    expect(repartition.config).toMatchObject({ 'min.insync.replicas': '2', 'retention.ms': '-1', 'cleanup.policy': 'delete' });
    expect(changelog.config).toMatchObject({ 'min.insync.replicas': '2', 'cleanup.policy': 'compact' });
    await cluster.close();
  });

  it('the default -1 leaves the factor to the broker (the embedded one reports 1)', async () => {
    const cluster = new EmbeddedKafkaCluster();
    await ensureInternalTopics(cluster.admin(), runtime, new Map([['in', 2]]), logger);
    expect((await cluster.describeTopic('app-g-repartition')).replicationFactor).toBe(1);
    await cluster.close();
  });

  it('a broker refusing the factor (INVALID_REPLICATION_FACTOR) is a ConfigError naming replicationFactor', async () => {
    const refusing = {
      createTopic: async () => {
        throw new KafkaProtocolError(KafkaErrorCode.INVALID_REPLICATION_FACTOR, 'INVALID_REPLICATION_FACTOR (38): Replication factor: 3 larger than available brokers: 1.');
      },
    } as unknown as AdminPort;
    const attempt = createInternalTopic(refusing, 'app-g-repartition', { partitions: 1 }, { replicationFactor: 3, topicConfig: {} });
    await expect(attempt).rejects.toThrow(ConfigError);
    await expect(createInternalTopic(refusing, 't', {}, { replicationFactor: 3, topicConfig: {} })).rejects.toThrow(
      /Config 'replicationFactor' \(3\): the cluster refused to create internal topic 't' with it \(.*larger than available brokers: 1\.\)/,
    );
  });
});
