/**
 * Ported from Kafka Streams' `KTableTransformValuesTest`: every case, inputs
 * and expected outputs unchanged. The Mockito parent, getter and context
 * become small fakes (a parent answering `enableSendingOldValues`, a parent
 * getter, `MockProcessorContext`); Kafka's null-supplier NPE is an
 * IllegalArgumentError naming the fix. sluice adds: the transformer's context
 * reports no record metadata inside a view lookup, a supplier's `stores()`,
 * and the view's users connected to the transformer's stores.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  IllegalArgumentError,
  IllegalStateError,
  Materialized,
  Named,
  Serdes,
  Stores,
  StreamsBuilder,
  type KeyValueStore,
  type ProcessorContext,
  type ValueTransformerWithKey,
  type ValueTransformerWithKeySupplier,
} from '../../../../../src/index.js';
import { MockProcessorContext, TopologyTestDriver } from '../../../../../src/testing.js';
import { Change } from '../../../../../src/processors/dsl/change.js';
import type { KTableValueGetter, KTableValueGetterSupplier } from '../../../../../src/processors/dsl/ktable-contract.js';
import { KTableTransformValuesSupplier } from '../../../../../src/processors/dsl/ktable-transform-values.js';
import { Record } from '../../../../../src/processors/record.js';
import { kvt, RecordingProcessorSupplier } from '../../../../helpers/ktable/recording-processor.js';
import { impl } from '../../../../helpers/dsl-impl.js';

const QUERYABLE_NAME = 'queryable-store';
const INPUT_TOPIC = 'inputTopic';
const STORE_NAME = 'someStore';
const OTHER_STORE_NAME = 'otherStore';
const S = Serdes.String();
const CONSUMED = { keySerde: S, valueSerde: S };
// props(): default serdes Integer
const props = { defaultKeySerde: Serdes.Integer(), defaultValueSerde: Serdes.Integer() };

/** Kafka's ExclamationValueTransformer(Supplier): `key->value!`; init checks the expected stores are reachable. */
function exclamation(...expectedStoreNames: string[]): ValueTransformerWithKeySupplier<unknown, string, string> {
  return () => ({
    init(context) {
      const missing = expectedStoreNames.filter((name) => {
        try {
          return context.getStateStore(name) === null;
        } catch {
          return true;
        }
      });
      if (missing.length > 0) throw new Error(`State stores are not accessible: ${missing.join(', ')}`);
    },
    transform: (readOnlyKey, value) => `${String(readOnlyKey)}->${value}!`,
  });
}

/** Kafka's StatefulTransformer: counts its calls. */
function statefulTransformerSupplier(): ValueTransformerWithKeySupplier<string, string, number> {
  return () => {
    let counter = 0;
    return { transform: () => ++counter };
  };
}

/** Kafka's StatelessTransformer: the value's length (null for null). */
function statelessTransformerSupplier(): ValueTransformerWithKeySupplier<string, string, number> {
  return () => ({ transform: (_key, value) => (value === null ? null : value.length) });
}

/** A recording transformer (Kafka's mocked `transformer` / NoOpValueTransformerWithKeySupplier). */
function recordingTransformer() {
  const calls = { closed: 0, context: undefined as ProcessorContext<never, never> | undefined };
  const transformer: ValueTransformerWithKey<string, string, string> = {
    init: (context) => void (calls.context = context),
    transform: (_key, value) => value,
    close: () => void calls.closed++,
  };
  return { calls, supplier: () => transformer };
}

/** Kafka's mocked parent table: its view and old-values answer. */
function parentOf(options: { sendsOldValues?: boolean; getter?: KTableValueGetter<string, string>; storeNames?: string[] } = {}) {
  const asked: boolean[] = [];
  const view: KTableValueGetterSupplier<string, string> = {
    get: () => options.getter ?? { init: () => undefined, get: () => null },
    storeNames: () => options.storeNames ?? [],
  };
  return {
    asked,
    parent: {
      valueGetterSupplier: () => view,
      enableSendingOldValues: (force: boolean) => {
        asked.push(force);
        return options.sendsOldValues ?? false;
      },
    },
  };
}

