/**
 * `suppress(Suppressed.untilWindowCloses(...))` finding the grace of the
 * windowed aggregation upstream: ports of Kafka's `GraphGraceSearchUtilTest`
 * (on a low-level Topology, with stand-in windowed suppliers giving Kafka's
 * graces), then the DSL through the TopologyTestDriver with the fake
 * windowed count of `test/helpers/ktable/fake-windowed-aggregate.ts`.
 */
import { describe, expect, it } from 'vitest';
import type { InMemoryTimeOrderedChangeBuffer } from '../../../../src/processors/dsl/suppress-buffer.js';
import { findAndVerifyWindowGrace } from '../../../../src/topology/internal/window-grace.js';
import { BufferConfig, IllegalArgumentError, Serdes, StreamsBuilder, Suppressed, TimeWindows, Topology, TopologyError, WindowedSerdes } from '../../../../src/index.js';
import type { KTable, Serde, Windowed } from '../../../../src/index.js';
import { TopologyTestDriver } from '../../../../src/testing.js';
import { fakeWindowedCount } from '../../../helpers/ktable/fake-windowed-aggregate.js';
import { storeOf } from '../../../helpers/store-of.js';

const S = Serdes.String();
const L = Serdes.Long() as unknown as Serde<number>;
const { unbounded } = BufferConfig;
const untilWindowCloses = () => Suppressed.untilWindowCloses(unbounded());
const NOT_WINDOWED = 'Window close time is only defined for windowed computations.';

/** A processor supplier that does nothing. */
const noop = () => ({ process: () => undefined });
/** A windowed aggregation's supplier as the grace search sees it (Kafka's KStreamWindowAggregate / KStreamSessionWindowAggregate). */
const windowed = (closeDelayMs: number) => ({ get: noop, windowCloseDelayMs: () => closeDelayMs });
// Kafka's TimeWindows.ofSizeAndGrace(10, 1234): grace 1234; SessionWindows.ofInactivityGapAndGrace(10, 1234): grace + gap.
const TIME_GRACE = 1234;
const SESSION_CLOSE = 1234 + 10;

