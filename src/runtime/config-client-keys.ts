/**
 * The client overrides sluice accepts in `producerConfig`, `consumerConfig` and
 * `adminConfig`, under Kafka's own key names (so the properties-file line
 * `producer.linger.ms=5` is `producerConfig: { 'linger.ms': 5 }`), and the keys
 * it refuses with a reason (those that would break exactly-once, or that sluice
 * sets itself). One table per client: the key, its range, and where it goes.
 */

/** Which client an override is for (the `<client>Config` key it sits in). */
export type ClientKind = 'producer' | 'consumer' | 'admin';

/** An accepted integer override: its range and the setting it becomes. */
export interface IntKey {
  kind: 'int';
  min: number;
  /** The resolved setting it sets (see `ClientSettings` in config-clients.ts). */
  to: string;
  what: string;
}

/** An accepted override with a fixed set of values (a string, or a boolean written either way). */
export interface ChoiceKey {
  kind: 'choice';
  /** Value → what it resolves to; `refuse` when the value is refused, with the reason. */
  values: Readonly<Record<string, { to?: string; value?: string } | { refuse: string }>>;
  what: string;
}

/** A key refused whatever its value, with what to do instead. */
export interface RefusedKey {
  kind: 'refused';
  why: string;
}

/** One row of a client's table. */
export type ClientKey = IntKey | ChoiceKey | RefusedKey;

const EOS = 'it would break exactly-once';

/** The network settings every client takes (kafkajs' `requestTimeout`, `connectionTimeout`, `retry`). */
const NETWORK: Readonly<Record<string, ClientKey>> = {
  'request.timeout.ms': { kind: 'int', min: 1, to: 'requestTimeoutMs', what: 'ms a request may wait for its answer (kafkajs requestTimeout)' },
  'socket.connection.setup.timeout.ms': { kind: 'int', min: 1, to: 'connectionTimeoutMs', what: 'ms to open a connection (kafkajs connectionTimeout)' },
  'retry.backoff.ms': { kind: 'int', min: 0, to: 'retryBackoffMs', what: 'ms before the first retry (kafkajs retry.initialRetryTime)' },
  'retry.backoff.max.ms': { kind: 'int', min: 1, to: 'retryBackoffMaxMs', what: 'longest ms between retries (kafkajs retry.maxRetryTime)' },
  'client.id': { kind: 'refused', why: "sluice names its clients after the top-level 'clientId'; set that instead" },
  'bootstrap.servers': { kind: 'refused', why: "set the top-level 'bootstrapServers' (every client talks to the same cluster, as in Kafka Streams)" },
};

/** `producerConfig`: sluice's own producer path (src/eos) and the kafkajs producer under it. */
export const PRODUCER_KEYS: Readonly<Record<string, ClientKey>> = {
  ...NETWORK,
  'linger.ms': { kind: 'int', min: 0, to: 'lingerMs', what: 'ms a partition batch waits for more records' },
  'batch.size': { kind: 'int', min: 0, to: 'batchBytes', what: 'target bytes of a partition batch (0: no batching)' },
  'buffer.memory': { kind: 'int', min: 1, to: 'bufferMemoryBytes', what: 'bytes of records sent and not yet acknowledged' },
  'max.request.size': { kind: 'int', min: 1, to: 'maxRequestSize', what: 'bytes of the largest produce request' },
  'max.block.ms': { kind: 'int', min: 0, to: 'maxBlockMs', what: 'ms a send waits for the metadata of an unknown topic' },
  'delivery.timeout.ms': { kind: 'int', min: 1, to: 'deliveryTimeoutMs', what: 'ms from send to acknowledgement, retries included' },
  'transaction.timeout.ms': { kind: 'int', min: 1, to: 'transactionTimeoutMs', what: 'ms the coordinator lets a transaction stay open' },
  'max.in.flight.requests.per.connection': {
    kind: 'int',
    min: 1,
    to: 'maxInFlightRequests',
    what: 'at most 5: sluice keeps one produce request per partition in flight, which satisfies every value from 1 to 5',
  },
  acks: {
    kind: 'choice',
    values: { all: {}, '-1': {}, '0': { refuse: EOS }, '1': { refuse: EOS } },
    what: "sluice's producers are idempotent and always wait for all in-sync replicas",
  },
  'enable.idempotence': { kind: 'choice', values: { true: {}, false: { refuse: EOS } }, what: "sluice's producers are always idempotent" },
  'transactional.id': { kind: 'refused', why: `sluice sets it per task ('<applicationId>-<taskId>'); ${EOS}` },
  retries: {
    kind: 'refused',
    why: "sluice retries a retriable send until 'delivery.timeout.ms' (Kafka's default retries); set 'delivery.timeout.ms' to bound it",
  },
  'compression.type': { kind: 'refused', why: "set the top-level 'compressionType'" },
  'partitioner.class': { kind: 'refused', why: 'give a partitioner per sink (Produced.withStreamPartitioner)' },
};

