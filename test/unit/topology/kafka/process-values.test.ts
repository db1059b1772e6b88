/**
 * Ported from Kafka Streams' `KStreamImplTest` (`shouldProcessValues`, the
 * `processValues` null-argument cases), `KStreamNewProcessorApiTest` (both
 * cases) and `KStreamTransformIntegrationTest` (the `transformValues` cases,
 * written with `processValues`, their KIP-820 successor; inputs and expected
 * outputs unchanged), plus the repartitioning rule of
 * `KStreamImpl.processValues` (the key-changing flag is kept, not set).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import {
  IllegalArgumentError,
  Named,
  Serdes,
  Stores,
  StreamsBuilder,
  type FixedKeyProcessor,
  type FixedKeyProcessorContext,
  type FixedKeyProcessorSupplier,
  type FixedKeyRecord,
  type KeyValueStore,
  type KStream,
  type StoreBuilder,
} from '../../../../src/index.js';
import { TopologyTestDriver } from '../../../../src/testing.js';
import { storeOf } from '../../../helpers/store-of.js';

const S = Serdes.String();
const I = Serdes.Int32();
const NULL = null as never;
// StreamsTestUtils.getStreamsConfig(Serdes.String(), Serdes.String())
const props = { applicationId: 'kstream-process-values-test', defaultKeySerde: S, defaultValueSerde: S };

function expectNull(call: () => unknown, message: string): void {
  let thrown: unknown;
  try {
    call();
  } catch (e) {
    thrown = e;
  }
  expect(thrown).toBeInstanceOf(IllegalArgumentError);
  expect((thrown as Error).message).toBe(message);
}

describe('KStreamImplTest: processValues null arguments', () => {
  let testStream: KStream<string, string>;
  const fixedKeyProcessorSupplier: FixedKeyProcessorSupplier<string, string, void> = () => ({ process() {} });
  beforeEach(() => {
    testStream = new StreamsBuilder().stream('source', { keySerde: S, valueSerde: S });
  });

  /** KStreamImplTest.shouldNotAllowNullProcessValuesSupplierOnProcess / ...OnProcessValuesWithStores / ...WithNamed / ...WithNamedAndStores */
  it('a null supplier', () => {
    expectNull(() => testStream.processValues(NULL), "processorSupplier can't be null");
    expectNull(() => testStream.processValues(NULL, 'storeName'), "processorSupplier can't be null");
    expectNull(() => testStream.processValues(NULL, Named.as('processor')), "processorSupplier can't be null");
    expectNull(() => testStream.processValues(NULL, Named.as('processor'), 'stateStore'), "processorSupplier can't be null");
  });

  /**
   * KStreamImplTest.shouldNotAllowNullStoreNameOnProcessValues / ...WithNamed.
   * (shouldNotAllowNullNamedOnProcessValues passes the same single null typed
   * as a Named; JavaScript cannot tell the two apart, so one null argument is
   * reported as a store name, as `process` does.)
   */
  it('a null store name', () => {
    expectNull(() => testStream.processValues(fixedKeyProcessorSupplier, NULL), "stateStoreNames can't be null");
    expectNull(() => testStream.processValues(fixedKeyProcessorSupplier, Named.as('processor'), NULL), "stateStoreNames can't be null");
  });

  /** KStreamImplTest.shouldNotAllowNullNamedOnProcessValuesWithStores (and shouldNotAllowNullNamedOnProcessWithStores) */
  it('a null Named followed by store names', () => {
    expectNull(() => testStream.processValues(fixedKeyProcessorSupplier, NULL, 'storeName'), "named can't be null");
    expectNull(() => testStream.process(() => ({ process() {} }), NULL, 'storeName'), "named can't be null");
  });
});