describe('KTableTransformValuesTest', () => {
  let driver: TopologyTestDriver | undefined;
  let capture: RecordingProcessorSupplier<string, unknown>;
  let builder: StreamsBuilder;

  beforeEach(() => {
    capture = new RecordingProcessorSupplier();
    builder = new StreamsBuilder();
  });
  afterEach(() => {
    driver?.close();
    driver = undefined;
  });

  const output = () => capture.capturedProcessors(1)[0]!.processed();

  /** shouldThrowOnGetIfSupplierReturnsNull */
  it('shouldThrowOnGetIfSupplierReturnsNull', () => {
    const transformer = new KTableTransformValuesSupplier<string, string, string>(parentOf().parent, () => null as never, QUERYABLE_NAME, []);
    expect(() => transformer.get()).toThrow(IllegalArgumentError);
  });

  /** shouldThrowOnViewGetIfSupplierReturnsNull */
  it('shouldThrowOnViewGetIfSupplierReturnsNull', () => {
    const view = new KTableTransformValuesSupplier<string, string, string>(parentOf().parent, () => null as never, undefined, []).view();
    expect(() => view.get()).toThrow(IllegalArgumentError);
  });

  /** shouldInitializeTransformerWithForwardDisabledProcessorContext */
  it('shouldInitializeTransformerWithForwardDisabledProcessorContext', () => {
    const { calls, supplier } = recordingTransformer();
    const processor = new KTableTransformValuesSupplier<string, string, string>(parentOf().parent, supplier, undefined, []).get();
    const context = new MockProcessorContext<string, Change<string>>();
    processor.init?.(context);
    expect(calls.context).toBeDefined();
    expect(calls.context).not.toBe(context);
    expect(() => calls.context!.forward(new Record('k', 'v', 0) as never)).toThrow(IllegalStateError);
    expect(() => calls.context!.forward(new Record('k', 'v', 0) as never)).toThrow(/forward\(\) is not supported from this context/);
  });

  /** shouldNotSendOldValuesByDefault */
  it('shouldNotSendOldValuesByDefault', () => {
    const processor = new KTableTransformValuesSupplier<string, string, string>(parentOf().parent, exclamation() as never, undefined, []).get();
    const context = new MockProcessorContext<string, Change<string>>();
    processor.init?.(context);
    void processor.process(new Record('Key', Change.of('newValue', 'oldValue'), 0));
    expect(context.forwarded().map((f) => f.record)).toEqual([new Record('Key', Change.of('Key->newValue!', null), 0)]);
  });

  /** shouldSendOldValuesIfConfigured */
  it('shouldSendOldValuesIfConfigured', () => {
    const { parent, asked } = parentOf({ sendsOldValues: true });
    const transformValues = new KTableTransformValuesSupplier<string, string, string>(parent, exclamation() as never, undefined, []);
    expect(transformValues.enableSendingOldValues(true)).toBe(true);
    expect(asked).toEqual([true]);
    const processor = transformValues.get();
    const context = new MockProcessorContext<string, Change<string>>();
    processor.init?.(context);
    void processor.process(new Record('Key', Change.of('newValue', 'oldValue'), 0));
    expect(context.forwarded().map((f) => f.record)).toEqual([new Record('Key', Change.of('Key->newValue!', 'Key->oldValue!'), 0)]);
  });

  /** shouldNotSetSendOldValuesOnParentIfMaterialized */
  it('shouldNotSetSendOldValuesOnParentIfMaterialized', () => {
    const { parent, asked } = parentOf();
    expect(new KTableTransformValuesSupplier<string, string, string>(parent, recordingTransformer().supplier, QUERYABLE_NAME, []).enableSendingOldValues(true)).toBe(true);
    expect(asked).toEqual([]);
  });

  /** shouldSetSendOldValuesOnParentIfNotMaterialized */
  it('shouldSetSendOldValuesOnParentIfNotMaterialized', () => {
    const { parent, asked } = parentOf({ sendsOldValues: true });
    expect(new KTableTransformValuesSupplier<string, string, string>(parent, recordingTransformer().supplier, undefined, []).enableSendingOldValues(true)).toBe(true);
    expect(asked).toEqual([true]);
  });

  /** shouldTransformOnGetIfNotMaterialized (sluice: the transformer sees no record metadata during the lookup, the parent's timestamp is kept) */
  it('shouldTransformOnGetIfNotMaterialized', () => {
    const seenMetadata: unknown[] = [];
    let transformerContext: ProcessorContext<never, never> | undefined;
    const supplier: ValueTransformerWithKeySupplier<string, string, string> = () => ({
      init: (c) => void (transformerContext = c),
      transform: (key, value) => {
        seenMetadata.push(transformerContext?.recordMetadata());
        return `${key}->${value}!`;
      },
    });
    const parentGetter: KTableValueGetter<string, string> = { init: () => undefined, get: (key) => (key === 'Key' ? { value: 'Value', timestamp: 73 } : null) };
    const transformValues = new KTableTransformValuesSupplier<string, string, string>(parentOf({ getter: parentGetter }).parent, supplier, undefined, []);
    const context = new MockProcessorContext();
    context.setRecordMetadata('foo', -1, 23);
    const getter = transformValues.view().get();
    getter.init(context);
    expect(getter.get('Key')).toEqual({ value: 'Key->Value!', timestamp: 73 });
    expect(seenMetadata).toEqual([null]);
    expect(context.recordMetadata()).toEqual({ topic: 'foo', partition: -1, offset: 23 });
    // no parent value: the transformer still runs (value null), with an unknown timestamp
    expect(getter.get('Other')).toEqual({ value: 'Other->null!', timestamp: -1 });
  });

  /** shouldGetFromStateStoreIfMaterialized */
  it('shouldGetFromStateStoreIfMaterialized', () => {
    const transformValues = new KTableTransformValuesSupplier<string, string, string>(parentOf().parent, exclamation() as never, QUERYABLE_NAME, []);
    const store = Stores.timestampedKeyValueStoreBuilder(Stores.inMemoryKeyValueStore(QUERYABLE_NAME), S, S).withLoggingDisabled().build();
    const context = new MockProcessorContext();
    context.addStateStore(store);
    store.put('Key', { value: 'something', timestamp: 0 });
    const getter = transformValues.view().get();
    getter.init(context);
    expect(getter.get('Key')?.value).toBe('something');
    store.close();
  });

  /** shouldGetStoreNamesFromParentIfNotMaterialized */
  it('shouldGetStoreNamesFromParentIfNotMaterialized', () => {
    const transformValues = new KTableTransformValuesSupplier<string, string, string>(parentOf({ storeNames: ['store1', 'store2'] }).parent, exclamation() as never, undefined, []);
    expect(transformValues.view().storeNames()).toEqual(['store1', 'store2']);
  });

  /** shouldGetQueryableStoreNameIfMaterialized */
  it('shouldGetQueryableStoreNameIfMaterialized', () => {
    const transformValues = new KTableTransformValuesSupplier<string, string, string>(parentOf().parent, exclamation() as never, QUERYABLE_NAME, []);
    expect(transformValues.view().storeNames()).toEqual([QUERYABLE_NAME]);
  });

  /** shouldCloseTransformerOnProcessorClose */
  it('shouldCloseTransformerOnProcessorClose', () => {
    const { calls, supplier } = recordingTransformer();
    const processor = new KTableTransformValuesSupplier<string, string, string>(parentOf().parent, supplier, undefined, []).get();
    processor.close?.();
    expect(calls.closed).toBe(1);
  });

  /** shouldCloseTransformerOnGetterClose / shouldCloseParentGetterClose */
  it('shouldCloseTransformerAndParentGetterOnGetterClose', () => {
    const { calls, supplier } = recordingTransformer();
    let parentClosed = 0;
    const parentGetter: KTableValueGetter<string, string> = { init: () => undefined, get: () => null, close: () => void parentClosed++ };
    const getter = new KTableTransformValuesSupplier<string, string, string>(parentOf({ getter: parentGetter }).parent, supplier, undefined, []).view().get();
    getter.close?.();
    expect(calls.closed).toBe(1);
    expect(parentClosed).toBe(1);
  });

  const storeBuilder = (name: string) => Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(name), Serdes.Int64(), Serdes.Int64());

  /** shouldTransformValuesWithKey */
  it('shouldTransformValuesWithKey', () => {
    builder
      .addStateStore(storeBuilder(STORE_NAME))
      .addStateStore(storeBuilder(OTHER_STORE_NAME))
      .table(INPUT_TOPIC, CONSUMED)
      .transformValues(exclamation(STORE_NAME, OTHER_STORE_NAME), STORE_NAME, OTHER_STORE_NAME)
      .toStream()
      .process(capture);
    driver = new TopologyTestDriver(builder.build(), props);
    const inputTopic = driver.createInputTopic(INPUT_TOPIC, S, S);
    inputTopic.pipeInput('A', 'a', 5);
    inputTopic.pipeInput('B', 'b', 10);
    inputTopic.pipeInput('D', null, 15);
    expect(output()).toEqual(expect.arrayContaining([kvt('A', 'A->a!', 5), kvt('B', 'B->b!', 10), kvt('D', 'D->null!', 15)]));
    expect(driver.getKeyValueStore(QUERYABLE_NAME)).toBeNull();
  });

  /** shouldTransformValuesWithKeyAndMaterialize */
  it('shouldTransformValuesWithKeyAndMaterialize', () => {
    builder
      .addStateStore(storeBuilder(STORE_NAME))
      .table(INPUT_TOPIC, CONSUMED)
      .transformValues(exclamation(STORE_NAME, QUERYABLE_NAME), Materialized.as<string, string>(QUERYABLE_NAME).withKeySerde(S).withValueSerde(S), STORE_NAME)
      .toStream()
      .process(capture);
    driver = new TopologyTestDriver(builder.build(), props);
    const inputTopic = driver.createInputTopic(INPUT_TOPIC, S, S);
    inputTopic.pipeInput('A', 'a', 5);
    inputTopic.pipeInput('B', 'b', 10);
    inputTopic.pipeInput('C', null, 15);
    expect(output()).toEqual(expect.arrayContaining([kvt('A', 'A->a!', 5), kvt('B', 'B->b!', 10), kvt('C', 'C->null!', 15)]));
    const keyValueStore = driver.getKeyValueStore<string, string>(QUERYABLE_NAME) as KeyValueStore<string, string>;
    expect(keyValueStore.get('A')).toBe('A->a!');
    expect(keyValueStore.get('B')).toBe('B->b!');
    expect(keyValueStore.get('C')).toBe('C->null!');
    const timestamped = driver.getTimestampedKeyValueStore<string, string>(QUERYABLE_NAME)!;
    expect(timestamped.get('A')).toEqual({ value: 'A->a!', timestamp: 5 });
    expect(timestamped.get('B')).toEqual({ value: 'B->b!', timestamp: 10 });
    expect(timestamped.get('C')).toEqual({ value: 'C->null!', timestamp: 15 });
  });

  /** shouldCalculateCorrectOldValuesIfMaterializedEvenIfStateful */
  it('shouldCalculateCorrectOldValuesIfMaterializedEvenIfStateful', () => {
    builder
      .table(INPUT_TOPIC, CONSUMED)
      .transformValues(statefulTransformerSupplier(), Materialized.as<string, number>(QUERYABLE_NAME).withKeySerde(S).withValueSerde(Serdes.Integer()))
      .groupBy((key, value) => ({ key, value }), { keySerde: S, valueSerde: Serdes.Integer() })
      .reduce(
        (a, b) => a + b,
        (a, b) => a - b,
      )
      .mapValues((v) => String(v))
      .toStream()
      .process(capture);
    driver = new TopologyTestDriver(builder.build(), props);
    const inputTopic = driver.createInputTopic(INPUT_TOPIC, S, S);
    inputTopic.pipeInput('A', 'ignored', 5);
    inputTopic.pipeInput('A', 'ignored1', 15);
    inputTopic.pipeInput('A', 'ignored2', 10);
    expect(output()).toEqual([kvt('A', '1', 5), kvt('A', '2', 15), kvt('A', '3', 15)]);
    expect(driver.getKeyValueStore<string, number>(QUERYABLE_NAME)?.get('A')).toBe(3);
  });

  /** shouldCalculateCorrectOldValuesIfNotStatefulEvenIfNotMaterialized */
  it('shouldCalculateCorrectOldValuesIfNotStatefulEvenIfNotMaterialized', () => {
    builder
      .table(INPUT_TOPIC, CONSUMED)
      .transformValues(statelessTransformerSupplier())
      .groupBy((key, value) => ({ key, value }), { keySerde: S, valueSerde: Serdes.Integer() })
      .reduce(
        (a, b) => a + b,
        (a, b) => a - b,
      )
      .mapValues((v) => String(v))
      .toStream()
      .process(capture);
    driver = new TopologyTestDriver(builder.build(), props);
    const inputTopic = driver.createInputTopic(INPUT_TOPIC, S, S);
    inputTopic.pipeInput('A', 'a', 5);
    inputTopic.pipeInput('A', 'aa', 15);
    inputTopic.pipeInput('A', 'aaa', 10);
    expect(output()).toEqual([kvt('A', '1', 5), kvt('A', '2', 15), kvt('A', '3', 15)]);
  });
});

