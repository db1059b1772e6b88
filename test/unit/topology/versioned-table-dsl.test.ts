/**
 * sluice's checks of versioned semantics through the DSL (KIP-914/KIP-923)
 * beyond the ported Kafka cases:
 * - a filter or mapValues without a store of its own passes the versioned
 *   table through: a stream–table join looks it up as of the stream record's
 *   timestamp, and may have a grace period;
 * - a filter with its own versioned store forwards its out-of-order updates
 *   with `isLatest` false (its store's put answers), which `groupBy` skips;
 * - a node with its own non-versioned store (a materialized mapValues, an
 *   unmaterialized table–table join, whose output Kafka marks not versioned)
 *   ends the versioned semantics: a grace period after it is a TopologyError.
 */
import { describe, expect, it } from 'vitest';
import { Joined, Materialized, Serdes, Stores, StreamsBuilder, TopologyError } from '../../../src/index.js';
import { TopologyTestDriver } from '../../../src/testing.js';

const S = Serdes.String();
const C = { keySerde: S, valueSerde: S };
const versioned = (name: string) => Materialized.as<string, string>(Stores.persistentVersionedKeyValueStore(name, 10_000));

describe('versioned semantics through the DSL', () => {
  it('a stream joined with mapValues of a versioned table looks up as of the stream time, also with a grace period', () => {
    const builder = new StreamsBuilder();
    const prices = builder.table('prices', C, versioned('prices-store')).mapValues((v) => `$${v}`);
    const orders = builder.stream('orders', C);
    orders.join(prices, (o, p) => `${o}@${p}`).to('priced', C);
    orders.join(prices, (o, p) => `${o}@${p}`, Joined.with(S, S, S, 'late', 100)).to('priced-late', C);
    const driver = new TopologyTestDriver(builder.build());
    try {
      const p = driver.createInputTopic('prices', S, S);
      const o = driver.createInputTopic('orders', S, S);
      p.pipeInput('apple', '1', 100);
      p.pipeInput('apple', '3', 300);
      o.pipeInput('apple', 'o1', 250); // as of 250: $1
      p.pipeInput('apple', '2', 200); // out of order: the history before 300
      o.pipeInput('apple', 'o2', 260); // as of 260: $2
      o.pipeInput('apple', 'o3', 400); // stream time 400: the late join's o1 and o2 are due (<= 300)
      expect(driver.createOutputTopic('priced', S, S).readValuesToList()).toEqual(['o1@$1', 'o2@$2', 'o3@$3']);
      // the grace join saw the out-of-order price before joining o1
      expect(driver.createOutputTopic('priced-late', S, S).readValuesToList()).toEqual(['o1@$2', 'o2@$2']);
    } finally {
      driver.close();
    }
  });

  it("a filter materialized on a versioned store answers isLatest from its own store: groupBy after it skips the filter's out-of-order updates", () => {
    const counts = (filterStore: 'versioned' | 'timestamped'): string[] => {
      const builder = new StreamsBuilder();
      const table = builder.table('colors', C, Materialized.as<string, string>('colors-store'));
      const filtered = table.filter(() => true, filterStore === 'versioned' ? versioned('filtered') : Materialized.as<string, string>('filtered'));
      filtered
        .groupBy((_k, v) => ({ key: v, value: v }), C)
        .count()
        .toStream()
        .to('counts', { keySerde: S, valueSerde: Serdes.Long() as never });
      const driver = new TopologyTestDriver(builder.build());
      try {
        const colors = driver.createInputTopic('colors', S, S);
        colors.pipeInput('A', 'x', 10);
        colors.pipeInput('B', 'x', 20);
        colors.pipeInput('A', 'y', 5); // out of order for A: the versioned filter keeps it as history only
        return driver.createOutputTopic('counts', S, Serdes.Long()).readKeyValuesToList().map((kv) => `${kv.key}=${String(kv.value)}`);
      } finally {
        driver.close();
      }
    };
    expect(counts('versioned')).toEqual(['x=1', 'x=2']);
    expect(counts('timestamped')).toEqual(['x=1', 'x=2', 'x=1', 'y=1']);
  });

  it('a grace period after a node with its own non-versioned store is a TopologyError', () => {
    const builder = new StreamsBuilder();
    const orders = builder.stream('orders', C);
    const source = builder.table('prices', C, versioned('prices-store'));
    const mapped = source.mapValues((v) => v, Materialized.as<string, string>('mapped-store'));
    expect(() => orders.join(mapped, (o, p) => o + p, Joined.with(S, S, S, 'j1', 10))).toThrow(TopologyError);
    const other = builder.table('other', C, versioned('other-store'));
    const joined = source.join(other, (a, b) => a + b);
    expect(() => orders.join(joined, (o, p) => o + p, Joined.with(S, S, S, 'j2', 10))).toThrow('KTable must be versioned to use a grace period in a stream table join.');
    // materialized on a versioned store, the joined table is versioned
    const joinedVersioned = source.join(other, (a, b) => a + b, versioned('joined-store'));
    expect(() => orders.join(joinedVersioned, (o, p) => o + p, Joined.with(S, S, S, 'j3', 10))).not.toThrow();
  });
});
