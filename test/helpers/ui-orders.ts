/**
 * The orders example running on a fresh embedded cluster with its live UI
 * served, and a feeder producing orders (poison ones included: the generator
 * mixes in undecodable and too-large orders) until stopped. Used by the
 * browser test and by scripts/ui-screenshot.ts (the README picture).
 */
import { pino } from 'pino';
import { deadLetterQueueHandler, KafkaStreams, type UiServer } from '../../src/index.js';
import { EmbeddedKafkaCluster } from '../../src/testing.js';
import { customerRecords } from '../../examples/orders/customers.js';
import { generateOrders } from '../../examples/orders/generator.js';
import { produceRecords } from '../../examples/orders/io.js';
import { buildOrdersTopology } from '../../examples/orders/topology.js';
import { createOrdersTopics, ordersTopics, type OrdersTopics } from '../../examples/orders/topics.js';

/** A running orders app with its UI. */
export interface OrdersWithUi {
  app: KafkaStreams;
  ui: UiServer;
  cluster: EmbeddedKafkaCluster;
  topics: OrdersTopics;
  /** Orders produced so far. */
  fed(): number;
  /** Stops the feeder (resolves once its last batch is written). */
  stopFeeding(): Promise<void>;
  /** Produces one undecodable order to partition 0 (a deserialization-handler decision); resolves with its offset once the feeder is stopped, else -1. */
  poison(): Promise<number>;
  /** Stops the feeder, closes the app (and its UI) and the cluster. */
  close(): Promise<void>;
}

/** Starts it; the feeder writes `batch` orders every `everyMs` (default 200 per 50 ms). */
export async function startOrdersWithUi(options: { batch?: number; everyMs?: number; applicationId?: string } = {}): Promise<OrdersWithUi> {
  const cluster = new EmbeddedKafkaCluster();
  const topics = ordersTopics('');
  const admin = cluster.admin();
  await createOrdersTopics(admin, topics, 3);
  await admin.close();
  const logger = pino({ level: 'silent' });
  const dlq = deadLetterQueueHandler({ topic: topics.deadLetter, logger, logLevel: 'debug' });
  const app = new KafkaStreams(buildOrdersTopology(topics), {
    applicationId: options.applicationId ?? 'orders-app',
    cluster,
    deserializationExceptionHandler: dlq,
    productionExceptionHandler: dlq,
    commitIntervalMs: 200,
    logger,
  });
  const ui = await app.serveUi({ port: 0 });
  await app.start();
  await produceRecords(cluster, topics.customers, customerRecords(0, 3));
  const { records } = generateOrders({ count: 200_000, partitions: 3, seed: 5 });
  const batch = options.batch ?? 200;
  let next = 0;
  let stopped = false;
  const feeding = (async () => {
    while (!stopped && next < records.length) {
      await produceRecords(cluster, topics.input, records.slice(next, next + batch));
      next += batch;
      await new Promise((r) => setTimeout(r, options.everyMs ?? 50));
    }
  })();
  return {
    app,
    ui,
    cluster,
    topics,
    fed: () => next,
    stopFeeding: async () => {
      stopped = true;
      await feeding;
    },
    poison: async () => {
      const admin = cluster.admin();
      const [end] = stopped ? await admin.endOffsets(topics.input) : [-1];
      await admin.close();
      await produceRecords(cluster, topics.input, [{ key: 'poison-1', value: '{"id": "poison-1", not json', partition: 0 }]);
      return end ?? -1;
    },
    close: async () => {
      stopped = true;
      await feeding;
      await app.close();
      await cluster.close();
    },
  };
}
