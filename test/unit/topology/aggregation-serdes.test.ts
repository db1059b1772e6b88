/**
 * Serdes of aggregations: `count()` values are 8-byte big-endian longs
 * (Kafka's `LongSerializer` layout) by default, and after `groupBy` the
 * builder's default key serde is used instead of a silent JSON fallback.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Grouped, Serdes, StreamsBuilder } from '../../../src/index.js';
import { TopologyTestDriver } from '../../../src/testing.js';

const S = Serdes.String();
const B = Serdes.Buffer();

let driver: TopologyTestDriver | undefined;
afterEach(() => {
  driver?.close();
  driver = undefined;
});

/** Java's `LongSerializer`: 8 bytes, big-endian two's complement. */
function javaLong(n: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigInt64BE(BigInt(n));
  return b;
}

describe('aggregation serdes', () => {
  it('count() writes its values as Java longs by default (not the text "1")', () => {
    const b = new StreamsBuilder();
    b.stream('in', { keySerde: S, valueSerde: S }).groupByKey().count().toStream().to('out');
    driver = new TopologyTestDriver(b.build());
    const input = driver.createInputTopic('in', S, S);
    input.pipeInput('green', 'x');
    input.pipeInput('green', 'y');
    const out = driver.createOutputTopic('out', S, B).readKeyValuesToList();
    expect(out).toEqual([
      { key: 'green', value: javaLong(1) },
      { key: 'green', value: javaLong(2) },
    ]);
  });

  it('after groupBy the builder default key serde is used for the repartition topic, store and output', () => {
    const b = new StreamsBuilder({ defaultKeySerde: S, defaultValueSerde: S });
    b.stream('in').groupBy((_k, v) => v).count().toStream().to('out');
    driver = new TopologyTestDriver(b.build());
    driver.createInputTopic('in', S, S).pipeInput('k', 'green');
    const out = driver.createOutputTopic('out', B, B).readKeyValuesToList();
    expect(out).toEqual([{ key: Buffer.from('green'), value: javaLong(1) }]);
  });

  it('Grouped.with(keySerde, ...) names the key serde after groupBy', () => {
    const b = new StreamsBuilder();
    b.stream('in', { keySerde: S, valueSerde: S })
      .groupBy((_k, v) => v, Grouped.with(S, S))
      .count()
      .toStream()
      .to('out');
    driver = new TopologyTestDriver(b.build());
    driver.createInputTopic('in', S, S).pipeInput('k', 'green');
    expect(driver.createOutputTopic('out', S, Serdes.Long()).readKeyValuesToList()).toEqual([{ key: 'green', value: 1 }]);
  });
});
