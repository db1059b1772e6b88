/**
 * Quiet kafkajs clients for tests, and a tracker that disconnects every client
 * a test opened (registered as `afterEach`).
 */
import kafkajs from 'kafkajs';
import type { Admin, Consumer, ConsumerConfig, Kafka as KafkaClient, KafkaConfig, Producer, ProducerConfig } from 'kafkajs';
import { afterEach } from 'vitest';
import { sluiceKafkaJs } from '../../src/cluster/kafkajs/internal/patches.js';
import { uniqueName } from './names.js';

const { logLevel } = kafkajs;

/** kafkajs log level for tests: NOTHING unless SLUICE_KAFKAJS_LOG=error|warn|info|debug. */
export function testLogLevel(): kafkajs.logLevel {
  switch (process.env.SLUICE_KAFKAJS_LOG?.toLowerCase()) {
    case 'error':
      return logLevel.ERROR;
    case 'warn':
      return logLevel.WARN;
    case 'info':
      return logLevel.INFO;
    case 'debug':
      return logLevel.DEBUG;
    default:
      return logLevel.NOTHING;
  }
}

/**
 * A kafkajs `Kafka` for tests: quiet logs, short retries, unique client id.
 * Made from sluice's patched kafkajs copy (with its read_committed fix: kafkajs
 * 2.2.4 lets records of interleaved aborted transactions through), so test
 * readers see what a correct read_committed consumer sees.
 */
export function quietKafka(brokers: string[], config: Partial<KafkaConfig> = {}): KafkaClient {
  return new (sluiceKafkaJs().kafkajs.Kafka)({
    clientId: uniqueName('sluice-test'),
    brokers,
    logLevel: testLogLevel(),
    connectionTimeout: 3000,
    retry: { retries: 5, initialRetryTime: 100, maxRetryTime: 2000 },
    ...config,
  });
}

interface Closable {
  disconnect(): Promise<void>;
}

/** Opens kafkajs clients that are all disconnected by {@link ClientTracker.closeAll}. */
export interface ClientTracker {
  /** The tracker's `Kafka` instance (quiet, see {@link quietKafka}). */
  readonly kafka: KafkaClient;
  /** A tracked producer (not yet connected). */
  producer(config?: ProducerConfig): Producer;
  /** A tracked consumer (not yet connected); the group id defaults to a unique one. */
  consumer(config?: Partial<ConsumerConfig>): Consumer;
  /** A tracked admin client (not yet connected). */
  admin(): Admin;
  /** Tracks any client with `disconnect()`, e.g. one created elsewhere; returns it. */
  track<T extends Closable>(client: T): T;
  /** Disconnects every tracked client (newest first), then forgets them. Never throws. */
  closeAll(): Promise<void>;
}

/** A tracker without automatic cleanup: call `closeAll()` yourself. */
export function createClientTracker(brokers: string[], config: Partial<KafkaConfig> = {}): ClientTracker {
  const kafka = quietKafka(brokers, config);
  let open: Closable[] = [];
  const track = <T extends Closable>(client: T): T => {
    open.push(client);
    return client;
  };
  return {
    kafka,
    producer: (c) => track(kafka.producer(c)),
    consumer: (c = {}) => track(kafka.consumer({ groupId: uniqueName('test-consumer'), maxWaitTimeInMs: 100, ...c })),
    admin: () => track(kafka.admin()),
    track,
    async closeAll() {
      const clients = open.reverse();
      open = [];
      await Promise.all(clients.map((c) => c.disconnect().catch(() => undefined)));
    },
  };
}

/**
 * Call in a `describe` body (or at file top level): returns a tracker whose
 * clients are all disconnected after each test. `brokers` may be a function so
 * it is resolved lazily (inside the test), e.g. `useKafkaClients(requireBrokers)`.
 *
 * @example
 * const clients = useKafkaClients(() => brokers);
 * it('sends', async () => { const p = clients().producer(); await p.connect(); ... }); // closed afterEach
 */
export function useKafkaClients(brokers: string[] | (() => string[]), config: Partial<KafkaConfig> = {}): () => ClientTracker {
  let tracker: ClientTracker | undefined;
  afterEach(async () => {
    await tracker?.closeAll();
    tracker = undefined;
  });
  return () => {
    tracker ??= createClientTracker(typeof brokers === 'function' ? brokers() : brokers, config);
    return tracker;
  };
}
