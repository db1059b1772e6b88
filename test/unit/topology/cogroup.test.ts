/**
 * Cogroup (KIP-150) beyond Kafka's ported tests (those are under
 * kafka/cogroup/): the record cache in front of the shared store (the merge
 * node forwards what the cache writes down), the table's view through the
 * merge node, suppression finding a windowed cogroup's grace through it, the
 * store kinds and names on the test driver, a versioned store (KIP-914), and
 * the errors of a misuse.
 */
import { describe, expect, it } from 'vitest';
import {
  BufferConfig,
  IllegalArgumentError,
  KeyValue,
  Materialized,
  Serdes,
  SessionWindows,
  SlidingWindows,
  StreamsBuilder,
  Stores,
  Suppressed,
  TimeWindows,
  TopologyError,
  WindowedSerdes,
  type KGroupedStream,
} from '../../../src/index.js';
import { TopologyTestDriver } from '../../../src/testing.js';
import { impl } from '../../helpers/dsl-impl.js';

const S = Serdes.String();
const L = Serdes.Long();
const STR = { keySerde: S, valueSerde: S };

function twoGrouped(builder: StreamsBuilder): [KGroupedStream<string, string>, KGroupedStream<string, string>] {
  return [builder.stream('clicks', STR).groupByKey(), builder.stream('views', STR).groupByKey()];
}

