// server.properties of one node of the local multi-broker cluster (scripts/kafka/cluster.mjs).
// Decisions (see README "Local Kafka"):
// - KRaft, N combined broker+controller nodes (node ids 1..N), a static controller
//   quorum of all N (`controller.quorum.voters`; every node's storage is formatted
//   with the same cluster id and no --standalone / --initial-controllers).
// - Node i (1-based) listens on 127.0.0.1: client port P+i-1, controller port P+N+i-1.
// - Real-cluster durability: default.replication.factor=min(3, N), min.insync.replicas=
//   min(2, N); __consumer_offsets and __transaction_state at the same RF / min ISR.
// - Fast failure detection: a broker that stops heartbeating is fenced (its partitions get a
//   new leader) after `broker.session.timeout.ms` (4 s here, 9 s by default), so a SIGKILLed
//   leader's partitions move within seconds.
// - As the single-node broker: auto.create.topics.enable=false, no time-based retention run,
//   no initial rebalance delay.

/**
 * Client and controller ports of an `nodes`-node cluster whose first client port is `port`.
 * @returns {{ id: number, port: number, controllerPort: number }[]}
 */
export function clusterNodes(port, nodes) {
  return Array.from({ length: nodes }, (_, i) => ({ id: i + 1, port: port + i, controllerPort: port + nodes + i }));
}

/**
 * Renders server.properties of node `id`.
 * @param {{ id: number, nodes: { id: number, port: number, controllerPort: number }[], dataDir: string,
 *           sessionTimeoutMs?: number, heartbeatIntervalMs?: number }} options
 */
export function clusterNodeProperties({ id, nodes, dataDir, sessionTimeoutMs = 4000, heartbeatIntervalMs = 1000 }) {
  const node = nodes.find((n) => n.id === id);
  if (!node) throw new Error(`no node ${id} among ${nodes.map((n) => n.id).join(',')}`);
  const rf = String(Math.min(3, nodes.length));
  const minIsr = String(Math.min(2, nodes.length));
  const props = {
    'process.roles': 'broker,controller',
    'node.id': String(id),
    'controller.quorum.voters': nodes.map((n) => `${n.id}@127.0.0.1:${n.controllerPort}`).join(','),
    listeners: `PLAINTEXT://127.0.0.1:${node.port},CONTROLLER://127.0.0.1:${node.controllerPort}`,
    'advertised.listeners': `PLAINTEXT://127.0.0.1:${node.port}`,
    'controller.listener.names': 'CONTROLLER',
    'inter.broker.listener.name': 'PLAINTEXT',
    'listener.security.protocol.map': 'CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT',
    'log.dirs': dataDir,
    'num.partitions': '1',
    'default.replication.factor': rf,
    'min.insync.replicas': minIsr,
    'auto.create.topics.enable': 'false',
    'unclean.leader.election.enable': 'false',
    'offsets.topic.replication.factor': rf,
    'offsets.topic.num.partitions': '10',
    'transaction.state.log.replication.factor': rf,
    'transaction.state.log.min.isr': minIsr,
    'transaction.state.log.num.partitions': '10',
    'share.coordinator.state.topic.replication.factor': rf,
    'share.coordinator.state.topic.min.isr': minIsr,
    'group.initial.rebalance.delay.ms': '0',
    'broker.session.timeout.ms': String(sessionTimeoutMs),
    'broker.heartbeat.interval.ms': String(heartbeatIntervalMs),
    'log.flush.interval.messages': '9223372036854775807',
    'num.network.threads': '2',
    'num.io.threads': '2',
    'num.replica.fetchers': '1',
    'background.threads': '4',
    'delete.topic.enable': 'true',
    'log.retention.check.interval.ms': String(365 * 24 * 3600 * 1000),
  };
  return `${Object.entries(props)
    .map(([k, v]) => `${k}=${v}`)
    .join('\n')}\n`;
}
