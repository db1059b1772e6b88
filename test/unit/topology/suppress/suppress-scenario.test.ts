/**
 * Ports of Kafka's `SuppressScenarioTest` untilTimeLimit cases (through the
 * TopologyTestDriver), inputs and outputs unchanged. They group a table
 * (`KTable.groupBy`), built by the table-grouping work: until it is on the
 * branch they are skipped. The cases after them exercise the same emit rules
 * through `stream.groupByKey().count()`.
 */
import { describe, expect, it } from 'vitest';
import { BufferConfig, Materialized, Serdes, StreamsBuilder, Suppressed, TopologyError } from '../../../../src/index.js';
import type { KTable } from '../../../../src/index.js';
import { TopologyTestDriver } from '../../../../src/testing.js';

const S = Serdes.String();
const L = Serdes.Long();
const LONG_MAX = Number.MAX_SAFE_INTEGER;
const kvt = (key: string, value: number | null, timestamp: number) => ({ key, value, timestamp });

function drain(driver: TopologyTestDriver, topic: string) {
  return driver
    .createOutputTopic(topic, S, L)
    .readRecordsToList()
    .map((r) => kvt(r.key as string, r.value as number | null, r.timestamp));
}

/** `builder.table("input", ...).groupBy((k, v) -> (v, k)).count()`, or undefined while KTable.groupBy is a stub. */
function valueCounts(builder: StreamsBuilder, countMaterialized?: Materialized<string, number>): KTable<string, number> | undefined {
  const table = builder.table('input', { keySerde: S, valueSerde: S }, Materialized.with(S, S).withCachingDisabled().withLoggingDisabled());
  try {
    const grouped = table.groupBy((k, v) => ({ key: v, value: k }), { keySerde: S, valueSerde: S });
    return countMaterialized === undefined ? grouped.count() : grouped.count(countMaterialized);
  } catch (error) {
    if (error instanceof TopologyError && /not implemented/.test(error.message)) return undefined;
    throw error;
  }
}

const groupByAvailable = valueCounts(new StreamsBuilder()) !== undefined;

function scenario(suppressed: Suppressed<string>, countMaterialized?: Materialized<string, number>) {
  const builder = new StreamsBuilder();
  const counts = valueCounts(builder, countMaterialized) as KTable<string, number>;
  counts.suppress(suppressed).toStream().to('output-suppressed', { keySerde: S, valueSerde: L });
  counts.toStream().to('output-raw', { keySerde: S, valueSerde: L });
  const driver = new TopologyTestDriver(builder.build(), { applicationId: 'suppress-scenario' });
  return { driver, input: driver.createInputTopic('input', S, S) };
}

