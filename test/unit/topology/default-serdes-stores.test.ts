/**
 * The runtime's `defaultKeySerde` / `defaultValueSerde` reach state stores and
 * every serde slot left empty, as Kafka's `default.key.serde` /
 * `default.value.serde` do (Kafka resolves a store's null serde from
 * `context.keySerde()` / `context.valueSerde()` when the store is initialised).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { JoinWindows, Materialized, Serdes, Stores, StreamsBuilder, Topology, type KeyValueStore, type ProcessorContext, type Record } from '../../../src/index.js';
import { TopologyTestDriver } from '../../../src/testing.js';
import { storeOf } from '../../helpers/store-of.js';

const S = Serdes.String();
const DEFAULTS = { defaultKeySerde: S, defaultValueSerde: S };
let driver: TopologyTestDriver | undefined;
afterEach(() => {
  driver?.close();
  driver = undefined;
});

describe('default serdes in state stores', () => {
  // Shape of Kafka's KStreamKStreamJoinTest (inner join, window 100): no serdes anywhere, the config defaults apply.
  it('a windowed join of streams whose values changed type stores them with the config defaults', () => {
    const b = new StreamsBuilder();
    const left = b.stream('left').mapValues((v) => `L${String(v)}`);
    const right = b.stream('right').mapValues((v) => `R${String(v)}`);
    left.join(right, (l, r) => `${String(l)}+${String(r)}`, JoinWindows.ofTimeDifferenceWithNoGrace(100)).to('out');
    driver = new TopologyTestDriver(b.build(), DEFAULTS);
    driver.createInputTopic('left', S, S).pipeInput('k', 'a', 0);
    driver.createInputTopic('right', S, S).pipeInput('k', 'b', 10);
    expect(driver.createOutputTopic('out', S, S).readKeyValuesToList()).toEqual([{ key: 'k', value: 'La+Rb' }]);
  });

  it('a second join of a join result (was: expected a Buffer, got string)', () => {
    const b = new StreamsBuilder();
    const w = JoinWindows.ofTimeDifferenceWithNoGrace(100);
    const a = b.stream('a');
    const c = b.stream('b');
    const d = b.stream('c');
    a.join(c, (x, y) => `${String(x)}${String(y)}`, w).join(d, (xy, z) => `${String(xy)}${String(z)}`, w).to('out');
    driver = new TopologyTestDriver(b.build(), DEFAULTS);
    driver.createInputTopic('a', S, S).pipeInput('k', '1', 0);
    driver.createInputTopic('b', S, S).pipeInput('k', '2', 1);
    driver.createInputTopic('c', S, S).pipeInput('k', '3', 2);
    expect(driver.createOutputTopic('out', S, S).readKeyValuesToList()).toEqual([{ key: 'k', value: '123' }]);
  });
});

describe('default serdes in a materialized table–table join store', () => {
  it('Materialized.as(name) without serdes uses the config defaults (was: a TopologyError at build)', () => {
    const b = new StreamsBuilder();
    const left = b.table('left');
    const right = b.table('right');
    left.join(right, (l, r) => `${String(l)}+${String(r)}`, Materialized.as('joined')).toStream().to('out');
    driver = new TopologyTestDriver(b.build(), DEFAULTS);
    driver.createInputTopic('left', S, S).pipeInput('k', 'a', 0);
    driver.createInputTopic('right', S, S).pipeInput('k', 'b', 1);
    expect(driver.createOutputTopic('out', S, S).readKeyValuesToList()).toEqual([{ key: 'k', value: 'a+b' }]);
    expect(storeOf(driver.getKeyValueStore('joined')).get('k')).toBe('a+b');
  });

  it('without a default the store names what to set when the topology is run', () => {
    const b = new StreamsBuilder();
    b.table('left').mapValues((v) => String(v)).join(b.table('right'), (l, r) => `${l}${String(r)}`, Materialized.as('joined'));
    expect(() => new TopologyTestDriver(b.build(), { defaultKeySerde: S })).toThrow(/store 'joined'.*'defaultValueSerde'/);
  });
});

describe('default serdes of a low-level Topology', () => {
  // As Kafka's TopologyTestDriverTest with default.key.serde / default.value.serde set: addSource/addSink without serdes use them.
  it('Topology.addSource / addSink without serdes use the config defaults', () => {
    const topology = new Topology()
      .addSource('source', 'in')
      .addProcessor('upper', () => {
        let context: ProcessorContext<unknown, string> | undefined;
        return { init: (c: ProcessorContext<unknown, string>) => void (context = c), process: (r: Record<unknown, unknown>) => context?.forward(r.withValue(String(r.value).toUpperCase())) };
      }, 'source')
      .addSink('sink', 'out', 'upper');
    driver = new TopologyTestDriver(topology, DEFAULTS);
    driver.createInputTopic('in', S, S).pipeInput('k', 'abc');
    expect(driver.createOutputTopic('out', S, S).readKeyValuesToList()).toEqual([{ key: 'k', value: 'ABC' }]);
  });

  it('null serdes mean the default too', () => {
    const topology = new Topology()
      .addSource('source', 'in', { keySerde: null as never, valueSerde: null as never })
      .addProcessor('inc', () => {
        let context: ProcessorContext<unknown, number> | undefined;
        return { init: (c: ProcessorContext<unknown, number>) => void (context = c), process: (r: Record<unknown, unknown>) => context?.forward(r.withValue((r.value as number) + 1)) };
      }, 'source')
      .addSink('sink', 'out', { keySerde: null as never, valueSerde: null as never }, 'inc');
    driver = new TopologyTestDriver(topology, { defaultKeySerde: S, defaultValueSerde: Serdes.Json<number>() });
    driver.createInputTopic('in', S, Serdes.Json<number>()).pipeInput('k', 42);
    expect(driver.createOutputTopic('out', S, S).readKeyValuesToList()).toEqual([{ key: 'k', value: '43' }]);
  });
});

describe('Stores builders given null serdes', () => {
  /** in -> a processor counting per key in a store built with null serdes -> out. */
  function counting(): Topology {
    return new Topology()
      .addSource('source', 'in')
      .addProcessor('count', () => {
        let context: ProcessorContext<unknown, string> | undefined;
        let store: KeyValueStore<string, string> | undefined;
        return {
          init: (c: ProcessorContext<unknown, string>) => {
            context = c;
            store = c.getStateStore<KeyValueStore<string, string>>('counts');
          },
          process: (r: Record<unknown, unknown>) => {
            const key = r.key as string;
            const next = String(Number(store?.get(key) ?? '0') + 1);
            store?.put(key, next);
            context?.forward(r.withValue(next));
          },
        };
      }, 'source')
      .addStateStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore('counts'), null, null), 'count')
      .addSink('sink', 'out', 'count');
  }

  // Kafka: KeyValueStoreBuilder with null serdes takes context.keySerde()/valueSerde() (the default serdes) at init.
  it('Stores.keyValueStoreBuilder(supplier, null, null) uses the config defaults', () => {
    driver = new TopologyTestDriver(counting(), DEFAULTS);
    const input = driver.createInputTopic('in', S, S);
    input.pipeInput('a', 'x');
    input.pipeInput('a', 'y');
    expect(driver.createOutputTopic('out', S, S).readValuesToList()).toEqual(['1', '2']);
    expect(storeOf(driver.getKeyValueStore('counts')).get('a')).toBe('2');
  });

  it('without a default the topology is refused naming the store and the config key', () => {
    expect(() => new TopologyTestDriver(counting())).toThrow(/Store 'counts' was built without a key serde.*'defaultKeySerde'/);
  });
});
