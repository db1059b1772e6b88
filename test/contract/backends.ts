/**
 * The backends the cluster contract suite runs against: the embedded cluster
 * (always) and real Kafka through the kafkajs adapter (when a broker is
 * available; under REQUIRE_KAFKA=1 a missing broker or adapter fails).
 * Files carrying the exactly-once core also run on `kafka-secure`
 * (`backends({ kafkaSecure: true })`): the secure broker over SASL_SSL with
 * SCRAM-SHA-512, the admin for setup, and each app as the principal `contract`
 * holding only the least-privilege ACLs of its application (see `appCluster`).
 */
import type { AdminPort, ClusterPort, ConsumedRecord } from '../../src/cluster/port.js';
import { EmbeddedKafkaCluster } from '../../src/cluster/embedded/embedded-cluster.js';
import { kafkaBrokers, kafkaSkipReason, readAll } from '../helpers/index.js';
import { adminConfig, grantStreamsAcls, secureClientConfig, secureKafka, secureKafkaSkipReason } from '../helpers/secure-kafka.js';

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
  /**
   * The cluster an app under test connects with: `cluster`, except on `kafka-secure`, where it connects as
   * the principal `contract` after granting it exactly the least-privilege ACLs of the application
   * (test/helpers/secure-kafka.ts `grantStreamsAcls`). Input production and reads stay on `cluster` (admin).
   */
  appCluster(app: AppGrant): Promise<ClusterPort>;
  close(): Promise<void>;
}

/** What an app under test reads and writes (for the ACLs of `kafka-secure`). */
export interface AppGrant {
  applicationId: string;
  inputTopics: string[];
  outputTopics: string[];
}

/** A backend of the contract suite. */
export interface Backend {
  name: 'embedded' | 'kafka' | 'kafka-secure';
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
        appCluster: async () => cluster,
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
  let createKafkaCluster: CreateKafkaCluster;
  try {
    createKafkaCluster = await loadAdapter();
  } catch (e) {
    return unavailable(`kafkajs adapter not loadable (src/cluster/kafkajs/index.ts): ${(e as Error).message}`);
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
        appCluster: async () => cluster,
        close: () => admin.close(),
      };
    },
  };
}

/** createKafkaCluster with the TLS/SASL options of the secure client side (`ssl`, `sasl`). */
type CreateKafkaCluster = (o: { bootstrapServers: string[]; ssl?: unknown; sasl?: unknown }) => ClusterPort;

async function loadAdapter(): Promise<CreateKafkaCluster> {
  const modulePath = '../../src/cluster/kafkajs/index.js';
  return ((await import(/* @vite-ignore */ modulePath)) as { createKafkaCluster: CreateKafkaCluster }).createKafkaCluster;
}

async function kafkaSecure(): Promise<Backend> {
  const unavailable = (skipReason: string): Backend => {
    if (required) throw new Error(`REQUIRE_KAFKA=1 but the kafka-secure backend is unavailable: ${skipReason}`);
    return { name: 'kafka-secure', skipReason, create: () => Promise.reject(new Error(skipReason)) };
  };
  const info = secureKafka();
  if (!info) return unavailable(secureKafkaSkipReason() ?? 'no secure Kafka broker');
  let createKafkaCluster: CreateKafkaCluster;
  try {
    createKafkaCluster = await loadAdapter();
  } catch (e) {
    return unavailable(`kafkajs adapter not loadable (src/cluster/kafkajs/index.ts): ${(e as Error).message}`);
  }
  const as = (user: string) => {
    const { ssl, sasl } = secureClientConfig(user, 'scram-sha-512', info);
    return createKafkaCluster({ bootstrapServers: info.bootstrap, ssl, sasl });
  };
  return {
    name: 'kafka-secure',
    async create() {
      const cluster = as('admin');
      const admin = cluster.admin();
      return {
        cluster,
        admin,
        read: (topic, isolation = 'read_committed') => readAll(info.bootstrap, topic, { isolation, client: adminConfig(info) }),
        patienceMs: 45_000,
        consumerTiming: { sessionTimeoutMs: 10_000, heartbeatIntervalMs: 500 },
        async appCluster(app) {
          // 1. exactly the application's least privilege for `contract`; 2. a cluster connected as `contract`
          await grantStreamsAcls('contract', app, info);
          return as('contract');
        },
        close: async () => {
          await admin.close();
        },
      };
    },
  };
}