describe.skipIf(!groupByAvailable)('SuppressScenarioTest (ported; needs KTable.groupBy)', () => {
  // SuppressScenarioTest.shouldImmediatelyEmitEventsWithZeroEmitAfter
  it('shouldImmediatelyEmitEventsWithZeroEmitAfter', () => {
    const { driver, input } = scenario(Suppressed.untilTimeLimit(0, BufferConfig.unbounded()));
    input.pipeInput('k1', 'v1', 0);
    input.pipeInput('k1', 'v2', 1);
    input.pipeInput('k2', 'v1', 2);
    const first = [kvt('v1', 1, 0), kvt('v1', 0, 1), kvt('v2', 1, 1), kvt('v1', 1, 2)];
    expect(drain(driver, 'output-raw')).toEqual(first);
    expect(drain(driver, 'output-suppressed')).toEqual(first);
    input.pipeInput('x', 'x', 3);
    expect(drain(driver, 'output-raw')).toEqual([kvt('x', 1, 3)]);
    expect(drain(driver, 'output-suppressed')).toEqual([kvt('x', 1, 3)]);
    input.pipeInput('x', 'y', 4);
    expect(drain(driver, 'output-raw')).toEqual([kvt('x', 0, 4), kvt('y', 1, 4)]);
    expect(drain(driver, 'output-suppressed')).toEqual([kvt('x', 0, 4), kvt('y', 1, 4)]);
    driver.close();
  });

  // SuppressScenarioTest.shouldSuppressIntermediateEventsWithTimeLimit
  it('shouldSuppressIntermediateEventsWithTimeLimit', () => {
    const { driver, input } = scenario(Suppressed.untilTimeLimit(2, BufferConfig.unbounded()));
    input.pipeInput('k1', 'v1', 0);
    input.pipeInput('k1', 'v2', 1);
    input.pipeInput('k2', 'v1', 2);
    expect(drain(driver, 'output-raw')).toEqual([kvt('v1', 1, 0), kvt('v1', 0, 1), kvt('v2', 1, 1), kvt('v1', 1, 2)]);
    expect(drain(driver, 'output-suppressed')).toEqual([kvt('v1', 1, 2)]);
    // inserting a dummy "tick" record just to advance stream time
    input.pipeInput('tick', 'tick', 3);
    expect(drain(driver, 'output-raw')).toEqual([kvt('tick', 1, 3)]);
    // the stream time is now 3, so it's time to emit this record
    expect(drain(driver, 'output-suppressed')).toEqual([kvt('v2', 1, 1)]);
    input.pipeInput('tick', 'tock', 4);
    expect(drain(driver, 'output-raw')).toEqual([kvt('tick', 0, 4), kvt('tock', 1, 4)]);
    // tick is still buffered, since it was first inserted at time 3, and it is only time 4 right now.
    expect(drain(driver, 'output-suppressed')).toEqual([]);
    driver.close();
  });

  // SuppressScenarioTest.shouldSuppressIntermediateEventsWithRecordLimit
  it('shouldSuppressIntermediateEventsWithRecordLimit', () => {
    const { driver, input } = scenario(Suppressed.untilTimeLimit(LONG_MAX, BufferConfig.maxRecords(1).emitEarlyWhenFull()), Materialized.with(S, L));
    input.pipeInput('k1', 'v1', 0);
    input.pipeInput('k1', 'v2', 1);
    input.pipeInput('k2', 'v1', 2);
    expect(drain(driver, 'output-raw')).toEqual([kvt('v1', 1, 0), kvt('v1', 0, 1), kvt('v2', 1, 1), kvt('v1', 1, 2)]);
    // consecutive updates to v1 get suppressed into only the latter; the last update won't be evicted until another key comes along.
    expect(drain(driver, 'output-suppressed')).toEqual([kvt('v1', 0, 1), kvt('v2', 1, 1)]);
    input.pipeInput('x', 'x', 3);
    expect(drain(driver, 'output-raw')).toEqual([kvt('x', 1, 3)]);
    // now we see that last update to v1, but we won't see the update to x until it gets evicted
    expect(drain(driver, 'output-suppressed')).toEqual([kvt('v1', 1, 2)]);
    driver.close();
  });

  // SuppressScenarioTest.shouldSuppressIntermediateEventsWithBytesLimit
  it('shouldSuppressIntermediateEventsWithBytesLimit', () => {
    // this is a bit brittle, but I happen to know that the entries are a little over 100 bytes in size.
    const { driver, input } = scenario(Suppressed.untilTimeLimit(LONG_MAX, BufferConfig.maxBytes(200).emitEarlyWhenFull()));
    input.pipeInput('k1', 'v1', 0);
    input.pipeInput('k1', 'v2', 1);
    input.pipeInput('k2', 'v1', 2);
    expect(drain(driver, 'output-raw')).toEqual([kvt('v1', 1, 0), kvt('v1', 0, 1), kvt('v2', 1, 1), kvt('v1', 1, 2)]);
    expect(drain(driver, 'output-suppressed')).toEqual([kvt('v1', 0, 1), kvt('v2', 1, 1)]);
    input.pipeInput('x', 'x', 3);
    expect(drain(driver, 'output-raw')).toEqual([kvt('x', 1, 3)]);
    expect(drain(driver, 'output-suppressed')).toEqual([kvt('v1', 1, 2)]);
    driver.close();
  });
});