/** `consumerConfig`: the group consumer (and, for the network keys, the partition readers of restoration and standbys). */
export const CONSUMER_KEYS: Readonly<Record<string, ClientKey>> = {
  ...NETWORK,
  'session.timeout.ms': { kind: 'int', min: 1, to: 'sessionTimeoutMs', what: 'ms without heartbeat before the member is removed' },
  'heartbeat.interval.ms': { kind: 'int', min: 1, to: 'heartbeatIntervalMs', what: 'ms between heartbeats (below session.timeout.ms)' },
  'max.poll.interval.ms': { kind: 'int', min: 1, to: 'rebalanceTimeoutMs', what: 'ms a member may take to rejoin a rebalance (the rebalance timeout; kafkajs rebalanceTimeout)' },
  'max.partition.fetch.bytes': { kind: 'int', min: 1, to: 'maxBytesPerPartition', what: 'bytes fetched per partition per fetch' },
  'fetch.max.bytes': { kind: 'int', min: 1, to: 'fetchMaxBytes', what: 'bytes fetched per fetch request' },
  'fetch.min.bytes': { kind: 'int', min: 1, to: 'fetchMinBytes', what: 'bytes a fetch waits for (up to fetch.max.wait.ms)' },
  'fetch.max.wait.ms': { kind: 'int', min: 0, to: 'fetchMaxWaitMs', what: 'ms a fetch waits for fetch.min.bytes' },
  'isolation.level': {
    kind: 'choice',
    values: {
      read_committed: { to: 'isolationLevel', value: 'read_committed' },
      read_uncommitted: { to: 'isolationLevel', value: 'read_uncommitted' },
    },
    what: 'read_committed, or read_uncommitted under at_least_once only',
  },
  'auto.offset.reset': {
    kind: 'choice',
    values: { earliest: { to: 'autoOffsetReset', value: 'earliest' }, latest: { to: 'autoOffsetReset', value: 'latest' }, none: { refuse: "sluice has no 'none': use earliest or latest" } },
    what: 'where a partition without a committed offset starts',
  },
  'enable.auto.commit': { kind: 'choice', values: { false: {}, true: { refuse: `sluice commits offsets with its tasks; ${EOS}` } }, what: 'always false' },
  'group.id': { kind: 'refused', why: "the group id is the 'applicationId'" },
  'group.instance.id': { kind: 'refused', why: "set the top-level 'groupInstanceId'" },
  'partition.assignment.strategy': { kind: 'refused', why: "sluice's task assignor assigns the partitions" },
};

/** `adminConfig`: the admin client (topic creation, offsets, record purges). */
export const ADMIN_KEYS: Readonly<Record<string, ClientKey>> = {
  ...NETWORK,
  retries: { kind: 'int', min: 0, to: 'retries', what: 'how often a failed admin request is retried (kafkajs retry.retries)' },
};

/** The table of a client. */
export const CLIENT_KEYS: Readonly<Record<ClientKind, Readonly<Record<string, ClientKey>>>> = {
  producer: PRODUCER_KEYS,
  consumer: CONSUMER_KEYS,
  admin: ADMIN_KEYS,
};

/** The keys a client accepts (every key of its table that is not refused outright), for error messages and docs. */
export function acceptedKeys(client: ClientKind): string[] {
  return Object.entries(CLIENT_KEYS[client])
    .filter(([, spec]) => spec.kind !== 'refused')
    .map(([key]) => key)
    .sort();
}