describe('KTable.transformValues wiring (sluice)', () => {
  it("names the node KTABLE-TRANSFORMVALUES-<n>, or the Named; an unnamed Materialized consumes no index and does not materialize (as Kafka's)", () => {
    const builder = new StreamsBuilder();
    const table = builder.table('t', CONSUMED);
    table.transformValues(exclamation());
    table.transformValues(exclamation(), Materialized.with<string, string>(S, S));
    table.transformValues(exclamation(), Named.as('named-tv'));
    const names = builder
      .build()
      .describe()
      .subtopologies.flatMap((s) => s.nodes.map((n) => n.name));
    expect(names).toEqual(['KSTREAM-SOURCE-0000000001', 'KTABLE-SOURCE-0000000002', 'KTABLE-TRANSFORMVALUES-0000000003', 'KTABLE-TRANSFORMVALUES-0000000004', 'named-tv']);
  });

  // KTableImplTest.shouldPreserveSerdesForOperators (the transformValues lines)
  it('keeps the key serde; the value serde is the Materialized one', () => {
    const table = new StreamsBuilder().table('t', CONSUMED);
    expect(impl(table.transformValues(exclamation())).serdes).toEqual({ key: S, value: undefined });
    const mySerde = Serdes.String();
    expect(impl(table.transformValues(exclamation(), Materialized.with<string, string>(mySerde, mySerde))).serdes).toEqual({ key: mySerde, value: mySerde });
    const I = Serdes.Integer();
    expect(impl(table.transformValues(statelessTransformerSupplier(), { valueSerde: I })).serdes).toEqual({ key: S, value: I });
  });

  it('connects the stores a supplier declares with stores(), and a join through the view reaches them', () => {
    const builder = new StreamsBuilder();
    const supplier = Object.assign(
      () => {
        let store: KeyValueStore<string, number>;
        return {
          init: (context: ProcessorContext<never, never>) => void (store = context.getStateStore<KeyValueStore<string, number>>('seen')),
          transform: (key: string, value: string | null) => {
            const n = (store.get(key) ?? 0) + 1;
            store.put(key, n);
            return `${value}#${n}`;
          },
        };
      },
      { stores: () => [Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore('seen'), S, Serdes.Integer())] },
    );
    const transformed = builder.table('left', CONSUMED).transformValues(supplier);
    builder
      .table('right', CONSUMED)
      .join(transformed, (r, l) => `${r}+${l}`)
      .toStream()
      .to('out', { keySerde: S, valueSerde: S });
    const driver = new TopologyTestDriver(builder.build());
    try {
      driver.createInputTopic('left', S, S).pipeInput('k', 'L', 1);
      driver.createInputTopic('right', S, S).pipeInput('k', 'R', 2);
      // the view lookup of the join runs a transformer of its own on the same store
      expect(driver.createOutputTopic('out', S, S).readValuesToList()).toEqual(['R+L#2']);
      expect(driver.getKeyValueStore<string, number>('seen')?.get('k')).toBe(2);
    } finally {
      driver.close();
    }
  });

  // KTableImplTest.shouldThrowNullPointerOnTransformValuesWithKeyWhenTransformerSupplierIsNull / ...WhenMaterializedIsNull / ...WhenStoreNamesNull
  it('rejects a null or malformed supplier, a null Named or Materialized, a null store name', () => {
    const table = new StreamsBuilder().table('t', CONSUMED);
    expect(() => table.transformValues(null as never)).toThrow("transformerSupplier can't be null");
    expect(() => table.transformValues({} as never)).toThrow(IllegalArgumentError);
    expect(() => table.transformValues(exclamation(), null as never)).toThrow("named can't be null");
    expect(() => table.transformValues(exclamation(), 'store', null as never)).toThrow("stateStoreNames can't be null");
  });
});