/** `builder.stream("input").groupByKey().count()` suppressed as `suppressed`, uncached so every count update reaches it. */
function streamCounts(suppressed: Suppressed<string>) {
  const builder = new StreamsBuilder();
  const counts = builder.stream('input', { keySerde: S, valueSerde: S }).groupByKey().count(Materialized.with(S, L).withCachingDisabled());
  counts.suppress(suppressed).toStream().to('output-suppressed', { keySerde: S, valueSerde: L });
  const topology = builder.build();
  const driver = new TopologyTestDriver(topology, { applicationId: 'suppress-counts' });
  return { driver, topology, input: driver.createInputTopic('input', S, S) };
}

describe('suppress after stream.groupByKey().count()', () => {
  it('untilTimeLimit emits the latest count of a key once stream time passed its first held update + the limit', () => {
    const { driver, input } = streamCounts(Suppressed.untilTimeLimit(2, BufferConfig.unbounded()));
    input.pipeInput('a', 'x', 0);
    input.pipeInput('a', 'x', 1);
    input.pipeInput('b', 'x', 1);
    expect(drain(driver, 'output-suppressed')).toEqual([]);
    input.pipeInput('c', 'x', 2); // stream time 2: 'a' (held since 0) is due
    expect(drain(driver, 'output-suppressed')).toEqual([kvt('a', 2, 1)]);
    input.pipeInput('c', 'x', 10); // stream time 10: 'b' (held since 1) and 'c' (held since 2) are due, oldest first
    expect(drain(driver, 'output-suppressed')).toEqual([kvt('b', 1, 1), kvt('c', 2, 10)]);
    driver.close();
  });

  it('maxRecords(1) emits the older key early; shutDownWhenFull fails with Kafka’s message', () => {
    const early = streamCounts(Suppressed.untilTimeLimit(LONG_MAX, BufferConfig.maxRecords(1)));
    early.input.pipeInput('a', 'x', 0);
    early.input.pipeInput('a', 'x', 1);
    early.input.pipeInput('b', 'x', 2);
    expect(drain(early.driver, 'output-suppressed')).toEqual([kvt('a', 2, 1)]);
    early.driver.close();
    const strict = streamCounts(Suppressed.untilTimeLimit(LONG_MAX, BufferConfig.maxRecords(1).shutDownWhenFull()).withName('hold'));
    strict.input.pipeInput('a', 'x', 0);
    expect(() => strict.input.pipeInput('b', 'x', 1)).toThrow(/hold buffer exceeded its max capacity\. Currently \[2\/1\] records/);
    strict.driver.close();
  });

  it('describe() names the node KTABLE-SUPPRESS-<n> with its store KTABLE-SUPPRESS-STATE-STORE-<n>, or <name> / <name>-store', () => {
    const { topology, driver } = streamCounts(Suppressed.untilTimeLimit(1, BufferConfig.unbounded()));
    const text = topology.describe().toString();
    expect(text).toContain('Processor: KTABLE-SUPPRESS-0000000003 (stores: [KTABLE-SUPPRESS-STATE-STORE-0000000004])');
    driver.close();
    const named = streamCounts(Suppressed.untilTimeLimit(1, BufferConfig.unbounded()).withName('hold'));
    expect(named.topology.describe().toString()).toContain('Processor: hold (stores: [hold-store])');
    named.driver.close();
  });

  it('untilWindowCloses on a non-windowed table is a clear TopologyError', () => {
    const builder = new StreamsBuilder();
    const table = builder.table('input', { keySerde: S, valueSerde: S });
    expect(() => table.suppress(Suppressed.untilWindowCloses(BufferConfig.unbounded()))).toThrow(/needs a windowed table/);
  });
});
