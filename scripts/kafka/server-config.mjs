// server.properties of the single-node, combined broker+controller used for
// development and tests. Decisions (see README "Local Kafka"):
// - KRaft, one node, both roles; controller quorum bootstrapped with `format --standalone`.
// - Everything bound to 127.0.0.1; the client port and the controller port are separate.
// - Replication factors and min ISR of 1, no initial rebalance delay.
// - auto.create.topics.enable=false: every topic is created explicitly (tests use
//   createTopic()); a typo fails loudly instead of creating a one-partition topic.
// - No time-based retention runs (log.retention.check.interval.ms of a year):
//   tests produce records with historic timestamps (Kafka's own test inputs use
//   0, 10, 1_700_000_000_000...), and the broker's retention check, every 5 minutes
//   by default, deletes such records even from the active segment, in the middle
//   of a test. Topic-level retention.ms (window changelogs) is still configured,
//   only never enforced on this broker.
import { randomBytes } from 'node:crypto';

/** A random KRaft cluster id: 16 random bytes, base64url without padding (what `kafka-storage random-uuid` prints). */
export function randomClusterId() {
  return randomBytes(16).toString('base64url');
}

/**
 * Renders server.properties.
 * @param {{ port: number, controllerPort: number, dataDir: string, overrides?: Record<string, string> }} options
 *   overrides: replace or add properties (the secure broker's listeners, TLS, SASL, authorizer).
 */
export function serverProperties({ port, controllerPort, dataDir, overrides }) {
  const props = {
    'process.roles': 'broker,controller',
    'node.id': '1',
    'controller.quorum.bootstrap.servers': `127.0.0.1:${controllerPort}`,
    listeners: `PLAINTEXT://127.0.0.1:${port},CONTROLLER://127.0.0.1:${controllerPort}`,
    'advertised.listeners': `PLAINTEXT://127.0.0.1:${port}`,
    'controller.listener.names': 'CONTROLLER',
    'inter.broker.listener.name': 'PLAINTEXT',
    'listener.security.protocol.map': 'CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT',
    'log.dirs': dataDir,
    'num.partitions': '1',
    'default.replication.factor': '1',
    'auto.create.topics.enable': 'false',
    'offsets.topic.replication.factor': '1',
    'offsets.topic.num.partitions': '10',
    'transaction.state.log.replication.factor': '1',
    'transaction.state.log.min.isr': '1',
    'transaction.state.log.num.partitions': '10',
    'min.insync.replicas': '1',
    'group.initial.rebalance.delay.ms': '0',
    'share.coordinator.state.topic.replication.factor': '1',
    'share.coordinator.state.topic.min.isr': '1',
    'log.flush.interval.messages': '9223372036854775807',
    'num.network.threads': '2',
    'num.io.threads': '4',
    'delete.topic.enable': 'true',
    'log.retention.check.interval.ms': String(365 * 24 * 3600 * 1000),
    ...overrides,
  };
  return `${Object.entries(props)
    .map(([k, v]) => `${k}=${v}`)
    .join('\n')}\n`;
}
