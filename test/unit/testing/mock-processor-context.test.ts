/**
 * Port of Kafka Streams' MockProcessorContextAPITest
 * (streams/test-utils/src/test/java/org/apache/kafka/streams/test/MockProcessorContextAPITest.java),
 * inputs and expected outputs unchanged. Differences: the store is handed over with
 * `addStateStore` (sluice has no StateStoreContext), durations are milliseconds.
 */
import { describe, expect, it } from 'vitest';
import { Record, Serdes, Stores, type KeyValueStore, type Processor, type ProcessorContext } from '../../../src/index.js';
import { MockProcessorContext, type CapturedForward } from '../../../src/testing.js';

const fwd = <K, V>(record: Record<K, V>, childName?: string): CapturedForward<K, V> => ({ record, childName });

describe('MockProcessorContextAPITest (Kafka, ported)', () => {
  it('shouldCaptureOutputRecords', () => {
    let context!: ProcessorContext<string, number>;
    const processor: Processor<string, number, string, number> = {
      init: (c) => void (context = c),
      process: (record) => context.forward(record.withKey(record.key + record.value).withValue(record.key.length + record.value)),
    };
    const mock = new MockProcessorContext<string, number>();
    processor.init?.(mock);
    processor.process(new Record('foo', 5, 0));
    processor.process(new Record('barbaz', 50, 0));
    expect(mock.forwarded()).toEqual([fwd(new Record('foo5', 8, 0)), fwd(new Record('barbaz50', 56, 0))]);
    mock.resetForwards();
    expect(mock.forwarded()).toEqual([]);
  });

  it('shouldCaptureRecordsOutputToChildByName', () => {
    let context!: ProcessorContext<string, number>;
    let count = 0;
    const processor: Processor<string, number, string, number> = {
      init: (c) => void (context = c),
      process: (record) => {
        if (count === 0) context.forward(new Record('start', -1, 0)); // broadcast
        const toChild = count % 2 === 0 ? 'george' : 'pete';
        context.forward(new Record(record.key + record.value, record.key.length + record.value, 0), toChild);
        count++;
      },
    };
    const mock = new MockProcessorContext<string, number>();
    processor.init?.(mock);
    processor.process(new Record('foo', 5, 0));
    processor.process(new Record('barbaz', 50, 0));
    expect(mock.forwarded()).toEqual([
      fwd(new Record('start', -1, 0)),
      fwd(new Record('foo5', 8, 0), 'george'),
      fwd(new Record('barbaz50', 56, 0), 'pete'),
    ]);
    expect(mock.forwarded('george')).toEqual([fwd(new Record('start', -1, 0)), fwd(new Record('foo5', 8, 0), 'george')]);
    expect(mock.forwarded('pete')).toEqual([fwd(new Record('start', -1, 0)), fwd(new Record('barbaz50', 56, 0), 'pete')]);
    expect(mock.forwarded('steve')).toEqual([fwd(new Record('start', -1, 0))]);
  });

  it('shouldCaptureCommitsAndAllowReset', () => {
    let context!: ProcessorContext;
    let count = 0;
    const processor: Processor<string, number> = {
      init: (c) => void (context = c),
      process: () => {
        if (++count > 2) context.commit();
      },
    };
    const mock = new MockProcessorContext();
    processor.init?.(mock);
    processor.process(new Record('foo', 5, 0));
    processor.process(new Record('barbaz', 50, 0));
    expect(mock.committed()).toBe(false);
    processor.process(new Record('foobar', 500, 0));
    expect(mock.committed()).toBe(true);
    mock.resetCommit();
    expect(mock.committed()).toBe(false);
  });

  it('shouldStoreAndReturnStateStores', () => {
    let context!: ProcessorContext;
    const processor: Processor<string, number> = {
      init: (c) => void (context = c),
      process: (record) => {
        const stateStore = context.getStateStore<KeyValueStore<string, number>>('my-state');
        stateStore.put(record.key, (stateStore.get(record.key) ?? 0) + record.value);
        stateStore.put('all', (stateStore.get('all') ?? 0) + record.value);
      },
    };
    const mock = new MockProcessorContext();
    const store = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore('my-state'), Serdes.String(), Serdes.Long()).build();
    mock.addStateStore(store);
    processor.init?.(mock);
    processor.process(new Record('foo', 5, 0));
    processor.process(new Record('bar', 50, 0));
    expect(store.get('foo')).toBe(5);
    expect(store.get('bar')).toBe(50);
    expect(store.get('all')).toBe(55);
  });

  it('shouldCaptureApplicationAndRecordMetadata', () => {
    let context!: MockProcessorContext<string, unknown>;
    const processor: Processor<string, unknown, string, unknown> = {
      init: (c) => void (context = c as MockProcessorContext<string, unknown>),
      process: (record) => {
        context.forward(new Record<string, unknown>('appId', context.applicationId(), 0));
        context.forward(new Record<string, unknown>('taskId', context.taskId, 0));
        const metadata = context.recordMetadata();
        if (metadata) {
          context.forward(new Record<string, unknown>('topic', metadata.topic, 0));
          context.forward(new Record<string, unknown>('partition', metadata.partition, 0));
          context.forward(new Record<string, unknown>('offset', metadata.offset, 0));
        }
        context.forward(new Record<string, unknown>('record', record, 0));
      },
    };
    const mock = new MockProcessorContext<string, unknown>({ applicationId: 'testMetadata', appConfigs: { bootstrapServers: '' } });
    processor.init?.(mock);
    processor.process(new Record('foo', 5, 0));
    expect(mock.forwarded()).toEqual([
      fwd(new Record('appId', 'testMetadata', 0)),
      fwd(new Record('taskId', { subtopology: 0, partition: 0 }, 0)),
      fwd(new Record('record', new Record('foo', 5, 0), 0)),
    ]);
    mock.resetForwards();
    mock.setRecordMetadata('t1', 0, 0);
    processor.process(new Record('foo', 5, 0));
    expect(mock.forwarded()).toEqual([
      fwd(new Record('appId', 'testMetadata', 0)),
      fwd(new Record('taskId', { subtopology: 0, partition: 0 }, 0)),
      fwd(new Record('topic', 't1', 0)),
      fwd(new Record('partition', 0, 0)),
      fwd(new Record('offset', 0, 0)),
      fwd(new Record('record', new Record('foo', 5, 0), 0)),
    ]);
  });

  it('shouldCapturePunctuator', () => {
    const processor: Processor<string, number> = {
      init: (c) => void c.schedule(1000, 'WALL_CLOCK_TIME', () => c.commit()),
      process: () => {},
    };
    const mock = new MockProcessorContext();
    processor.init?.(mock);
    const captured = mock.scheduledPunctuators()[0];
    expect(captured?.intervalMs).toBe(1000);
    expect(captured?.type).toBe('WALL_CLOCK_TIME');
    expect(captured?.cancelled()).toBe(false);
    expect(mock.committed()).toBe(false);
    captured?.punctuator(1234);
    expect(mock.committed()).toBe(true);
  });

  it('fullConstructorShouldSetAllExpectedAttributes', () => {
    const mock = new MockProcessorContext({
      applicationId: 'testFullConstructor',
      taskId: { subtopology: 1, partition: 1 },
      appConfigs: { bootstrapServers: '', defaultKeySerde: Serdes.String(), defaultValueSerde: Serdes.Long() },
      stateDir: '',
    });
    expect(mock.applicationId()).toBe('testFullConstructor');
    expect(mock.taskId).toEqual({ subtopology: 1, partition: 1 });
    expect(mock.appConfigs()['applicationId']).toBe('testFullConstructor');
    expect(mock.appConfigs()['defaultKeySerde']).toBe(Serdes.String());
    expect(mock.appConfigs()['defaultValueSerde']).toBe(Serdes.Long());
    expect(mock.stateDir()).toBe('');
  });

  it('a store that was not added is a clear error', () => {
    expect(() => new MockProcessorContext().getStateStore('nope')).toThrow(/addStateStore/);
  });
});
