/**
 * The backends the cluster contract suite runs against: the embedded cluster
 * (always) and real Kafka through the kafkajs adapter (when a broker is
 * available; under REQUIRE_KAFKA=1 a missing broker or adapter fails).
 */
import type { AdminPort, ClusterPort, ConsumedRecord } from '../../src/client/port.js';
import { EmbeddedKafkaCluster } from '../../src/embedded/embedded-cluster.js';
import { kafkaBrokers, kafkaSkipReason, readAll } from '../helpers/index.js';

/** Read isolation of {@link BackendContext.read}. */
export type ReadIsolation = 'read_committed' | 'read_uncommitted';

/** What a contract case gets from a backend. */
export interface BackendContext {
  cluster: ClusterPort;
  admin: AdminPort;
  /** Every record a reader with `isolation` sees now, sorted by partition then offset. */
  read(topic: string, isolation?: ReadIsolation): Promise<(Pick<ConsumedRecord, 'partition' | 'offset' | 'key' | 'value' | 'timestamp'> & { headers: Record<string, unknown> })[]>;
  /** How long eventually-true conditions may take (rebalances on real Kafka take seconds). */
  patienceMs: number;
  /** Consumer timing suited to the backend. */
  consumerTiming: { sessionTimeoutMs: number; heartbeatIntervalMs: number };
  close(): Promise<void>;
}

/** A backend of the contract suite. */
export interface Backend {
  name: 'embedded' | 'kafka';
  /** Set when the backend is unavailable: the suite is skipped with this reason. */
  skipReason?: string;
  create(): Promise<BackendContext>;
}

const required = process.env.REQUIRE_KAFKA === '1' || process.env.REQUIRE_KAFKA === 'true';

function embedded(): Backend {
  return {
    name: 'embedded',
    async create() {
      const cluster = new EmbeddedKafkaCluster();
      return {
        cluster,
        admin: cluster.admin(),
        read: (topic, isolation = 'read_committed') => (isolation === 'read_committed' ? cluster.readCommitted(topic) : cluster.readUncommitted(topic)),
        patienceMs: 3_000,
        consumerTiming: { sessionTimeoutMs: 10_000, heartbeatIntervalMs: 50 },
        close: () => cluster.close(),
      };
    },
  };
}

async function kafka(): Promise<Backend> {
  const unavailable = (skipReason: string): Backend => {
    if (required) throw new Error(`REQUIRE_KAFKA=1 but the kafka backend is unavailable: ${skipReason}`);
    return { name: 'kafka', skipReason, create: () => Promise.reject(new Error(skipReason)) };
  };
  const brokers = kafkaBrokers();
  if (!brokers) return unavailable(kafkaSkipReason() ?? 'no Kafka broker');
  let createKafkaCluster: (o: { bootstrapServers: string[] }) => ClusterPort;
  try {
    const modulePath = '../../src/client/kafkajs/index.js';
    ({ createKafkaCluster } = (await import(/* @vite-ignore */ modulePath)) as { createKafkaCluster: typeof createKafkaCluster });
  } catch (e) {
    return unavailable(`kafkajs adapter not loadable (src/client/kafkajs/index.ts): ${(e as Error).message}`);
  }
  return {
    name: 'kafka',
    async create() {
      const cluster = createKafkaCluster({ bootstrapServers: brokers });
      const admin = cluster.admin();
      return {
        cluster,
        admin,
        read: (topic, isolation = 'read_committed') => readAll(brokers, topic, { isolation }),
        patienceMs: 45_000,
        consumerTiming: { sessionTimeoutMs: 10_000, heartbeatIntervalMs: 500 },
        close: () => admin.close(),
      };
    },
  };
}

/** The embedded backend and the kafka backend (possibly marked skipped, with the reason). */
export async function backends(): Promise<Backend[]> {
  return [embedded(), await kafka()];
}
