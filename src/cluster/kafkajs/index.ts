/**
 * The kafkajs adapter of the cluster port: real Kafka through kafkajs 2.2.4.
 *
 * ```ts
 * const cluster = createKafkaCluster({ bootstrapServers: ['127.0.0.1:9092'] });
 * const admin = cluster.admin();
 * await admin.createTopic('orders', { partitions: 3 });
 * ```
 *
 * Its kafkajs clients come from sluice's own patched copy of kafkajs (Produce
 * v8 record errors, a correct read_committed filter, the JoinGroup generation
 * id: `internal/patches.ts`); a kafkajs the application imports itself is
 * never patched. Creating a cluster checks the kafkajs version and the patched
 * internals first and throws `UNSUPPORTED_KAFKAJS` when they differ from what
 * was verified.
 */
import type { Kafka, SASLOptions } from 'kafkajs';
import { componentLogger, type Logger } from '../../internal/logger.js';
import { checkSasl, checkSsl, copySasl, type SaslConfig, type SslConfig } from './connection-security.js';
import type {
  AdminOptions,
  AdminPort,
  ClientConnectionOptions,
  ClusterPort,
  GroupConsumerOptions,
  GroupConsumerPort,
  PartitionReaderOptions,
  PartitionReaderPort,
  RawProducerOptions,
  RawProducerPort,
} from '../port.js';
import { KafkaJsAdmin } from './internal/admin.js';
import { KafkaJsGroupConsumer } from './internal/group-consumer.js';
import { kafkaJsLevelFor, pinoLogCreator } from './internal/kafkajs-logger.js';
import { sluiceKafkaJs, type SluiceKafkaJs } from './internal/patches.js';
import { KafkaJsRawProducer } from './internal/raw-producer.js';
import { connectionFacts, registerConnectionFacts, type ConnectionFacts } from './internal/security-errors.js';
import { KafkaJsPartitionReader } from './internal/partition-reader.js';

export { mapKafkaJsError, mapProducerError } from './internal/error-mapping.js';

/** Options of {@link createKafkaCluster}. */
export interface KafkaClusterOptions {
  /** `host:port` of one or more brokers. */
  bootstrapServers: string[];
  /** kafkajs client id (default `sluice`); a producer or consumer may set its own. */
  clientId?: string;
  /** Parent logger; kafkajs logs go to its child `{ component: 'kafkajs' }`. */
  logger?: Logger;
  /** Connection timeout (ms) of kafkajs, default 3000. */
  connectionTimeoutMs?: number;
  /** Request timeout (ms) of kafkajs, default 30000. */
  requestTimeoutMs?: number;
  /**
   * TLS: `true` (the system's trusted CAs) or Node's `tls.ConnectionOptions` (`ca`, `cert` + `key` for mutual
   * TLS, `servername`, `rejectUnauthorized`). Default: plaintext.
   */
  ssl?: SslConfig;
  /**
   * SASL login: `{ mechanism: 'plain' | 'scram-sha-256' | 'scram-sha-512', username, password }` or
   * `{ mechanism: 'oauthbearer', oauthBearerProvider }`. Every kafkajs client gets its own copy.
   */
  sasl?: SaslConfig;
}

/** The kafkajs implementation of {@link ClusterPort} (`kind: 'kafka'`). */
export class KafkaJsCluster implements ClusterPort {
  readonly kind = 'kafka' as const;
  private readonly options: KafkaClusterOptions;
  private readonly logger: Logger;
  private readonly kafkaLogger: Logger;
  private readonly patched: SluiceKafkaJs;
  private readonly ssl: SslConfig | undefined;
  private readonly sasl: SaslConfig | undefined;
  /** Shared by every client of this cluster: brokers, TLS, mechanism, user, whether the cluster ever answered. */
  private readonly facts: ConnectionFacts;

  constructor(options: KafkaClusterOptions) {
    if (options.bootstrapServers.length === 0) throw new TypeError('createKafkaCluster: bootstrapServers must name at least one broker');
    this.ssl = checkSsl(options.ssl, 'createKafkaCluster: ssl');
    this.sasl = checkSasl(options.sasl, 'createKafkaCluster: sasl');
    this.facts = connectionFacts({
      brokers: options.bootstrapServers,
      ssl: this.ssl,
      sasl: this.sasl && { mechanism: this.sasl.mechanism, username: 'username' in this.sasl ? this.sasl.username : undefined },
    });
    this.options = options;
    this.logger = componentLogger('kafka-cluster', options.logger);
    this.kafkaLogger = componentLogger('kafkajs', options.logger);
    this.patched = sluiceKafkaJs();
  }

  /**
   * A new kafkajs `Kafka` for each client (it only holds configuration; each client opens its own
   * connections), with its own copy of the `sasl` object: kafkajs stores its login closure on that object
   * (`broker/saslAuthenticator/index.js`), so clients must never share one. A client's `connection`
   * (Kafka's `request.timeout.ms`, `socket.connection.setup.timeout.ms`) wins over the cluster's options.
   */
  private kafka(clientId = this.options.clientId ?? 'sluice', connection: ClientConnectionOptions = {}): Kafka {
    const kafka = new this.patched.kafkajs.Kafka({
      clientId,
      brokers: this.options.bootstrapServers,
      connectionTimeout: connection.connectionTimeoutMs ?? this.options.connectionTimeoutMs ?? 3_000,
      requestTimeout: connection.requestTimeoutMs ?? this.options.requestTimeoutMs ?? 30_000,
      logLevel: kafkaJsLevelFor(this.kafkaLogger),
      logCreator: pinoLogCreator(this.kafkaLogger),
      ...(this.ssl === undefined ? {} : { ssl: this.ssl }),
      ...(this.sasl === undefined ? {} : { sasl: copySasl(this.sasl) as SASLOptions }),
    });
    registerConnectionFacts(kafka, this.facts);
    return kafka;
  }

  admin(options: AdminOptions = {}): AdminPort {
    return new KafkaJsAdmin(this.kafka(undefined, options.connection), options.connection);
  }

  producer(options: RawProducerOptions = {}): RawProducerPort {
    const logger = this.logger.child({ client: 'producer', transactionalId: options.transactionalId });
    return new KafkaJsRawProducer(this.kafka(options.clientId, options.connection), options, logger);
  }

  /** An assign-based partition reader (restoration); see PartitionReaderPort. */
  reader(options: PartitionReaderOptions = {}): PartitionReaderPort {
    const logger = this.logger.child({ client: 'reader', isolationLevel: options.isolationLevel ?? 'read_committed' });
    return new KafkaJsPartitionReader(this.kafka(options.clientId, options.connection), options, logger);
  }

  consumer(options: GroupConsumerOptions): GroupConsumerPort {
    const logger = this.logger.child({ client: 'consumer', groupId: options.groupId });
    return new KafkaJsGroupConsumer(this.kafka(options.clientId, options.connection), options, logger);
  }
}

/** Creates the kafkajs-backed cluster port for real Kafka. */
export function createKafkaCluster(options: KafkaClusterOptions): ClusterPort {
  return new KafkaJsCluster(options);
}
