/**
 * Tables materialized on a versioned store (KIP-914), under the TopologyTestDriver:
 * - the table source keeps out-of-order updates as history, forwards them with
 *   `isLatest` false, and neither stores nor forwards an update older than the
 *   history retention;
 * - a stream–table join over a versioned table looks the key up as of the stream
 *   record's timestamp, so out-of-order table data joins correctly (a timestamped
 *   table joins whatever arrived last);
 * - a KGroupedStream aggregation may be materialized on a versioned store, as
 *   Kafka's (KIP-914): each aggregate is a new version at its (max) timestamp;
 *   a KGroupedTable aggregation can too
 *   (test/unit/topology/kafka/ktable/ktable-aggregate.test.ts); a global table
 *   cannot (Kafka: "GlobalTables cannot be versioned.").
 */
import { describe, expect, it } from 'vitest';
import { Materialized, Serdes, StreamsBuilder, Stores } from '../../../src/index.js';
import { TopologyTestDriver } from '../../../src/testing.js';

const S = Serdes.String();

function run(versioned: boolean) {
  const builder = new StreamsBuilder();
  const prices = builder.table('prices', { keySerde: S, valueSerde: S },
    versioned ? Materialized.as(Stores.persistentVersionedKeyValueStore('prices-store', 1000)) : Materialized.as('prices-store'));
  prices.toStream().to('price-changes', { keySerde: S, valueSerde: S });
  builder.stream('orders', { keySerde: S, valueSerde: S })
    .join(prices, (order, price) => `${order}@${price}`)
    .to('priced', { keySerde: S, valueSerde: S });
  const driver = new TopologyTestDriver(builder.build());
  try {
    const p = driver.createInputTopic('prices', S, S);
    const o = driver.createInputTopic('orders', S, S);
    p.pipeInput('apple', '1.00', 100);
    p.pipeInput('apple', '1.20', 300);
    p.pipeInput('apple', '1.10', 200); // out of order
    p.pipeInput('pear', '2.00', 2000); // stream time 2000: history before 1000 is beyond retention
    p.pipeInput('apple', '0.90', 500); // older than the retention
    o.pipeInput('apple', 'o1', 1500);
    p.pipeInput('plum', '3.00', 1600);
    p.pipeInput('plum', '3.50', 1800);
    p.pipeInput('plum', '3.20', 1700); // out of order
    o.pipeInput('plum', 'o2', 1650);
    o.pipeInput('plum', 'o3', 1750);
    o.pipeInput('plum', 'o4', 1900);
    return {
      changes: driver.createOutputTopic('price-changes', S, S).readKeyValuesToList().map((kv) => `${kv.key}=${kv.value}`),
      priced: driver.createOutputTopic('priced', S, S).readValuesToList(),
    };
  } finally {
    driver.close();
  }
}

describe('a table materialized on a versioned store (KIP-914)', () => {
  it('versioned: out-of-order updates forwarded (isLatest false), too-old ones dropped; the join looks up as of the stream time', () => {
    expect(run(true)).toEqual({
      changes: ['apple=1.00', 'apple=1.20', 'apple=1.10', 'pear=2.00', 'plum=3.00', 'plum=3.50', 'plum=3.20'],
      priced: ['o1@1.20', 'o2@3.00', 'o3@3.20', 'o4@3.50'],
    });
  });

  it('timestamped (the default): every update is the latest, the join sees what arrived last', () => {
    expect(run(false)).toEqual({
      changes: ['apple=1.00', 'apple=1.20', 'apple=1.10', 'pear=2.00', 'apple=0.90', 'plum=3.00', 'plum=3.50', 'plum=3.20'],
      priced: ['o1@0.90', 'o2@3.20', 'o3@3.20', 'o4@3.20'],
    });
  });

  it('a KGroupedStream count on a versioned store keeps each count as a version at its timestamp (the max seen for the key)', () => {
    const builder = new StreamsBuilder();
    const counts = builder.stream('in', { keySerde: S, valueSerde: S }).groupByKey().count(Materialized.as(Stores.persistentVersionedKeyValueStore('c', 1000)));
    counts.toStream().to('counts', { keySerde: S, valueSerde: Serdes.Long() });
    const driver = new TopologyTestDriver(builder.build());
    try {
      const input = driver.createInputTopic('in', S, S);
      input.pipeInput('a', 'x', 10);
      input.pipeInput('a', 'x', 20);
      input.pipeInput('a', 'x', 15); // stamped max(15, 20) = 20: replaces the version at 20
      input.pipeInput('b', 'x', 5);
      const out = driver.createOutputTopic('counts', S, Serdes.Long()).readKeyValuesToList();
      expect(out.map(({ key, value }) => `${key}=${value}`)).toEqual(['a=1', 'a=2', 'a=3', 'b=1']);
      const store = driver.getVersionedKeyValueStore<string, number>('c');
      expect(store?.get('a')).toEqual({ value: 3, timestamp: 20 });
      expect(store?.get('a', 15)).toMatchObject({ value: 1, timestamp: 10 });
      expect(store?.get('a', 9)).toBeNull();
      expect(store?.get('b', 5)).toMatchObject({ value: 1, timestamp: 5 });
    } finally {
      driver.close();
    }
  });

  it('a global table cannot be materialized on a versioned store (as Kafka)', () => {
    expect(() => new StreamsBuilder().globalTable('g', { keySerde: S, valueSerde: S }, Materialized.as(Stores.persistentVersionedKeyValueStore('g-store', 1000))))
      .toThrow("A global table (store 'g-store'): a versioned store supplier cannot materialize it yet");
  });
});