describe('KStreamImplTest.shouldProcessValues', () => {
  it('describes the named node and forwards the value lengths with the input timestamps', () => {
    const builder = new StreamsBuilder();
    builder
      .stream('input', { keySerde: S, valueSerde: S })
      .processValues<number>(
        () => {
          let context: FixedKeyProcessorContext<string, number>;
          return {
            init: (c) => void (context = c),
            process: (record: FixedKeyRecord<string, string>) => context.forward(record.withValue(record.value.length)),
          };
        },
        Named.as('fkp'),
      )
      .to('output', { valueSerde: I });

    expect(builder.build().describe().toString()).toBe(
      'Topologies:\n' +
        '   Sub-topology: 0\n' +
        '    Source: KSTREAM-SOURCE-0000000000 (topics: [input])\n' +
        '      --> fkp\n' +
        '    Processor: fkp (stores: [])\n' +
        '      --> KSTREAM-SINK-0000000001\n' +
        '      <-- KSTREAM-SOURCE-0000000000\n' +
        '    Sink: KSTREAM-SINK-0000000001 (topic: output)\n' +
        '      <-- fkp\n\n',
    );

    const driver = new TopologyTestDriver(builder.build(), props);
    try {
      const inputTopic = driver.createInputTopic('input', S, S);
      const outputTopic = driver.createOutputTopic('output', S, I);
      inputTopic.pipeInput('A', '0', 5);
      inputTopic.pipeInput('B', '00', 100);
      inputTopic.pipeInput('C', '000', 0);
      inputTopic.pipeInput('D', '0000', 0);
      inputTopic.pipeInput('A', '00000', 10);
      inputTopic.pipeInput('A', '000000', 8);
      expect(outputTopic.readRecordsToList().map(({ key, value, timestamp }) => ({ key, value, timestamp }))).toEqual([
        { key: 'A', value: 1, timestamp: 5 },
        { key: 'B', value: 2, timestamp: 100 },
        { key: 'C', value: 3, timestamp: 0 },
        { key: 'D', value: 4, timestamp: 0 },
        { key: 'A', value: 5, timestamp: 10 },
        { key: 'A', value: 6, timestamp: 8 },
      ]);
    } finally {
      driver.close();
    }
  });

  it('an unnamed processValues node is KSTREAM-PROCESSVALUES-<n>', () => {
    const builder = new StreamsBuilder();
    builder.stream('input').processValues(() => ({ process() {} }));
    expect(builder.build().describe().subtopologies[0]?.nodes.map((n) => n.name)).toEqual(['KSTREAM-SOURCE-0000000000', 'KSTREAM-PROCESSVALUES-0000000001']);
  });
});

/** KStreamNewProcessorApiTest.TransformerSupplier: a fixed-key supplier declaring `storeBuilder` through stores() (none when null). */
function transformerSupplier(storeBuilder: StoreBuilder<KeyValueStore<string, string>> | null): FixedKeyProcessorSupplier<string, string, string> {
  return {
    get() {
      let store: KeyValueStore<string, string>;
      let context: FixedKeyProcessorContext<string, string>;
      return {
        init(c) {
          context = c;
          store = c.getStateStore<KeyValueStore<string, string>>('store');
          if (store === null || store === undefined) throw new Error("State store can't be null");
        },
        process(record) {
          store.putIfAbsent(record.key, record.value + 'Updated');
          context.forward(record.withValue(record.value + 'Updated'));
        },
      };
    },
    stores: () => (storeBuilder !== null ? [storeBuilder] : null),
  };
}

describe('KStreamNewProcessorApiTest', () => {
  function runTest(shouldAddStoreDirectly: boolean): void {
    const builder = new StreamsBuilder();
    const storeBuilder = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore('store'), S, S);
    if (shouldAddStoreDirectly) builder.addStateStore(storeBuilder);
    builder
      .stream('input', { keySerde: S, valueSerde: S })
      .processValues(transformerSupplier(shouldAddStoreDirectly ? null : storeBuilder), 'store')
      .to('output', { keySerde: S, valueSerde: S });

    const words = [
      { key: 'a', value: 'foo' },
      { key: 'b', value: 'bar' },
      { key: 'c', value: 'baz' },
    ];
    const testDriver = new TopologyTestDriver(builder.build());
    try {
      const input = testDriver.createInputTopic('input', S, S);
      for (const { key, value } of words) input.pipeInput(key, value);
      const actualOutput = testDriver.createOutputTopic('output', S, S).readValuesToList();
      const stateStore = storeOf(testDriver.getKeyValueStore<string, string>('store'));
      expect(actualOutput).toEqual(['fooUpdated', 'barUpdated', 'bazUpdated']);
      expect(stateStore.get('a')).toBe('fooUpdated');
      expect(stateStore.get('b')).toBe('barUpdated');
      expect(stateStore.get('c')).toBe('bazUpdated');
    } finally {
      testDriver.close();
    }
  }

  /** KStreamNewProcessorApiTest.shouldGetStateStoreWithConnectedStoreProvider */
  it('should attach the state store using ConnectedStoreProvider', () => runTest(false));
  /** KStreamNewProcessorApiTest.shouldGetStateStoreWithStreamBuilder */
  it('should attach the state store StreamBuilder.addStateStore', () => runTest(true));
});

