import { afterEach, describe, expect, it } from 'vitest';
import {
  Record,
  Serdes,
  Stores,
  Topology,
  TopologyError,
  type Cancellable,
  type KeyValueStore,
  type Processor,
  type ProcessorContext,
  type ProcessorRecordMetadata,
} from '../../../src/index.js';
import { TopologyTestDriver } from '../../../src/testing.js';
import { toRuntime } from '../../../src/topology/topology-runtime.js';
import { storeOf } from '../../helpers/store-of.js';

const S = Serdes.String();
let driver: TopologyTestDriver | undefined;
afterEach(() => {
  driver?.close();
  driver = undefined;
});

/** in -> proc -> out, with `proc` built from `make`. */
function single(make: () => Processor<string, string, string, string>, stores: string[] = []): Topology {
  const t = new Topology()
    .addSource('src', 'in', { keyDeserializer: S, valueDeserializer: S })
    .addProcessor('proc', make, 'src')
    .addSink('sink', 'out', { keySerializer: S, valueSerializer: S }, 'proc');
  for (const store of stores) t.addStateStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(store), S, S), 'proc');
  return t;
}

describe('Record', () => {
  it('is immutable; with* return changed copies', () => {
    const r = new Record('k', 'v', 10, { h: 'x' });
    const r2 = r.withKey(1).withValue(true).withTimestamp(20).withHeaders({ y: 'z' });
    expect(r).toMatchObject({ key: 'k', value: 'v', timestamp: 10, headers: { h: 'x' } });
    expect(r2).toMatchObject({ key: 1, value: true, timestamp: 20, headers: { y: 'z' } });
    expect(Object.isFrozen(r)).toBe(true);
    expect(Object.isFrozen(r.headers)).toBe(true);
    expect(() => new Record('k', 'v', Number.NaN)).toThrow(TypeError);
  });
});

