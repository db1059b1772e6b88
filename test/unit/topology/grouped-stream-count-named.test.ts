/**
 * `KGroupedStream.count(Named)` and `count(Named, Materialized)` (issue 29
 * item 13): Kafka's overloads name the aggregation's processor; the counts
 * are the same as `count()`'s.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Materialized, Named, Serdes, StreamsBuilder } from '../../../src/index.js';
import { TopologyTestDriver } from '../../../src/testing.js';

const S = Serdes.String();
const L = Serdes.Long();

let driver: TopologyTestDriver | undefined;
afterEach(() => {
  driver?.close();
  driver = undefined;
});

describe('KGroupedStream.count(Named)', () => {
  it('names the count processor and counts per key', () => {
    const b = new StreamsBuilder();
    b.stream('in', { keySerde: S, valueSerde: S }).groupByKey().count(Named.as('my-count')).toStream().to('out', { keySerde: S, valueSerde: L });
    const topology = b.build();
    expect(topology.describe().toString()).toContain('Processor: my-count (stores: [KSTREAM-AGGREGATE-STATE-STORE-0000000001])');
    driver = new TopologyTestDriver(topology);
    const input = driver.createInputTopic('in', S, S);
    input.pipeInput('a', 'x');
    input.pipeInput('a', 'y');
    input.pipeInput('b', 'z');
    expect(driver.createOutputTopic('out', S, L).readKeyValuesToList()).toEqual([
      { key: 'a', value: 1 },
      { key: 'a', value: 2 },
      { key: 'b', value: 1 },
    ]);
  });

  it('takes a name and a Materialized: the processor and the store get their names', () => {
    const b = new StreamsBuilder();
    b.stream('in', { keySerde: S, valueSerde: S }).groupByKey().count('counter', Materialized.as('counts'));
    const text = b.build().describe().toString();
    expect(text).toContain('Processor: counter (stores: [counts])');
  });

  it('keeps count(Materialized) and count() as before', () => {
    const b = new StreamsBuilder();
    b.stream('in', { keySerde: S, valueSerde: S }).groupByKey().count(Materialized.as('only-store'));
    expect(b.build().describe().toString()).toContain('Processor: KSTREAM-AGGREGATE-0000000001 (stores: [only-store])');
    const b2 = new StreamsBuilder();
    b2.stream('in', { keySerde: S, valueSerde: S }).groupByKey().count();
    expect(b2.build().describe().toString()).toContain('Processor: KSTREAM-AGGREGATE-0000000002 (stores: [KSTREAM-AGGREGATE-STATE-STORE-0000000001])');
  });
});