describe('KStreamTransformIntegrationTest: transformValues cases, with processValues', () => {
  const stateStoreName = 'myTransformState';
  const topic = 'stream';
  let builder: StreamsBuilder;
  let stream: KStream<number, number>;
  let results: Array<{ key: number; value: number }>;
  beforeEach(() => {
    builder = new StreamsBuilder();
    stream = builder.stream(topic, { keySerde: I, valueSerde: I });
    results = [];
  });
  const storeBuilder = () => Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(stateStoreName), I, I);
  const accumulateExpected = (key: number, value: number) => void results.push({ key, value });

  function verifyResult(expected: Array<{ key: number; value: number }>): void {
    const driver = new TopologyTestDriver(builder.build(), { defaultKeySerde: I, defaultValueSerde: I });
    try {
      driver.createInputTopic(topic, I, I).pipeKeyValueList([
        { key: 1, value: 1 },
        { key: 2, value: 2 },
        { key: 3, value: 3 },
        { key: 2, value: 1 },
        { key: 2, value: 3 },
        { key: 1, value: 3 },
      ]);
    } finally {
      driver.close();
    }
    expect(results).toEqual(expected);
  }

  /** TestValueTransformerWithKey as a fixed-key processor: value + the stored count of the key, which it increments. */
  const testValueProcessor = (): (() => FixedKeyProcessor<number, number, number>) => () => {
    let state: KeyValueStore<number, number>;
    let context: FixedKeyProcessorContext<number, number>;
    return {
      init(c) {
        context = c;
        state = c.getStateStore(stateStoreName);
      },
      process(record) {
        state.putIfAbsent(record.key, 0);
        let storedValue = state.get(record.key) as number;
        const result = record.value + storedValue++;
        state.put(record.key, storedValue);
        context.forward(record.withValue(result));
      },
    };
  };
  const expected = [
    { key: 1, value: 1 },
    { key: 2, value: 2 },
    { key: 3, value: 3 },
    { key: 2, value: 2 },
    { key: 2, value: 5 },
    { key: 1, value: 4 },
  ];

  /** KStreamTransformIntegrationTest.shouldTransformValuesWithValueTransformerWithKey */
  it('with the store added to the builder and named', () => {
    builder.addStateStore(storeBuilder());
    stream.processValues(testValueProcessor(), stateStoreName).foreach(accumulateExpected);
    verifyResult(expected);
  });

  /** KStreamTransformIntegrationTest.shouldTransformValuesWithValueTransformerWithKeyWithConnectedStoreProvider */
  it('with the store declared by the supplier (stores())', () => {
    const get = testValueProcessor();
    stream.processValues({ get, stores: () => [storeBuilder()] }).foreach(accumulateExpected);
    verifyResult(expected);
  });
});

describe('KStreamImpl.processValues: no repartition downstream, unlike process', () => {
  const topics = (build: (s: KStream<string, string>) => void): string[] => {
    const builder = new StreamsBuilder();
    build(builder.stream('input', { keySerde: S, valueSerde: S }));
    return builder.build().describe().subtopologies.flatMap((sub) => sub.nodes.flatMap((n) => ('topics' in n ? n.topics : [])));
  };
  const fixedKey: FixedKeyProcessorSupplier<string, string, string> = () => {
    let c: FixedKeyProcessorContext<string, string>;
    return { init: (ctx) => void (c = ctx), process: (r) => c.forward(r.withValue(r.value.toUpperCase())) };
  };

  it('processValues then groupByKey().count() reads the input only', () => {
    expect(topics((s) => void s.processValues(fixedKey).groupByKey().count())).toEqual(['input']);
  });

  it('process then groupByKey().count() goes through a repartition topic', () => {
    const t = topics((s) => void s.process<string, string>(() => ({ process() {} })).groupByKey({ keySerde: S, valueSerde: S }).count());
    expect(t.filter((name) => name.endsWith('-repartition'))).toHaveLength(1);
  });

  it('after a key change, processValues keeps the stream marked for repartitioning', () => {
    const t = topics((s) => void s.selectKey((k) => k).processValues(fixedKey).groupByKey().count());
    expect(t.filter((name) => name.endsWith('-repartition'))).toHaveLength(1);
  });

  it('processValues keeps the key serde: the repartition-free count uses the source key serde', () => {
    const builder = new StreamsBuilder();
    builder.stream('input', { keySerde: S, valueSerde: S }).processValues(fixedKey).groupByKey({ valueSerde: S }).count().toStream().to('out', { valueSerde: Serdes.Long() });
    const driver = new TopologyTestDriver(builder.build());
    try {
      const input = driver.createInputTopic('input', S, S);
      input.pipeInput('a', 'x', 1);
      input.pipeInput('a', 'y', 2);
      expect(driver.createOutputTopic('out', S, Serdes.Long()).readKeyValuesToList()).toEqual([
        { key: 'a', value: 1 },
        { key: 'a', value: 2 },
      ]);
    } finally {
      driver.close();
    }
  });

  it('forwarding something other than a FixedKeyRecord fails naming the processor', () => {
    const builder = new StreamsBuilder();
    builder.stream('input', { keySerde: S, valueSerde: S }).processValues<string>(
      () => {
        let c: FixedKeyProcessorContext<string, string>;
        return { init: (ctx) => void (c = ctx), process: (r) => c.forward({ key: 'other', value: r.value } as never) };
      },
      Named.as('bad'),
    );
    const driver = new TopologyTestDriver(builder.build());
    try {
      expect(() => driver.createInputTopic('input', S, S).pipeInput('a', 'x')).toThrow(/processValues processor 'bad' forwarded a record that is not a FixedKeyRecord/);
    } finally {
      driver.close();
    }
  });
});
