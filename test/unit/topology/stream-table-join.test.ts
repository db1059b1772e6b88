/**
 * sluice's side of stream–table joins: the fluent Joined, joins after a key
 * change (repartitioned through `<name>-repartition`), and the co-partition
 * rule at start (repartition topics sized to the table, differing external
 * topics refused with TOPICS_NOT_COPARTITIONED naming each topic).
 */
import { describe, expect, it } from 'vitest';
import { Consumed, IllegalArgumentError, Joined, Repartitioned, Serdes, StreamsBuilder, TopologyError, ValueJoinerWithKey } from '../../../src/index.js';
import { TopologyTestDriver } from '../../../src/testing.js';
import { toRuntime } from '../../../src/topology/topology-runtime.js';

const S = Serdes.String();
const C = Consumed.with(S, S);

function topologyError(fn: () => unknown): TopologyError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(TopologyError);
    return error as TopologyError;
  }
  throw new Error('expected a TopologyError');
}

/** orders (key: order id, value: customer id) re-keyed by customer and joined with the customers table. */
function rekeyedJoin(joined?: Joined<string, string, string>, repartitionPartitions?: number) {
  const builder = new StreamsBuilder();
  const customers = builder.table('customers', C);
  let orders = builder.stream('orders', C).selectKey((_order, customer) => customer);
  if (repartitionPartitions !== undefined) orders = orders.repartition(Repartitioned.with(S, S).withNumberOfPartitions(repartitionPartitions));
  const enriched = orders.join(customers, ValueJoinerWithKey.of((key, customer, name) => `${key}:${customer}:${name}`), joined);
  enriched.to('enriched', { keySerde: S, valueSerde: S });
  return builder.build();
}

describe('Joined', () => {
  it('is fluent and immutable, with Kafka-style helpers', () => {
    const base = Joined.with(S, Serdes.Int32(), S);
    const named = base.withName('enrich').withGracePeriod(0);
    expect(named).toMatchObject({ keySerde: S, otherValueSerde: S, name: 'enrich', gracePeriodMs: 0 });
    expect(base.name).toBeUndefined();
    expect(Object.isFrozen(named)).toBe(true);
    expect(Joined.as('j').withKeySerde(S).withValueSerde(S).withOtherValueSerde(S)).toMatchObject({ name: 'j', keySerde: S, valueSerde: S, otherValueSerde: S });
    expect(Joined.keySerde(S).keySerde).toBe(S);
    expect(Joined.valueSerde(S).valueSerde).toBe(S);
    expect(Joined.otherValueSerde(S).otherValueSerde).toBe(S);
    expect(Joined.with(null, null, null)).toEqual({});
    expect(() => Joined.as('bad name')).toThrow(TopologyError);
    expect(() => Joined.as('j').withGracePeriod(-1)).toThrow(IllegalArgumentError);
    expect(() => Joined.as('j').withOtherValueSerde(null as never)).toThrow("otherValueSerde can't be null");
  });

  it('a grace period (0 too, as Kafka) over a non-versioned table names the join and the fix; a null Joined is refused', () => {
    const builder = new StreamsBuilder();
    const stream = builder.stream('s', C);
    const table = builder.table('t', C);
    expect(topologyError(() => stream.join(table, (a, b) => a + b, Joined.as<string, string, string>('zero').withGracePeriod(0))).message).toMatch(
      /^KTable must be versioned to use a grace period in a stream table join\. The join after 'KSTREAM-SOURCE-0000000000' has a grace period of 0 ms: .*persistentVersionedKeyValueStore/,
    );
    expect(topologyError(() => stream.leftJoin(table, (a, b) => a + String(b), Joined.as<string, string, string>('g').withGracePeriod(10))).message).toMatch(
      /^KTable must be versioned to use a grace period in a stream table join\. .*grace period of 10 ms: .*or remove the grace period from the Joined/,
    );
    expect(() => stream.join(table, (a, b) => a + b, null as never)).toThrow("joined can't be null");
    expect(() => stream.join(table, null as never)).toThrow("joiner can't be null");
  });
});