/**
 * The embedded backend and the kafka backend (possibly marked skipped, with the reason);
 * with `kafkaSecure`, also the kafka-secure backend (SASL_SSL, least-privilege app principal).
 */
export async function backends(options: { kafkaSecure?: boolean } = {}): Promise<Backend[]> {
  return [embedded(), await kafka(), ...(options.kafkaSecure ? [await kafkaSecure()] : [])];
}

/** A broker's answer to a raw Produce v8 request for one partition. */
export interface RawProduceAnswer {
  errorCode: number;
  baseOffset: number;
  recordErrors: { batchIndex: number; message: string | null }[];
  errorMessage: string | null;
}

/**
 * Sends `records` (raw record-batch bytes) as a Produce v8 request (acks=-1)
 * for partition `partition` of `topic` straight to `broker` (`host:port`, the
 * partition leader) and decodes the answer. Lets the contract suite compare
 * the embedded broker's validation with a real broker's on identical bytes.
 */
export async function rawProduceV8(broker: string, topic: string, partition: number, records: Buffer, transactionalId: string | null = null): Promise<RawProduceAnswer> {
  const { connect } = await import('node:net');
  const str = (s: string | null) => {
    if (s === null) return Buffer.from([0xff, 0xff]);
    const b = Buffer.from(s);
    const len = Buffer.alloc(2);
    len.writeInt16BE(b.length);
    return Buffer.concat([len, b]);
  };
  const int = (v: number, size: 2 | 4) => {
    const b = Buffer.alloc(size);
    if (size === 2) b.writeInt16BE(v);
    else b.writeInt32BE(v);
    return b;
  };
  const body = Buffer.concat([
    int(0, 2), int(8, 2), int(1, 4), str('sluice-contract'),
    str(transactionalId), int(-1, 2), int(10_000, 4),
    int(1, 4), str(topic), int(1, 4), int(partition, 4), int(records.length, 4), records,
  ]);
  const [host, port] = broker.split(':');
  const response = await new Promise<Buffer>((resolve, reject) => {
    const socket = connect(Number(port), host!);
    let buf = Buffer.alloc(0);
    socket.on('data', (d) => {
      buf = Buffer.concat([buf, d]);
      if (buf.length >= 4 && buf.length >= 4 + buf.readInt32BE(0)) {
        socket.end();
        resolve(buf.subarray(4));
      }
    });
    socket.on('error', reject);
    socket.write(Buffer.concat([int(body.length, 4), body]));
  });
  let o = 4 + 4; // correlation id, topics count
  o += 2 + response.readInt16BE(o); // topic name
  o += 4 + 4; // partitions count, partition index
  const errorCode = response.readInt16BE(o);
  const baseOffset = Number(response.readBigInt64BE(o + 2));
  o += 2 + 8 + 8 + 8; // error, base offset, log append time, log start offset
  const recordErrors: RawProduceAnswer['recordErrors'] = [];
  const readString = (): string | null => {
    const len = response.readInt16BE(o);
    o += 2;
    if (len < 0) return null;
    const s = response.subarray(o, o + len).toString();
    o += len;
    return s;
  };
  for (let n = response.readInt32BE((o += 4) - 4); n > 0; n--) {
    const batchIndex = response.readInt32BE(o);
    o += 4;
    recordErrors.push({ batchIndex, message: readString() });
  }
  return { errorCode, baseOffset, recordErrors, errorMessage: readString() };
}
