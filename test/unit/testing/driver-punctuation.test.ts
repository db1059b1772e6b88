/**
 * Punctuation in the TopologyTestDriver. Ported from Kafka Streams'
 * `TopologyTestDriverTest` (`shouldPunctuateOnStreamsTime`,
 * `shouldPunctuateOnWallClockTime`, and the `CustomMaxAggregator` cases:
 * `shouldFlushStoreForFirstInput`, `shouldNotUpdateStoreForSmallerValue`,
 * `shouldNotUpdateStoreForLargerValue`, `shouldUpdateStoreForNewKey`,
 * `shouldPunctuateIfEvenTimeAdvances`, `shouldPunctuateIfWallClockTimeAdvances`),
 * inputs and expected outputs unchanged. Each runs with a `Processor` added
 * by `Topology.addProcessor` and again with a `FixedKeyProcessor` under
 * `KStream.processValues` (its store declared by `stores()`), which must
 * punctuate the same way.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  Named,
  Serdes,
  Stores,
  StreamsBuilder,
  Topology,
  type FixedKeyProcessorContext,
  type FixedKeyRecord,
  type KeyValueStore,
  type PunctuationType,
  type StoreBuilder,
  StreamRecord,
} from '../../../src/index.js';
import { TopologyTestDriver } from '../../../src/testing.js';
import { storeOf } from '../../helpers/store-of.js';

const SOURCE_TOPIC_1 = 'source-topic-1';
const S = Serdes.String();
const L = Serdes.Long();
let testDriver: TopologyTestDriver | undefined;
afterEach(() => {
  testDriver?.close();
  testDriver = undefined;
});

type Flavour = 'processor' | 'processValues';
const flavours: Flavour[] = ['processor', 'processValues'];

/** TopologyTestDriverTest.setupSingleProcessorTopology: one processor (a MockProcessor) scheduling `callback`. */
function setupSingleProcessorTopology(flavour: Flavour, intervalMs: number, type: PunctuationType, callback: (ts: number) => void): Topology {
  if (flavour === 'processor') {
    return new Topology().addSource('source', SOURCE_TOPIC_1).addProcessor(
      'processor',
      () => ({
        init: (context) => void context.schedule(intervalMs, type, callback),
        process() {},
      }),
      'source',
    );
  }
  const builder = new StreamsBuilder();
  builder.stream(SOURCE_TOPIC_1).processValues(
    () => ({
      init: (context) => void context.schedule(intervalMs, type, callback),
      process() {},
    }),
    Named.as('processor'),
  );
  return builder.build();
}

describe.each(flavours)('TopologyTestDriverTest punctuation (%s)', (flavour) => {
  const key1 = Buffer.from('key1');
  const value1 = Buffer.from('value1');
  const pipe = (timestamp: number) => testDriver?.createInputTopic(SOURCE_TOPIC_1, Serdes.Buffer(), Serdes.Buffer()).pipeInput(key1, value1, timestamp);

  /** TopologyTestDriverTest.shouldPunctuateOnStreamsTime */
  it('shouldPunctuateOnStreamsTime', () => {
    const punctuatedAt: number[] = [];
    testDriver = new TopologyTestDriver(setupSingleProcessorTopology(flavour, 10, 'STREAM_TIME', (ts) => void punctuatedAt.push(ts)));
    const expected: number[] = [];
    const step = (timestamp: number, fires: boolean) => {
      if (fires) expected.push(timestamp);
      pipe(timestamp);
      expect(punctuatedAt).toEqual(expected);
    };
    step(42, true);
    step(42, false);
    step(51, true);
    step(52, false);
    step(61, true);
    step(65, false);
    step(71, true);
    step(72, false);
    step(95, true);
    step(101, true);
    step(102, false);
  });

  /** TopologyTestDriverTest.shouldPunctuateOnWallClockTime */
  it('shouldPunctuateOnWallClockTime', () => {
    const punctuatedAt: number[] = [];
    testDriver = new TopologyTestDriver(setupSingleProcessorTopology(flavour, 10, 'WALL_CLOCK_TIME', (ts) => void punctuatedAt.push(ts)), { initialWallClockTimeMs: 0 });
    const expected: number[] = [];
    testDriver.advanceWallClockTime(5);
    expect(punctuatedAt).toEqual(expected);
    expected.push(14);
    testDriver.advanceWallClockTime(9);
    expect(punctuatedAt).toEqual(expected);
    testDriver.advanceWallClockTime(1);
    expect(punctuatedAt).toEqual(expected);
    expected.push(35);
    testDriver.advanceWallClockTime(20);
    expect(punctuatedAt).toEqual(expected);
    expected.push(40);
    testDriver.advanceWallClockTime(5);
    expect(punctuatedAt).toEqual(expected);
  });
});

