/**
 * The Avro orders example: upstream producers write orders in the Confluent
 * wire format with two schema versions, a sluice app reads them into the
 * newest version (Avro schema resolution), prices them and writes Avro order
 * totals; records it cannot read (an unknown schema id, a plain JSON record)
 * go to a dead-letter topic. On the embedded cluster with the in-process
 * Schema Registry: no Kafka, no registry to install.
 */
import { deadLetterQueueHandler, DeadLetterHeaders, KafkaStreams, SchemaRegistrySerdes, Serdes, StreamsBuilder } from '../../src/index.js';
import { EmbeddedKafkaCluster, InProcessSchemaRegistry } from '../../src/testing.js';
import { ORDER_TOTAL, ORDER_V1, ORDER_V2, type Order, type OrderTotal } from './schemas.js';

/** Options of {@link runAvroOrders}. */
export interface AvroOrdersOptions {
  /** Orders to generate (default 1000). */
  count?: number;
  /** Prefix of the topic names and the application id (default `avro-`). */
  prefix?: string;
}

/** What the run saw. */
export interface AvroOrdersSummary {
  ordersV1: number;
  ordersV2: number;
  poison: number;
  totals: number;
  deadLetters: number;
  /** The schema ids of the dead letters' `sluice.error.schema.id` header (absent for the record that had none). */
  deadLetterSchemaIds: string[];
  /** The orders subject (`<prefix>orders-value`). */
  ordersSubject: string;
  /** Subjects in the registry afterwards, with their versions. */
  subjects: Record<string, number[]>;
  /** The totals read back equal the ones computed from the generated orders. */
  totalsMatch: boolean;
}

const UNKNOWN_SCHEMA_ID = 4242;

function totalOf(o: Order): OrderTotal {
  const discounted = o.coupon !== 'none';
  const gross = o.qty * o.priceCents;
  return { id: o.id, customer: o.customer, totalCents: discounted ? Math.round(gross * 0.9) : gross, discounted };
}

async function waitUntil(check: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Runs the example:
 * 1. start the registry and the cluster, create the topics;
 * 2. produce the orders: the first half with schema v1, the second with v2
 *    (each registered by its producer's serde), plus two poison records;
 * 3. run the app (exactly-once) until every total and dead letter is committed;
 * 4. read the totals back with a serde of their own and compare them.
 */
export async function runAvroOrders(options: AvroOrdersOptions = {}): Promise<AvroOrdersSummary> {
  const count = options.count ?? 1000;
  const prefix = options.prefix ?? 'avro-';
  const topics = { orders: `${prefix}orders`, totals: `${prefix}order-totals`, dlq: `${prefix}orders-dlq` };
  // 1.
  const registry = await InProcessSchemaRegistry.start();
  const cluster = new EmbeddedKafkaCluster();
  let app: KafkaStreams | undefined;
  try {
    const admin = cluster.admin();
    for (const topic of Object.values(topics)) await admin.createTopic(topic, { partitions: 3, config: {} });
    // 2.
    const url = registry.url;
    const v1 = SchemaRegistrySerdes.avro<Omit<Order, 'coupon'>>({ url, schema: ORDER_V1 });
    const v2 = SchemaRegistrySerdes.avro<Order>({ url, schema: ORDER_V2 });
    await v1.prepare?.(topics.orders);
    await v2.prepare?.(topics.orders);
    const orders: Order[] = [];
    const producer = cluster.producer({});
    await producer.connect();
    const records = [];
    for (let i = 0; i < count; i++) {
      const order: Order = { id: `o-${i}`, customer: `c-${i % 17}`, qty: 1 + (i % 5), priceCents: 199 + (i % 7) * 100, coupon: i >= count / 2 && i % 3 === 0 ? 'SAVE10' : 'none' };
      orders.push(order);
      const value = i < count / 2 ? v1.serialize(topics.orders, { id: order.id, customer: order.customer, qty: order.qty, priceCents: order.priceCents }) : v2.serialize(topics.orders, order);
      records.push({ key: Buffer.from(order.customer), value, headers: {}, timestamp: Date.now() });
    }
    const unknownId = Buffer.from([0, 0, 0, 0, 0]);
    unknownId.writeInt32BE(UNKNOWN_SCHEMA_ID, 1);
    records.push({ key: Buffer.from('c-x'), value: Buffer.concat([unknownId, Buffer.from([2, 0x78])]), headers: {}, timestamp: Date.now() });
    records.push({ key: Buffer.from('c-y'), value: Buffer.from('{"id":"plain-json"}'), headers: {}, timestamp: Date.now() });
    for (const [i, record] of records.entries()) await producer.produce({ topic: topics.orders, partition: i % 3, records: [record] });
    await producer.close();
    // 3.
    const builder = new StreamsBuilder();
    builder
      .stream<string, Order>(topics.orders, { keySerde: Serdes.String(), valueSerde: SchemaRegistrySerdes.avro<Order>({ url, schema: ORDER_V2 }) })
      .mapValues(totalOf)
      .to(topics.totals, { keySerde: Serdes.String(), valueSerde: SchemaRegistrySerdes.avro<OrderTotal>({ url, schema: ORDER_TOTAL }) });
    app = new KafkaStreams(builder.build(), {
      cluster,
      applicationId: `${prefix}orders-app`,
      processingGuarantee: 'exactly_once_v2',
      commitIntervalMs: 100,
      deserializationExceptionHandler: deadLetterQueueHandler({ topic: topics.dlq, logLevel: 'silent' }),
    });
    await app.start();
    await waitUntil(async () => (await cluster.readCommitted(topics.totals)).length >= count && (await cluster.readCommitted(topics.dlq)).length >= 2, `${count} totals and 2 dead letters`);
    await app.close();
    app = undefined;
    // 4.
    const reader = SchemaRegistrySerdes.avro<OrderTotal>({ url });
    const written = await cluster.readCommitted(topics.totals);
    await Promise.all(written.map((r) => reader.resolve?.(topics.totals, r.value)));
    const totals = new Map(written.map((r) => [reader.deserialize(topics.totals, r.value).id, reader.deserialize(topics.totals, r.value)]));
    const totalsMatch = totals.size === count && orders.every((o) => JSON.stringify(totals.get(o.id)) === JSON.stringify(totalOf(o)));
    const dead = await cluster.readCommitted(topics.dlq);
    const subjects: Record<string, number[]> = {};
    for (const subject of (await (await fetch(`${url}/subjects`)).json()) as string[]) {
      subjects[subject] = (await (await fetch(`${url}/subjects/${subject}/versions`)).json()) as number[];
    }
    return {
      ordersV1: Math.ceil(count / 2),
      ordersV2: count - Math.ceil(count / 2),
      poison: 2,
      totals: written.length,
      deadLetters: dead.length,
      deadLetterSchemaIds: dead.map((d) => d.headers[DeadLetterHeaders.ERROR_SCHEMA_ID]).filter((h) => h !== undefined && h !== null).map(String),
      ordersSubject: `${topics.orders}-value`,
      subjects,
      totalsMatch,
    };
  } finally {
    await app?.close();
    await cluster.close();
    await registry.close();
  }
}

/** True when the run is what the example promises. */
export function avroSummaryOk(s: AvroOrdersSummary, count: number): boolean {
  return (
    s.totals === count &&
    s.totalsMatch &&
    s.deadLetters === 2 &&
    s.deadLetterSchemaIds.join(',') === String(UNKNOWN_SCHEMA_ID) &&
    s.subjects[s.ordersSubject]?.join(',') === '1,2'
  );
}
