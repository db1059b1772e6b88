/**
 * The kafkajs adapter of the cluster port: real Kafka through kafkajs 2.2.4.
 *
 * ```ts
 * const cluster = createKafkaCluster({ bootstrapServers: ['127.0.0.1:9092'] });
 * const admin = cluster.admin();
 * await admin.createTopic('orders', { partitions: 3 });
 * ```
 *
 * Creating a cluster registers, once per process, Produce v8 (KIP-467 record
 * errors) and a JoinGroup generation-id capture on kafkajs' shared request
 * modules (see `internal/produce-v8.ts`, `internal/join-generation.ts`).
 */
import kafkajs from 'kafkajs';
import { componentLogger, type Logger } from '../../internal/logger.js';
import type {
  AdminPort,
  ClusterPort,
  GroupConsumerOptions,
  GroupConsumerPort,
  RawProducerOptions,
  RawProducerPort,
} from '../port.js';
import { KafkaJsAdmin } from './internal/admin.js';
import { KafkaJsGroupConsumer } from './internal/group-consumer.js';
import { registerJoinGenerationCapture } from './internal/join-generation.js';
import { kafkaJsLevelFor, pinoLogCreator } from './internal/kafkajs-logger.js';
import { registerProduceV8 } from './internal/produce-v8.js';
import { installAbortedTransactionFilter } from './internal/fetch-aborted-filter.js';
import { KafkaJsRawProducer } from './internal/raw-producer.js';

const { Kafka } = kafkajs;
type Kafka = InstanceType<typeof Kafka>;

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
}

/** The kafkajs implementation of {@link ClusterPort} (`kind: 'kafka'`). */
export class KafkaJsCluster implements ClusterPort {
  readonly kind = 'kafka' as const;
  private readonly options: KafkaClusterOptions;
  private readonly logger: Logger;
  private readonly kafkaLogger: Logger;
  private readonly clients = new Map<string, Kafka>();

  constructor(options: KafkaClusterOptions) {
    if (options.bootstrapServers.length === 0) throw new TypeError('createKafkaCluster: bootstrapServers must name at least one broker');
    this.options = options;
    this.logger = componentLogger('kafka-cluster', options.logger);
    this.kafkaLogger = componentLogger('kafkajs', options.logger);
    registerProduceV8();
    installAbortedTransactionFilter();
    registerJoinGenerationCapture();
  }

  /** One kafkajs `Kafka` per client id (it only holds configuration; each client opens its own connections). */
  private kafka(clientId = this.options.clientId ?? 'sluice'): Kafka {
    let kafka = this.clients.get(clientId);
    if (!kafka) {
      kafka = new Kafka({
        clientId,
        brokers: this.options.bootstrapServers,
        connectionTimeout: this.options.connectionTimeoutMs ?? 3_000,
        requestTimeout: this.options.requestTimeoutMs ?? 30_000,
        logLevel: kafkaJsLevelFor(this.kafkaLogger),
        logCreator: pinoLogCreator(this.kafkaLogger),
      });
      this.clients.set(clientId, kafka);
    }
    return kafka;
  }

  admin(): AdminPort {
    return new KafkaJsAdmin(this.kafka());
  }

  producer(options: RawProducerOptions = {}): RawProducerPort {
    const logger = this.logger.child({ client: 'producer', transactionalId: options.transactionalId });
    return new KafkaJsRawProducer(this.kafka(options.clientId), options, logger);
  }

  consumer(options: GroupConsumerOptions): GroupConsumerPort {
    const logger = this.logger.child({ client: 'consumer', groupId: options.groupId });
    return new KafkaJsGroupConsumer(this.kafka(options.clientId), options, logger);
  }
}

/** Creates the kafkajs-backed cluster port for real Kafka. */
export function createKafkaCluster(options: KafkaClusterOptions): ClusterPort {
  return new KafkaJsCluster(options);
}