/**
 * TopologyTestDriverTest.setup with CustomMaxAggregator: keeps the max per
 * key in `aggStore`, and every minute of wall-clock time and every 10 s of
 * stream time forwards the whole store. The fixed-key flavour can forward
 * only records derived from its inputs, so it remembers the last input
 * record of each key and forwards `withValue(max).withTimestamp(ts)`; for
 * keys it never received (the pre-populated `a`) it forwards nothing unless
 * a record of that key came by.
 */
function setup(flavour: Flavour): KeyValueStore<string, number> {
  const storeBuilder: StoreBuilder<KeyValueStore<string, number>> = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore('aggStore'), S, L);
  let topology: Topology;
  if (flavour === 'processor') {
    topology = new Topology()
      .addSource('sourceProcessor', 'input-topic', { keySerde: S, valueSerde: L })
      .addProcessor<string, number, string, number>(
        'aggregator',
        () => {
          let store: KeyValueStore<string, number>;
          return {
            init(context) {
              const flushStore = (timestamp: number) => {
                for (const next of store.all()) context.forward(new StreamRecord(next.key, next.value, timestamp));
              };
              context.schedule(60_000, 'WALL_CLOCK_TIME', flushStore);
              context.schedule(10_000, 'STREAM_TIME', flushStore);
              store = context.getStateStore('aggStore');
            },
            process(record) {
              const oldValue = store.get(record.key);
              if (oldValue === null || record.value > oldValue) store.put(record.key, record.value);
            },
          };
        },
        'sourceProcessor',
      )
      .addStateStore(storeBuilder, 'aggregator')
      .addSink('sinkProcessor', 'result-topic', { keySerde: S, valueSerde: L }, 'aggregator');
  } else {
    const builder = new StreamsBuilder();
    builder
      .stream('input-topic', { keySerde: S, valueSerde: L })
      .processValues<number>({
        get() {
          let store: KeyValueStore<string, number>;
          const last = new Map<string, FixedKeyRecord<string, number>>();
          let context: FixedKeyProcessorContext<string, number>;
          const flushStore = (timestamp: number) => {
            for (const next of store.all()) {
              const record = last.get(next.key);
              if (record !== undefined) context.forward(record.withValue(next.value).withTimestamp(timestamp));
            }
          };
          return {
            init(c) {
              context = c;
              c.schedule(60_000, 'WALL_CLOCK_TIME', flushStore);
              c.schedule(10_000, 'STREAM_TIME', flushStore);
              store = c.getStateStore('aggStore');
            },
            process(record) {
              last.set(record.key, record);
              const oldValue = store.get(record.key);
              if (oldValue === null || record.value > oldValue) store.put(record.key, record.value);
            },
          };
        },
        stores: () => [storeBuilder],
      })
      .to('result-topic', { keySerde: S, valueSerde: L });
    topology = builder.build();
  }
  testDriver = new TopologyTestDriver(topology, { defaultKeySerde: S, defaultValueSerde: L });
  const store = storeOf(testDriver.getKeyValueStore<string, number>('aggStore'));
  store.put('a', 21);
  return store;
}

function pipeInput(topic: string, key: string, value: number, time: number): void {
  testDriver?.createInputTopic(topic, S, L).pipeInput(key, value, time);
}

function readKeyValues(): Array<{ key: string | null; value: number | null }> {
  return testDriver?.createOutputTopic('result-topic', S, L).readKeyValuesToList() ?? [];
}

