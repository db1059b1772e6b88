/**
 * The two backends of the transactional-producer contract suite: the embedded
 * cluster and a real Kafka broker through the kafkajs adapter, behind one
 * small interface (create/alter topics, read what a read_committed reader sees).
 */
import { createKafkaCluster } from '../../src/cluster/kafkajs/index.js';
import type { AdminPort, ClusterPort } from '../../src/cluster/port.js';
import { EmbeddedKafkaCluster } from '../../src/cluster/embedded/embedded-cluster.js';
import { kafkaBrokers, kafkaSkipReason } from './kafka-env.js';
import { readAll } from './topics.js';
import { withProduceFaults } from './fault-cluster.js';

/** A record as a read_committed reader sees it. */
export interface VisibleRecord {
  partition: number;
  key: string | null;
  value: string | null;
}

/** One backend of the contract suite. */
export interface EosBackend {
  readonly name: 'embedded' | 'kafka';
  readonly cluster: ClusterPort;
  /** The embedded cluster, for fault injection (undefined on real Kafka). */
  readonly embedded: EmbeddedKafkaCluster | undefined;
  /** The next `count` produce requests to `topic` fail with `code` (embedded: broker-side fault; Kafka: injected client-side before the request). */
  failProduce(fault: { topic: string; code: number; count?: number; afterAppend?: boolean }): void;
  /** Removes every injected fault. */
  clearFaults(): void;
  createTopic(name: string, partitions: number, config?: Record<string, string>): Promise<void>;
  alterTopicConfig(name: string, config: Record<string, string>): Promise<void>;
  /** Everything a read_committed reader sees in `topic` now. */
  readCommitted(topic: string): Promise<VisibleRecord[]>;
  close(): Promise<void>;
}

function embeddedBackend(): EosBackend {
  const cluster = new EmbeddedKafkaCluster();
  return {
    name: 'embedded',
    cluster,
    embedded: cluster,
    failProduce: (fault) => cluster.failProduce(fault),
    clearFaults: () => cluster.clearFaults(),
    createTopic: (name, partitions, config = {}) => cluster.createTopic(name, { partitions, config }),
    alterTopicConfig: (name, config) => cluster.alterTopicConfig(name, config),
    readCommitted: async (topic) =>
      (await cluster.readCommitted(topic)).map((r) => ({ partition: r.partition, key: r.key?.toString() ?? null, value: r.value?.toString() ?? null })),
    close: () => cluster.close(),
  };
}

function kafkaBackend(brokers: string[]): EosBackend {
  const faulty = withProduceFaults(createKafkaCluster({ bootstrapServers: brokers }));
  const cluster = faulty.cluster;
  let admin: AdminPort | undefined;
  const a = (): AdminPort => (admin ??= cluster.admin());
  return {
    name: 'kafka',
    cluster,
    embedded: undefined,
    failProduce: (fault) => faulty.failProduce(fault),
    clearFaults: () => faulty.clearFaults(),
    createTopic: (name, partitions, config = {}) => a().createTopic(name, { partitions, config }),
    alterTopicConfig: (name, config) => a().alterTopicConfig(name, config),
    readCommitted: async (topic) =>
      (await readAll(brokers, topic, { isolation: 'read_committed' })).map((r) => ({
        partition: r.partition,
        key: r.key?.toString() ?? null,
        value: r.value?.toString() ?? null,
      })),
    close: async () => {
      await admin?.close();
    },
  };
}

/** The backends to run: always embedded; real Kafka when a broker is available, else a skip reason. */
export function eosBackends(): Array<{ name: 'embedded' | 'kafka'; create: (() => EosBackend) | undefined; skip?: string }> {
  const brokers = kafkaBrokers();
  return [
    { name: 'embedded', create: embeddedBackend },
    { name: 'kafka', create: brokers ? () => kafkaBackend(brokers) : undefined, skip: brokers ? undefined : kafkaSkipReason() },
  ];
}