describe('stream-table join after a key change', () => {
  it('repartitions the stream by the new key and joins on it, keeping the stream record timestamp', () => {
    const driver = new TopologyTestDriver(rekeyedJoin(Joined.with(S, S, S, 'by-customer')), { applicationId: 'stj' });
    const customers = driver.createInputTopic('customers', S, S);
    const orders = driver.createInputTopic('orders', S, S);
    const out = driver.createOutputTopic('enriched', S, S);
    customers.pipeInput('c1', 'Ada', 1);
    orders.pipeInput('o1', 'c1', 10);
    orders.pipeInput('o2', 'c2', 11);
    customers.pipeInput('c2', 'Bob', 12);
    orders.pipeInput('o3', 'c2', 13);
    customers.pipeInput('c1', null, 14);
    orders.pipeInput('o4', 'c1', 15);
    expect(out.readRecordsToList().map((r) => [r.key, r.value, r.timestamp])).toEqual([
      ['c1', 'c1:c1:Ada', 10],
      ['c2', 'c2:c2:Bob', 13],
    ]);
    expect(driver.producedTopicNames()).toContain('stj-by-customer-repartition');
    driver.close();
  });

  it('names the join and its repartition nodes after Joined.name, else after the stream node', () => {
    const named = rekeyedJoin(Joined.with(S, S, S, 'by-customer')).describe().toString();
    expect(named).toContain('Sink: by-customer-repartition-sink (topic: by-customer-repartition)');
    expect(named).toContain('Processor: by-customer (stores: [customers-STATE-STORE-0000000000])');
    const unnamed = rekeyedJoin(Joined.with(S, S, S)).describe().toString();
    expect(unnamed).toMatch(/Sink: KSTREAM-SINK-\d{10} \(topic: KSTREAM-KEY-SELECT-0000000004-repartition\)/);
    expect(unnamed).toMatch(/Processor: KSTREAM-JOIN-\d{10} \(stores: \[customers-STATE-STORE-0000000000\]\)/);
  });
});

describe('co-partitioning of joins', () => {
  it('sizes the repartition topic of a join to the table it joins (not to the stream it comes from)', () => {
    const runtime = toRuntime(rekeyedJoin(Joined.with(S, S, S, 'by-customer')), { applicationId: 'app' });
    expect(runtime.internalTopicPartitionCounts(new Map([['orders', 3], ['customers', 2]]))).toEqual(new Map([['app-by-customer-repartition', 2]]));
    expect(() => runtime.validatePartitionCounts(new Map([['orders', 3], ['customers', 2], ['app-by-customer-repartition', 2]]))).not.toThrow();
  });

  it('an internal topic sized from a re-sized one follows it', () => {
    const builder = new StreamsBuilder();
    const customers = builder.table('customers', C);
    builder
      .stream('orders', C)
      .selectKey((_o, c) => c)
      .join(customers, (c, n) => `${c}:${n}`, Joined.with(S, S, S, 'j'))
      .groupBy((_k, v) => v, { keySerde: S, valueSerde: S, name: 'by-value' })
      .count();
    const counts = toRuntime(builder.build(), { applicationId: 'app' }).internalTopicPartitionCounts(new Map([['orders', 6], ['customers', 2]]));
    expect(counts).toEqual(new Map([['app-j-repartition', 2], ['app-by-value-repartition', 2]]));
  });

  it('refuses external topics with different counts, naming each topic and its count', () => {
    const builder = new StreamsBuilder();
    builder.stream('orders', C).join(builder.table('customers', C), (o, c) => o + c).to('out', { keySerde: S, valueSerde: S });
    const runtime = toRuntime(builder.build(), { applicationId: 'app' });
    const error = topologyError(() => runtime.validatePartitionCounts(new Map([['orders', 3], ['customers', 2]])));
    expect(error.code).toBe('TOPICS_NOT_COPARTITIONED');
    expect(error.message).toMatch(/^Topics not co-partitioned: \[orders \(3 partitions\), customers \(2 partitions\)\]; a join needs the same number of partitions on both sides/);
    expect(() => runtime.validatePartitionCounts(new Map([['orders', 2], ['customers', 2]]))).not.toThrow();
  });

  it('a pattern source takes part with the topics it matches, once resolved', () => {
    const builder = new StreamsBuilder();
    builder.stream(/orders-.+/, C).join(builder.table('customers', C), (o, c) => o + c).to('out', { keySerde: S, valueSerde: S });
    const runtime = toRuntime(builder.build()).resolveSourcePatterns(['orders-eu', 'customers', 'out']);
    const error = topologyError(() => runtime.validatePartitionCounts(new Map([['orders-eu', 4], ['customers', 2]])));
    expect(error.message).toMatch(/^Topics not co-partitioned: \[orders-eu \(4 partitions\), customers \(2 partitions\)\]/);
  });

  it('refuses a repartition topic whose fixed count differs from the table it joins', () => {
    const runtime = toRuntime(rekeyedJoin(Joined.with(S, S, S, 'j'), 5), { applicationId: 'app' });
    const error = topologyError(() => runtime.internalTopicPartitionCounts(new Map([['orders', 3], ['customers', 2]])));
    expect(error.code).toBe('TOPICS_NOT_COPARTITIONED');
    expect(error.message).toMatch(/Number of partitions \[5\] of repartition topic \[app-KSTREAM-REPARTITION-\d{10}-repartition\] doesn't match number of partitions \[2\]/);
  });
});