describe('TopologyTestDriverTest CustomMaxAggregator (processor)', () => {
  /** TopologyTestDriverTest.shouldFlushStoreForFirstInput */
  it('shouldFlushStoreForFirstInput', () => {
    setup('processor');
    pipeInput('input-topic', 'a', 1, 9999);
    expect(readKeyValues()).toEqual([{ key: 'a', value: 21 }]);
  });

  /** TopologyTestDriverTest.shouldNotUpdateStoreForSmallerValue */
  it('shouldNotUpdateStoreForSmallerValue', () => {
    const store = setup('processor');
    pipeInput('input-topic', 'a', 1, 9999);
    expect(store.get('a')).toBe(21);
    expect(readKeyValues()).toEqual([{ key: 'a', value: 21 }]);
  });

  /** TopologyTestDriverTest.shouldNotUpdateStoreForLargerValue */
  it('shouldNotUpdateStoreForLargerValue', () => {
    const store = setup('processor');
    pipeInput('input-topic', 'a', 42, 9999);
    expect(store.get('a')).toBe(42);
    expect(readKeyValues()).toEqual([{ key: 'a', value: 42 }]);
  });

  /** TopologyTestDriverTest.shouldUpdateStoreForNewKey */
  it('shouldUpdateStoreForNewKey', () => {
    const store = setup('processor');
    pipeInput('input-topic', 'b', 21, 9999);
    expect(store.get('b')).toBe(21);
    expect(readKeyValues()).toEqual([
      { key: 'a', value: 21 },
      { key: 'b', value: 21 },
    ]);
  });

  /** TopologyTestDriverTest.shouldPunctuateIfEvenTimeAdvances */
  it('shouldPunctuateIfEvenTimeAdvances', () => {
    setup('processor');
    pipeInput('input-topic', 'a', 1, 9999);
    expect(readKeyValues()).toEqual([{ key: 'a', value: 21 }]);
    pipeInput('input-topic', 'a', 1, 9999);
    expect(readKeyValues()).toEqual([]);
    pipeInput('input-topic', 'a', 1, 10000);
    expect(readKeyValues()).toEqual([{ key: 'a', value: 21 }]);
  });

  /** TopologyTestDriverTest.shouldPunctuateIfWallClockTimeAdvances */
  it('shouldPunctuateIfWallClockTimeAdvances', () => {
    setup('processor');
    testDriver?.advanceWallClockTime(60000);
    expect(readKeyValues()).toEqual([{ key: 'a', value: 21 }]);
  });
});

describe('TopologyTestDriverTest CustomMaxAggregator as a fixed-key processor (processValues, store from stores())', () => {
  it('punctuates by stream time as the processor does (shouldNotUpdateStoreForLargerValue / shouldPunctuateIfEvenTimeAdvances inputs)', () => {
    const store = setup('processValues');
    pipeInput('input-topic', 'a', 42, 9999);
    expect(store.get('a')).toBe(42);
    expect(readKeyValues()).toEqual([{ key: 'a', value: 42 }]);
    pipeInput('input-topic', 'a', 1, 9999);
    expect(readKeyValues()).toEqual([]);
    pipeInput('input-topic', 'a', 1, 10000);
    expect(readKeyValues()).toEqual([{ key: 'a', value: 42 }]);
  });

  it('punctuates by wall-clock time: a minute later the remembered records are forwarded with the punctuation time', () => {
    setup('processValues');
    pipeInput('input-topic', 'b', 21, 9999);
    expect(readKeyValues()).toEqual([{ key: 'b', value: 21 }]); // 'a' was never received: no record to derive from
    const now = testDriver?.wallClockTimeMs ?? 0;
    testDriver?.advanceWallClockTime(60000);
    const out = testDriver?.createOutputTopic('result-topic', S, L).readRecordsToList() ?? [];
    expect(out.map(({ key, value, timestamp }) => ({ key, value, timestamp }))).toEqual([{ key: 'b', value: 21, timestamp: now + 60000 }]);
  });
});