describe('Processor API through the TopologyTestDriver', () => {
  it('init, process and close are called; forward reaches the sink; recordMetadata names the input', () => {
    const calls: string[] = [];
    const metadata: Array<ProcessorRecordMetadata | null> = [];
    const topology = single(() => {
      let ctx: ProcessorContext<string, string>;
      return {
        init(c) {
          ctx = c;
          calls.push(`init ${c.processorName} task ${c.taskId.subtopology}_${c.taskId.partition}`);
        },
        process(r) {
          metadata.push(ctx.recordMetadata());
          ctx.forward(r.withValue(r.value.toUpperCase()));
        },
        close() {
          calls.push('close');
        },
      };
    });
    driver = new TopologyTestDriver(topology);
    const input = driver.createInputTopic('in', S, S);
    input.pipeInput('a', 'x', 1);
    input.pipeInput('b', 'y', 2);
    expect(driver.createOutputTopic('out', S, S).readKeyValuesToList()).toEqual([
      { key: 'a', value: 'X' },
      { key: 'b', value: 'Y' },
    ]);
    expect(metadata).toEqual([
      { topic: 'in', partition: 0, offset: 0 },
      { topic: 'in', partition: 0, offset: 1 },
    ]);
    driver.close();
    driver = undefined;
    expect(calls).toEqual(['init proc task 0_0', 'close']);
  });

  it('forward(record, childName) reaches only that child; an unknown child fails', () => {
    const t = new Topology()
      .addSource('src', 'in', { keySerde: S, valueSerde: S })
      .addProcessor(
        'router',
        () => {
          let ctx: ProcessorContext<string, string>;
          return {
            init: (c: ProcessorContext<string, string>) => void (ctx = c),
            process: (r: Record<string, string>) => ctx.forward(r, r.value),
          };
        },
        'src',
      )
      .addSink('left', 'out-left', { keySerde: S, valueSerde: S }, 'router')
      .addSink('right', 'out-right', { keySerde: S, valueSerde: S }, 'router');
    driver = new TopologyTestDriver(t);
    const input = driver.createInputTopic('in', S, S);
    input.pipeInput('1', 'left');
    input.pipeInput('2', 'right');
    expect(driver.createOutputTopic('out-left', S, S).readValuesToList()).toEqual(['left']);
    expect(driver.createOutputTopic('out-right', S, S).readValuesToList()).toEqual(['right']);
    expect(() => input.pipeInput('3', 'nowhere')).toThrow(/unknown child 'nowhere'/);
  });

  it('STREAM_TIME punctuators fire as stream time advances, with stream time, no record metadata; cancel stops them', () => {
    const fired: Array<{ ts: number; meta: ProcessorRecordMetadata | null; streamTime: number }> = [];
    let cancellable: Cancellable;
    const topology = single(() => {
      let ctx: ProcessorContext<string, string>;
      return {
        init(c) {
          ctx = c;
          cancellable = c.schedule(10, 'STREAM_TIME', (ts) => {
            fired.push({ ts, meta: ctx.recordMetadata(), streamTime: ctx.currentStreamTimeMs() });
            ctx.forward(new Record('tick', String(ts), ts));
          });
        },
        process() {},
      };
    });
    driver = new TopologyTestDriver(topology, { initialWallClockTimeMs: 0 });
    const input = driver.createInputTopic('in', S, S);
    const out = driver.createOutputTopic('out', S, S);
    input.pipeInput('a', 'x', 100); // first record: fires at 100
    input.pipeInput('a', 'x', 105); // next due at 110: nothing
    expect(fired.map((f) => f.ts)).toEqual([100]);
    input.pipeInput('a', 'x', 103); // out of order: stream time stays 105
    input.pipeInput('a', 'x', 112); // due at 110 -> fires with 112
    input.pipeInput('a', 'x', 150); // missed 120..150: fires once
    expect(fired.map((f) => f.ts)).toEqual([100, 112, 150]);
    expect(fired[0]).toEqual({ ts: 100, meta: null, streamTime: 100 });
    expect(out.readKeyValuesToList()).toEqual([
      { key: 'tick', value: '100' },
      { key: 'tick', value: '112' },
      { key: 'tick', value: '150' },
    ]);
    cancellable!.cancel();
    input.pipeInput('a', 'x', 500);
    expect(fired).toHaveLength(3);
    driver.advanceWallClockTime(1000);
    expect(fired).toHaveLength(3); // wall clock never drives stream-time punctuators
  });

  it('WALL_CLOCK_TIME punctuators fire on advanceWallClockTime, first at now + interval', () => {
    const fired: number[] = [];
    const topology = single(() => ({
      init(c) {
        c.schedule(100, 'WALL_CLOCK_TIME', (ts) => {
          fired.push(ts);
          c.forward(new Record('wall', String(c.currentSystemTimeMs()), ts));
        });
      },
      process() {},
    }));
    driver = new TopologyTestDriver(topology, { initialWallClockTimeMs: 1000 });
    driver.createInputTopic('in', S, S).pipeInput('a', 'x', 999_999); // stream time does not drive it
    expect(fired).toEqual([]);
    driver.advanceWallClockTime(99);
    expect(fired).toEqual([]);
    driver.advanceWallClockTime(1);
    expect(fired).toEqual([1100]);
    driver.advanceWallClockTime(350); // 1450: one punctuation, next due at 1500
    expect(fired).toEqual([1100, 1450]);
    driver.advanceWallClockTime(50);
    expect(fired).toEqual([1100, 1450, 1500]);
    expect(driver.createOutputTopic('out', S, S).readValuesToList()).toEqual(['1100', '1450', '1500']);
  });

  it('getStateStore returns connected stores; stores are flushed at each commit', () => {
    const topology = single(() => {
      let store: KeyValueStore<string, string>;
      return {
        init(c) {
          store = c.getStateStore<KeyValueStore<string, string>>('last');
        },
        process(r) {
          store.put(r.key, r.value);
        },
      };
    }, ['last']);
    driver = new TopologyTestDriver(topology);
    driver.createInputTopic('in', S, S).pipeInput('k', 'v1');
    const store = storeOf(driver.getKeyValueStore<string, string>('last'));
    expect(store.get('k')).toBe('v1');
    expect(driver!.getKeyValueStore('nope')).toBeNull(); // Kafka returns null for an unknown store
  });

  it('getStateStore of a store the processor is not connected to is a TopologyError naming the fix', () => {
    const t = single(() => ({
      init(c) {
        c.getStateStore('other');
      },
      process() {},
    }))
      .addProcessor('owner', () => ({ process() {} }), 'src')
      .addStateStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore('other'), S, S), 'owner');
    expect(() => new TopologyTestDriver(t)).toThrow(TopologyError);
    expect(() => new TopologyTestDriver(t)).toThrow(/connectProcessorAndStateStores\('proc', 'other'\)/);
  });

  it('context.commit() requests a commit that the executor sees and clears', () => {
    const t = single(() => {
      let ctx: ProcessorContext<string, string>;
      return {
        init: (c) => void (ctx = c),
        process: (r) => {
          if (r.value === 'commit') ctx.commit();
        },
      };
    });
    const runtime = toRuntime(t);
    const task = runtime.createTask({ subtopology: 0, partition: 3 }, { send() {} }, {
      deserialization: { handle: () => 'FAIL' },
      processing: { handle: () => 'FAIL' },
    });
    expect(task.inputPartitions).toEqual([{ topic: 'in', partition: 3 }]);
    expect(() => task.process({ topic: 'in', partition: 3, offset: 0, key: null, value: null, headers: {}, timestamp: 0 })).toThrow(
      /cannot process in state CREATED; allowed in: RUNNING/,
    );
    task.init();
    const rec = (value: string, offset: number) => ({ topic: 'in', partition: 3, offset, key: Buffer.from('k'), value: Buffer.from(value), headers: {}, timestamp: 0 });
    expect(task.process(rec('x', 0))).toBe('processed');
    expect(task.commitRequested).toBe(false);
    task.process(rec('commit', 1));
    expect(task.commitRequested).toBe(true);
    task.clearCommitRequest();
    expect(task.commitRequested).toBe(false);
    task.close();
    expect(() => task.process(rec('x', 2))).toThrow(/in state CLOSED/);
  });

  it('process() outcomes: processed, skipped on a CONTINUE; a failing punctuation does not mark the record skipped', () => {
    const t = single(() => ({
      init(c) {
        expect(() => c.schedule(0, 'STREAM_TIME', () => {})).toThrow(RangeError);
        expect(() => c.schedule(5, 'SOMETIMES' as 'STREAM_TIME', () => {})).toThrow(RangeError);
        c.schedule(5, 'STREAM_TIME', () => {
          throw new Error('tick');
        });
      },
      process(r) {
        if (r.value === 'bad') throw new Error('bad record');
      },
    }));
    const failures: string[] = [];
    const task = toRuntime(t).createTask({ subtopology: 0, partition: 0 }, { send() {} }, {
      deserialization: { handle: () => 'FAIL' },
      processing: { handle: (ctx, _r, e) => (failures.push(`${ctx.processorNodeId}:${e.message}`), 'CONTINUE') },
    });
    task.init();
    const rec = (value: string, offset: number) => ({ topic: 'in', partition: 0, offset, key: null, value: Buffer.from(value), headers: {}, timestamp: offset * 10 });
    expect(task.process(rec('ok', 1))).toBe('processed'); // the stream-time punctuation fails (CONTINUE) after it
    expect(task.process(rec('bad', 2))).toBe('skipped');
    expect(failures).toEqual(['proc:tick', 'proc:bad record', 'proc:tick']);
    task.close();
  });

  it('ProcessorSupplier may be an object with get(); each task gets its own instance', () => {
    let instances = 0;
    const t = new Topology()
      .addSource('src', ['a', 'b'], { keySerde: S, valueSerde: S })
      .addProcessor('p', { get: () => (instances++, { process() {} }) }, 'src');
    const runtime = toRuntime(t);
    const handlers = { deserialization: { handle: () => 'FAIL' as const }, processing: { handle: () => 'FAIL' as const } };
    const t0 = runtime.createTask({ subtopology: 0, partition: 0 }, { send() {} }, handlers);
    const t1 = runtime.createTask({ subtopology: 0, partition: 1 }, { send() {} }, handlers);
    expect(instances).toBe(2);
    expect(t1.inputPartitions).toEqual([{ topic: 'a', partition: 1 }, { topic: 'b', partition: 1 }]);
    t0.close();
    t1.close();
  });
});