describe('cogroup', () => {
  it('with the record cache on (the default): the merge node forwards what the cache writes down, once per key and commit', () => {
    const builder = new StreamsBuilder();
    const [clicks, views] = twoGrouped(builder);
    clicks
      .cogroup((_k, _v, n: number) => n + 1)
      .cogroup(views, (_k, _v, n: number) => n + 1000)
      .aggregate(() => 0, Materialized.as<string, number>('totals').withValueSerde(L))
      .toStream()
      .to('out', { keySerde: S, valueSerde: L });
    // the driver flushes the cache after every piped record (as Kafka's): every update is forwarded once
    const driver = new TopologyTestDriver(builder.build(), { applicationId: 'cogroup-cache' });
    try {
      const c = driver.createInputTopic('clicks', S, S);
      const v = driver.createInputTopic('views', S, S);
      c.pipeInput('a', 'x', 1);
      v.pipeInput('a', 'x', 2);
      c.pipeInput('b', 'x', 3);
      v.pipeInput('a', 'x', 4);
      expect(driver.createOutputTopic('out', S, L).readRecordsToList().map((r) => [r.key, r.value, r.timestamp])).toEqual([
        ['a', 1, 1],
        ['a', 1001, 2],
        ['b', 1, 3],
        ['a', 2001, 4],
      ]);
      const store = driver.getTimestampedKeyValueStore<string, number>('totals');
      expect(store?.get('a')).toEqual({ value: 2001, timestamp: 4 });
      expect(store?.get('b')).toEqual({ value: 1, timestamp: 3 });
    } finally {
      driver.close();
    }
  });

  it("the cogrouped table's view reads the shared store through the merge node (a join with another table)", () => {
    const builder = new StreamsBuilder();
    const [clicks, views] = twoGrouped(builder);
    const totals = clicks
      .cogroup((_k, _v, n: number) => n + 1)
      .cogroup(views, (_k, _v, n: number) => n + 1000)
      .aggregate(() => 0, Materialized.with(S, L));
    const names = builder.table('names', STR);
    // the other side's update looks the key up in the cogroup's store
    names.join(totals, (name: string, total: number) => `${name}:${total}`).toStream().to('joined', STR);
    const driver = new TopologyTestDriver(builder.build(), { applicationId: 'cogroup-view', statestoreCacheMaxBytes: 0 });
    try {
      driver.createInputTopic('clicks', S, S).pipeInput('a', 'x', 1);
      driver.createInputTopic('views', S, S).pipeInput('a', 'x', 2);
      driver.createInputTopic('names', S, S).pipeInput('a', 'Ann', 3);
      expect(driver.createOutputTopic('joined', S, S).readKeyValuesToList()).toEqual([KeyValue.pair('a', 'Ann:1001')]);
    } finally {
      driver.close();
    }
  });

  it('suppress(untilWindowCloses) finds the grace of a windowed cogroup through the merge node', () => {
    const builder = new StreamsBuilder();
    const [clicks, views] = twoGrouped(builder);
    clicks
      .cogroup((_k, _v, n: number) => n + 1)
      .cogroup(views, (_k, _v, n: number) => n + 1000)
      .windowedBy(TimeWindows.ofSizeAndGrace(10, 5))
      .aggregate(() => 0, Materialized.with(S, L))
      .suppress(Suppressed.untilWindowCloses(BufferConfig.unbounded()))
      .toStream()
      .to('final', { keySerde: WindowedSerdes.timeWindowedSerdeFrom(S, 10), valueSerde: L });
    const driver = new TopologyTestDriver(builder.build(), { applicationId: 'cogroup-suppress', statestoreCacheMaxBytes: 0 });
    try {
      const c = driver.createInputTopic('clicks', S, S);
      const v = driver.createInputTopic('views', S, S);
      c.pipeInput('a', 'x', 0);
      v.pipeInput('a', 'x', 3);
      // stream time 14 < window end 10 + grace 5: still open
      c.pipeInput('b', 'x', 14);
      const out = driver.createOutputTopic('final', WindowedSerdes.timeWindowedSerdeFrom(S, 10), L);
      expect(out.isEmpty()).toBe(true);
      // stream time 15: [0, 10) closes, emitted once with its final aggregate
      v.pipeInput('b', 'x', 15);
      expect(out.readRecordsToList().map((r) => [r.key?.key, r.key?.window.start, r.value])).toEqual([['a', 0, 1001]]);
    } finally {
      driver.close();
    }
  });

  it('the stores are of the kind of the windows: window store for time and sliding windows, session store for sessions', () => {
    const builder = new StreamsBuilder();
    const [clicks, views] = twoGrouped(builder);
    const cogrouped = clicks.cogroup((_k, _v, n: number) => n + 1).cogroup(views, (_k, _v, n: number) => n + 1000);
    cogrouped.windowedBy(TimeWindows.ofSizeWithNoGrace(10)).aggregate(() => 0, Materialized.as<string, number>('tumbling').withValueSerde(L));
    cogrouped.windowedBy(SlidingWindows.ofTimeDifferenceWithNoGrace(10)).aggregate(() => 0, Materialized.as<string, number>('sliding').withValueSerde(L));
    cogrouped.windowedBy(SessionWindows.ofInactivityGapWithNoGrace(10)).aggregate(() => 0, (_k, a, b) => a + b, Materialized.as<string, number>('sessions').withValueSerde(L));
    const driver = new TopologyTestDriver(builder.build(), { applicationId: 'cogroup-stores', statestoreCacheMaxBytes: 0 });
    try {
      driver.createInputTopic('clicks', S, S).pipeInput('a', 'x', 5);
      driver.createInputTopic('views', S, S).pipeInput('a', 'x', 7);
      expect(driver.getWindowStore<string, number>('tumbling')?.fetch('a', 0)).toBe(1001);
      expect(driver.getSessionStore<string, number>('sessions')?.fetchSession('a', 5, 7)).toBe(1001);
      // the sliding window of the view at 7: [0, 7] holds both records ([-3, 7] clamped at 0 in Kafka's terms)
      expect(driver.getWindowStore<string, number>('sliding')?.fetch('a', 0)).toBe(1001);
    } finally {
      driver.close();
    }
  });

  it('refuses what is not a grouped stream of the same builder', () => {
    const builder = new StreamsBuilder();
    const [clicks] = twoGrouped(builder);
    const cogrouped = clicks.cogroup((_k, _v, n: number) => n + 1);
    const otherBuilder = new StreamsBuilder();
    const foreign = otherBuilder.stream('x', STR).groupByKey();
    expect(() => cogrouped.cogroup(foreign, (_k, _v, n: number) => n)).toThrow(TopologyError);
    expect(() => cogrouped.cogroup(foreign, (_k, _v, n: number) => n)).toThrow(/another StreamsBuilder/);
    expect(() => cogrouped.cogroup({} as never, (_k, _v, n: number) => n)).toThrow(/give a KGroupedStream/);
    expect(() => clicks.cogroup('not a function' as never)).toThrow(IllegalArgumentError);
    expect(() => cogrouped.windowedBy({} as never)).toThrow(/windowedBy: give TimeWindows/);
  });

  it('a versioned store holds the cogrouped aggregate as versions (KIP-914, as Kafka), and the table is versioned', () => {
    const builder = new StreamsBuilder();
    const [clicks, views] = twoGrouped(builder);
    const totals = clicks
      .cogroup((_k, _v, n: number) => n + 1)
      .cogroup(views, (_k, _v, n: number) => n + 1000)
      .aggregate(() => 0, Materialized.as<string, number>(Stores.persistentVersionedKeyValueStore('versioned', 60_000)).withValueSerde(L));
    expect(impl(totals).supplier.isOutputVersioned?.()).toBe(true);
    totals.toStream().to('totals', { keySerde: S, valueSerde: L });
    const driver = new TopologyTestDriver(builder.build());
    try {
      driver.createInputTopic('clicks', S, S).pipeInput('k', 'c', 10);
      driver.createInputTopic('views', S, S).pipeInput('k', 'v', 20);
      expect(driver.createOutputTopic('totals', S, L).readValuesToList()).toEqual([1, 1001]);
      const store = driver.getVersionedKeyValueStore<string, number>('versioned');
      expect(store?.get('k', 15)).toMatchObject({ value: 1, timestamp: 10 });
      expect(store?.get('k')).toMatchObject({ value: 1001, timestamp: 20 });
    } finally {
      driver.close();
    }
  });
});
