/**
 * The orders pipeline as an app module for the `sluice` CLI:
 *
 * ```sh
 * sluice run examples/orders/app.ts --embedded            # in-process cluster, seeded with 1,000 orders
 * KAFKA_BROKERS=127.0.0.1:9092 sluice run examples/orders/app.ts --metrics-port 9464
 * sluice describe examples/orders/app.ts --format mermaid
 * ```
 *
 * Environment: ORDERS_TOPIC_PREFIX (prefix of every topic name, default none),
 * ORDERS_SEED_COUNT (orders `setup` generates into the input topic; default
 * 1,000 on the embedded cluster, 0 on Kafka).
 */
import { deadLetterQueueHandler, defineApp } from '../../src/index.js';
import { customerRecords } from './customers.js';
import { generateOrders } from './generator.js';
import { produceRecords } from './io.js';
import { createOrdersTopics, ordersTopics } from './topics.js';
import { buildOrdersTopology } from './topology.js';

const topics = ordersTopics(process.env.ORDERS_TOPIC_PREFIX ?? '');
const dlq = deadLetterQueueHandler({ topic: topics.deadLetter, logLevel: 'info' });

export default defineApp({
  name: 'orders',
  config: {
    applicationId: 'orders-app',
    processingGuarantee: 'exactly_once',
    productionExceptionHandler: dlq,
    deserializationExceptionHandler: dlq,
  },
  async setup({ admin, cluster, embedded, logger }) {
    await createOrdersTopics(admin, topics);
    const seed = Number(process.env.ORDERS_SEED_COUNT ?? (embedded ? 1000 : 0));
    if (seed > 0) {
      await produceRecords(cluster, topics.customers, customerRecords(0, 3));
      const { records } = generateOrders({ count: seed, idPrefix: `o-${Date.now().toString(36)}` });
      await produceRecords(cluster, topics.input, records);
      logger.info({ topic: topics.input, orders: seed }, 'seeded input orders');
    }
  },
  topology: () => buildOrdersTopology(topics),
});