function thrown(f: () => unknown): Error {
  try {
    f();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected an error');
}

describe('GraphGraceSearchUtilTest (ported)', () => {
  // GraphGraceSearchUtilTest.shouldThrowOnNull
  it('shouldThrowOnNull', () => {
    const error = thrown(() => findAndVerifyWindowGrace(new Topology(), 'no-such-node'));
    expect(error).toBeInstanceOf(TopologyError);
    expect(error.message).toMatch(/^Window close time is only defined for windowed computations\. Got \[\]\./);
  });

  // GraphGraceSearchUtilTest.shouldFailIfThereIsNoGraceAncestor
  it('shouldFailIfThereIsNoGraceAncestor', () => {
    // doesn't matter if this ancestor is stateless or stateful. The important thing it that there is
    // no grace period defined on any ancestor of the node
    const topology = new Topology().addProcessor('stateful', noop).addProcessor('stateless', noop, 'stateful');
    const error = thrown(() => findAndVerifyWindowGrace(topology, 'stateless'));
    expect(error).toBeInstanceOf(TopologyError);
    expect(error.message).toMatch(/^Window close time is only defined for windowed computations\. Got \[stateful->stateless\]\./);
  });

  // GraphGraceSearchUtilTest.shouldExtractGraceFromKStreamWindowAggregateNode
  it('shouldExtractGraceFromKStreamWindowAggregateNode', () => {
    const topology = new Topology().addProcessor('asdf', windowed(TIME_GRACE));
    expect(findAndVerifyWindowGrace(topology, 'asdf')).toBe(TIME_GRACE);
  });

  // GraphGraceSearchUtilTest.shouldExtractGraceFromKStreamSessionWindowAggregateNode
  it('shouldExtractGraceFromKStreamSessionWindowAggregateNode', () => {
    const topology = new Topology().addProcessor('asdf', windowed(SESSION_CLOSE));
    expect(findAndVerifyWindowGrace(topology, 'asdf')).toBe(SESSION_CLOSE);
  });

  // GraphGraceSearchUtilTest.shouldExtractGraceFromSessionAncestorThroughStatefulParent
  it('shouldExtractGraceFromSessionAncestorThroughStatefulParent', () => {
    const topology = new Topology().addProcessor('asdf', windowed(SESSION_CLOSE)).addProcessor('stateful', noop, 'asdf').addProcessor('stateless', noop, 'stateful');
    expect(findAndVerifyWindowGrace(topology, 'stateless')).toBe(SESSION_CLOSE);
  });

  // GraphGraceSearchUtilTest.shouldExtractGraceFromSessionAncestorThroughStatelessParent
  it('shouldExtractGraceFromSessionAncestorThroughStatelessParent', () => {
    const topology = new Topology().addProcessor('asdf', windowed(SESSION_CLOSE)).addProcessor('stateless', noop, 'asdf').addProcessor('stateless2', noop, 'stateless');
    expect(findAndVerifyWindowGrace(topology, 'stateless2')).toBe(SESSION_CLOSE);
  });

  // GraphGraceSearchUtilTest.shouldUseMaxIfMultiParentsDoNotAgreeOnGrace
  it('shouldUseMaxIfMultiParentsDoNotAgreeOnGrace', () => {
    const topology = new Topology().addProcessor('left', windowed(1234 + 10)).addProcessor('right', windowed(4321)).addProcessor('stateless', noop, 'left', 'right');
    expect(findAndVerifyWindowGrace(topology, 'stateless')).toBe(4321);
  });
});

describe('the grace search on the real windowed aggregation (KStreamWindowAggregate)', () => {
  // GraphGraceSearchUtilTest.shouldExtractGraceFromKStreamWindowAggregateNode, through the DSL
  it('finds TimeWindows.ofSizeAndGrace(10, 1234)’s grace, through a repartition topic and a filter', () => {
    const builder = new StreamsBuilder();
    const counts = builder
      .stream('input', { keySerde: S, valueSerde: S })
      .selectKey((_k, v) => v)
      .groupByKey({ keySerde: S, valueSerde: S })
      .windowedBy(TimeWindows.ofSizeAndGrace(10, 1234))
      .count();
    const filtered = counts.filter((_k, v) => v > 1);
    const topology = builder.build();
    expect(findAndVerifyWindowGrace(topology, counts.nodeName)).toBe(1234);
    expect(findAndVerifyWindowGrace(topology, filtered.nodeName)).toBe(1234);
    // and the count above the windowed one walks through it: its grace again (Kafka walks through non-windowed aggregations)
    const regrouped = counts.toStream().groupByKey({ keySerde: WindowedSerdes.timeWindowedSerdeFrom(S, 10), valueSerde: L }).count();
    expect(findAndVerifyWindowGrace(builder.build(), regrouped.nodeName)).toBe(1234);
  });
});

const windowedSerde = WindowedSerdes.timeWindowedSerdeFrom(S, 10);
type Out = { key: string; start: number; value: number | null; timestamp: number };

function read(driver: TopologyTestDriver, topic: string): Out[] {
  return driver
    .createOutputTopic(topic, windowedSerde, L)
    .readRecordsToList()
    .map((r) => ({ key: (r.key as Windowed<string>).key, start: (r.key as Windowed<string>).window.start, value: r.value as number | null, timestamp: r.timestamp }));
}

describe('KTable.suppress(untilWindowCloses) on a windowed table (fake windowed count: size 10, closes 5 after the end)', () => {
  function build(): { builder: StreamsBuilder<Buffer, number>; counts: KTable<Windowed<string>, number> } {
    // mapValues forgets the value serde: the suppression buffer of the mapped table uses the default (Long)
    const builder = new StreamsBuilder({ defaultValueSerde: L });
    const counts = fakeWindowedCount(builder.stream('input', { keySerde: S, valueSerde: S }), 10, 5);
    return { builder, counts };
  }

  it('emits each window once, when stream time reaches its end + grace, through filter and mapValues; a filtered-out window emits nothing', () => {
    const { builder, counts } = build();
    counts.suppress(untilWindowCloses()).toStream().to('final', { keySerde: windowedSerde, valueSerde: L });
    counts
      .filter((_k, v) => v !== 2)
      .mapValues((v) => v * 10)
      .suppress(untilWindowCloses())
      .toStream()
      .to('final-filtered', { keySerde: windowedSerde, valueSerde: L });
    const driver = new TopologyTestDriver(builder.build(), { applicationId: 'suppress-windows', statestoreCacheMaxBytes: 0 });
    const input = driver.createInputTopic('input', S, S);
    input.pipeInput('a', 'x', 0);
    input.pipeInput('a', 'x', 3);
    input.pipeInput('b', 'x', 4);
    input.pipeInput('a', 'x', 12);
    input.pipeInput('x', 'x', 14);
    // stream time 14 < window end 10 + grace 5: nothing is final yet
    expect(read(driver, 'final')).toEqual([]);
    expect(read(driver, 'final-filtered')).toEqual([]);
    input.pipeInput('x', 'x', 15);
    expect(read(driver, 'final')).toEqual([
      { key: 'a', start: 0, value: 2, timestamp: 3 },
      { key: 'b', start: 0, value: 1, timestamp: 4 },
    ]);
    // a@0's latest change passed the filter as a delete (count 2): dropped, not emitted as a tombstone
    expect(read(driver, 'final-filtered')).toEqual([{ key: 'b', start: 0, value: 10, timestamp: 4 }]);
    input.pipeInput('x', 'x', 25);
    expect(read(driver, 'final')).toEqual([
      { key: 'a', start: 10, value: 1, timestamp: 12 },
      { key: 'x', start: 10, value: 2, timestamp: 15 },
    ]);
    // the buffer is logged to its changelog, as untilTimeLimit's (compacted)
    const buffer = storeOf(driver.getStateStore<InMemoryTimeOrderedChangeBuffer<Windowed<string>, number>>('KTABLE-SUPPRESS-STATE-STORE-0000000002'));
    expect([buffer.loggingEnabled, buffer.changelogConfig]).toEqual([true, { 'cleanup.policy': 'compact' }]);
    driver.close();
  });

  it('the largest grace of a join’s windowed sides wins; a join with a non-windowed side fails naming the chain', () => {
    const builder = new StreamsBuilder({ defaultValueSerde: L });
    const left = fakeWindowedCount(builder.stream('left', { keySerde: S, valueSerde: S }), 10, 5, 'LEFT-WINDOWED');
    const right = fakeWindowedCount(builder.stream('right', { keySerde: S, valueSerde: S }), 10, 50, 'RIGHT-WINDOWED');
    const joined = left.join(right, (a, b) => a + b);
    expect(findAndVerifyWindowGrace(builder.build(), joined.nodeName)).toBe(50);
    expect(() => joined.suppress(untilWindowCloses())).not.toThrow();

    const mixed = new StreamsBuilder();
    const windowedSide = fakeWindowedCount(mixed.stream('left', { keySerde: S, valueSerde: S }), 10, 5, 'LEFT-WINDOWED');
    const plain = mixed.table('right', { keySerde: S, valueSerde: S }) as unknown as KTable<Windowed<string>, string>;
    const error = thrown(() => windowedSide.join(plain, (a, b) => `${a}${b}`).suppress(untilWindowCloses()));
    expect(error).toBeInstanceOf(TopologyError);
    expect(error.message).toContain(`${NOT_WINDOWED} Got [root->KSTREAM-SOURCE-`);
    expect(error.message).toMatch(/KTABLE-SOURCE-\d{10}->KTABLE-JOINOTHER-\d{10}->KTABLE-MERGE-\d{10}\]/);
  });

  it('a source table or a non-windowed aggregation upstream fails with Kafka’s message and the fix', () => {
    const tables = new StreamsBuilder();
    const table = tables.table('input', { keySerde: S, valueSerde: S });
    expect(thrown(() => table.suppress(untilWindowCloses())).message).toMatch(
      /^Window close time is only defined for windowed computations\. Got \[root->KSTREAM-SOURCE-0000000001->KTABLE-SOURCE-0000000002\]\. .*Suppressed\.untilTimeLimit/,
    );
    const counts = new StreamsBuilder();
    const count = counts.stream('input', { keySerde: S, valueSerde: S }).groupByKey().count();
    const error = thrown(() => count.suppress(untilWindowCloses()));
    expect(error).toBeInstanceOf(TopologyError);
    expect(error.message).toContain(`${NOT_WINDOWED} Got [root->KSTREAM-SOURCE-0000000000->KSTREAM-AGGREGATE-0000000002].`);
  });

  it('untilWindowCloses takes only a strict buffer (Kafka’s StrictBufferConfig)', () => {
    expect(() => Suppressed.untilWindowCloses(BufferConfig.maxRecords(10))).toThrow(IllegalArgumentError);
    expect(() => Suppressed.untilWindowCloses(BufferConfig.maxBytes(10).emitEarlyWhenFull())).toThrow(/needs a strict buffer config.*shutDownWhenFull\(\)/);
    expect(Suppressed.untilWindowCloses(BufferConfig.maxRecords(10).shutDownWhenFull()).bufferConfig.whenFull).toBe('shutDown');
  });

  it('a full strict buffer fails the task with Kafka’s message', () => {
    const { builder, counts } = build();
    counts
      .suppress(Suppressed.untilWindowCloses(BufferConfig.maxRecords(1).shutDownWhenFull()).withName('final'))
      .toStream()
      .to('final', { keySerde: windowedSerde, valueSerde: L });
    const driver = new TopologyTestDriver(builder.build(), { applicationId: 'suppress-windows', statestoreCacheMaxBytes: 0 });
    const input = driver.createInputTopic('input', S, S);
    input.pipeInput('a', 'x', 0);
    expect(() => input.pipeInput('b', 'x', 1)).toThrow(/final buffer exceeded its max capacity\. Currently \[2\/1\] records/);
    driver.close();
  });
});
