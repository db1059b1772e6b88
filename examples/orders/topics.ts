/**
 * The topics of the orders example and their configs.
 */
import type { AdminPort, NewTopic } from '../../src/cluster/port.js';
import type { Region } from './model.js';

/** Names of the example's topics. */
export interface OrdersTopics {
  input: string;
  regions: Record<Region, string>;
  /** Compacted, keyed by order id: a null key is poison. */
  status: string;
  deadLetter: string;
  /** Compacted, keyed by region: the running revenue per region (a stateful step, restored after a restart). */
  revenue: string;
  /** Compacted, keyed by customer id: the customers table the orders are joined with. */
  customers: string;
  /** Each valid order joined with its customer (keyed by customer id). */
  customerOrders: string;
}

/** `max.message.bytes` of the region topics: small, so an order with a huge note is poison. */
export const REGION_MAX_MESSAGE_BYTES = 2048;

/** Topic names with an optional prefix (e.g. a unique one per run on a shared Kafka). */
export function ordersTopics(prefix = ''): OrdersTopics {
  return {
    input: `${prefix}orders`,
    regions: { eu: `${prefix}orders-eu`, na: `${prefix}orders-na`, apac: `${prefix}orders-apac` },
    status: `${prefix}order-status`,
    deadLetter: `${prefix}orders-dlq`,
    revenue: `${prefix}revenue-by-region`,
    customers: `${prefix}customers`,
    customerOrders: `${prefix}orders-with-customer`,
  };
}

/** Topic creation specs. */
export function topicSpecs(topics: OrdersTopics, partitions = 3): Array<[string, NewTopic]> {
  const small = { 'max.message.bytes': String(REGION_MAX_MESSAGE_BYTES) };
  return [
    [topics.input, { partitions }],
    [topics.regions.eu, { partitions, config: small }],
    [topics.regions.na, { partitions, config: small }],
    [topics.regions.apac, { partitions, config: small }],
    [topics.status, { partitions, config: { 'cleanup.policy': 'compact' } }],
    [topics.deadLetter, { partitions: 1 }],
    [topics.revenue, { partitions, config: { 'cleanup.policy': 'compact' } }],
    [topics.customers, { partitions, config: { 'cleanup.policy': 'compact' } }],
    [topics.customerOrders, { partitions }],
  ];
}

/** Every output topic (region topics, status, dead-letter). */
export function outputTopics(topics: OrdersTopics): string[] {
  return [...Object.values(topics.regions), topics.status, topics.deadLetter];
}

/** Creates the topics that do not exist yet. */
export async function createOrdersTopics(admin: AdminPort, topics: OrdersTopics, partitions = 3): Promise<void> {
  const existing = new Set(await admin.listTopics());
  for (const [name, spec] of topicSpecs(topics, partitions)) {
    if (!existing.has(name)) await admin.createTopic(name, spec);
  }
}
