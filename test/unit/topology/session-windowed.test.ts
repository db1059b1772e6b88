/**
 * windowedBy(SessionWindows) beyond Kafka's ported tests: Kafka's node and
 * store names, the windowed key serde of the resulting table (Kafka's
 * `SessionWindowedSerializer` layout on the output topic), the session
 * store's checks (retention, supplier kind) with Kafka's messages, the
 * changelog configs, old values of merged sessions, and a repartitioned
 * grouping.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { EmitStrategy, Grouped, IllegalArgumentError, Materialized, Serdes, SessionWindows, Stores, StreamsBuilder, WindowedSerdes } from '../../../src/index.js';
import type { Change } from '../../../src/processors/dsl/change.js';
import { TopologyTestDriver } from '../../../src/testing.js';
import { impl } from '../../helpers/dsl-impl.js';

const S = Serdes.String();
let driver: TopologyTestDriver | undefined;
afterEach(() => {
  driver?.close();
  driver = undefined;
});

function grouped(b: StreamsBuilder) {
  return b.stream<string, string>('in', { keySerde: S, valueSerde: S }).groupByKey(Grouped.with(S, S));
}

describe('windowedBy(SessionWindows)', () => {
  it("names the aggregation and its store as Kafka's (KSTREAM-AGGREGATE-…, …-STATE-STORE-…)", () => {
    const b = new StreamsBuilder();
    grouped(b).windowedBy(SessionWindows.ofInactivityGapWithNoGrace(10)).count();
    const text = b.build().describe().toString();
    expect(text).toContain('Processor: KSTREAM-AGGREGATE-0000000002 (stores: [KSTREAM-AGGREGATE-STATE-STORE-0000000001])');
    const r = new StreamsBuilder();
    grouped(r).windowedBy(SessionWindows.ofInactivityGapWithNoGrace(10)).reduce((a, v) => a + v, 'my-reduce');
    expect(r.build().describe().toString()).toContain('Processor: my-reduce (stores: [KSTREAM-REDUCE-STATE-STORE-0000000001])');
    // Kafka's count(Materialized) without a name takes one store index more (count(Named, Materialized) calls newStoreName, then MaterializedInternal does)
    const c = new StreamsBuilder();
    grouped(c).windowedBy(SessionWindows.ofInactivityGapWithNoGrace(10)).count(Materialized.with(S, Serdes.Long()));
    expect(c.build().describe().toString()).toContain('Processor: KSTREAM-AGGREGATE-0000000003 (stores: [KSTREAM-AGGREGATE-STATE-STORE-0000000002])');
  });

  it("writes windowed keys with Kafka's session layout (key | end | start) and counts as Java longs", () => {
    const b = new StreamsBuilder();
    grouped(b).windowedBy(SessionWindows.ofInactivityGapWithNoGrace(10)).count().toStream().to('out');
    driver = new TopologyTestDriver(b.build(), { statestoreCacheMaxBytes: 0 });
    const input = driver.createInputTopic('in', S, S);
    input.pipeInput('k', 'a', 100);
    input.pipeInput('k', 'b', 105);
    const raw = driver.createOutputTopic('out', Serdes.Buffer(), Serdes.Buffer()).readKeyValuesToList();
    const expectedKey = (start: number, end: number) => {
      const key = Buffer.alloc(1 + 16);
      key.write('k');
      key.writeBigInt64BE(BigInt(end), 1);
      key.writeBigInt64BE(BigInt(start), 9);
      return key;
    };
    expect(raw.map((r) => r.key)).toEqual([expectedKey(100, 100), expectedKey(100, 100), expectedKey(100, 105)]);
    expect(raw[1]!.value).toBeNull(); // the merged session's tombstone
    expect(WindowedSerdes.sessionWindowedSerdeFrom(S).deserialize('out', raw[2]!.key!)).toEqual({ key: 'k', window: { start: 100, end: 105 } });
    expect(Serdes.Long().deserialize('out', raw[2]!.value!)).toBe(2);
  });

  it("checks the retention against gap + grace with Kafka's message", () => {
    const b = new StreamsBuilder();
    const windowed = grouped(b).windowedBy(SessionWindows.ofInactivityGapAndGrace(10, 5));
    expect(() => windowed.count(Materialized.as<string, number>('short').withRetention(14))).toThrow(
      new IllegalArgumentError('The retention period of the session store short must be no smaller than the session inactivity gap plus the grace period. Got gap=[10], grace=[5], retention=[14]'),
    );
    expect(() => windowed.count(Materialized.as<string, number>('exact').withRetention(15))).not.toThrow();
  });

  it('refuses a key-value or window store supplier, naming the session factories', () => {
    const b = new StreamsBuilder();
    const windowed = grouped(b).windowedBy(SessionWindows.ofInactivityGapWithNoGrace(10));
    expect(() => windowed.count(Materialized.as(Stores.inMemoryKeyValueStore('kv')))).toThrow(/needs a session store supplier \(Stores.persistentSessionStore \/ inMemorySessionStore\); got the key-value store supplier 'kv'/);
    expect(() => windowed.count(Materialized.as(Stores.inMemoryWindowStore('w', 100, 10, false)))).toThrow(/got the window store supplier 'w'/);
  });

  it('uses a given session store supplier, changelogged compact,delete with retention + 1 day', () => {
    const b = new StreamsBuilder();
    grouped(b)
      .windowedBy(SessionWindows.ofInactivityGapWithNoGrace(10))
      .count(Materialized.as(Stores.inMemorySessionStore('mem', 1000)));
    const gb = new StreamsBuilder();
    grouped(gb).windowedBy(SessionWindows.ofInactivityGapAndGrace(10, 5)).count(Materialized.as('persistent'));
    driver = new TopologyTestDriver(b.build());
    const mem = driver.getSessionStore<string, number>('mem') as unknown as { persistent: boolean; changelogConfig: Record<string, string> };
    expect(mem.persistent).toBe(false);
    driver.close();
    driver = new TopologyTestDriver(gb.build());
    const persistent = driver.getSessionStore<string, number>('persistent') as unknown as { persistent: boolean; changelogConfig: Record<string, string> };
    expect(persistent.persistent).toBe(true);
    expect(persistent.changelogConfig).toEqual({ 'cleanup.policy': 'compact,delete', 'retention.ms': String(15 + 24 * 60 * 60 * 1000) });
  });

  it('sends the old aggregate with the tombstone of a merged session once a downstream node asks for old values', () => {
    const b = new StreamsBuilder();
    const table = grouped(b).windowedBy(SessionWindows.ofInactivityGapWithNoGrace(10)).count(Materialized.with(S, Serdes.Long()).withCachingDisabled());
    const seen: Array<Change<number>> = [];
    (impl(table).supplier as { enableSendingOldValues(force: boolean): boolean }).enableSendingOldValues(true);
    b.build().addProcessor('probe', () => ({ process: (r) => void seen.push(r.value as Change<number>) }), table.nodeName);
    // build() returns the builder's topology, with the probe attached
    driver = new TopologyTestDriver(b.build(), { statestoreCacheMaxBytes: 0 });
    const input = driver.createInputTopic('in', S, S);
    input.pipeInput('k', 'a', 100);
    input.pipeInput('k', 'b', 105);
    expect(seen.map((c) => [c.newValue, c.oldValue])).toEqual([
      [1, null],
      [null, 1],
      [2, null],
    ]);
  });

  it('emits each closed session once with onWindowClose(), after a repartition', () => {
    const b = new StreamsBuilder();
    b.stream<string, string>('in', { keySerde: S, valueSerde: S })
      .groupBy((_k, v) => v, Grouped.with(S, S))
      .windowedBy(SessionWindows.ofInactivityGapWithNoGrace(10))
      .emitStrategy(EmitStrategy.onWindowClose())
      .count()
      .toStream()
      .to('out', { keySerde: WindowedSerdes.sessionWindowedSerdeFrom(S), valueSerde: Serdes.Long() });
    driver = new TopologyTestDriver(b.build());
    const input = driver.createInputTopic('in', S, S);
    input.pipeInput('x', 'v', 100);
    input.pipeInput('y', 'v', 104);
    input.pipeInput('z', 'w', 200); // stream time 200: [100,104] of v closed (104 + 10 < 200)
    input.pipeInput('z', 'w', 300);
    const out = driver.createOutputTopic('out', WindowedSerdes.sessionWindowedSerdeFrom(S), Serdes.Long()).readKeyValuesToList();
    expect(out).toEqual([
      { key: { key: 'v', window: { start: 100, end: 104 } }, value: 2 },
      { key: { key: 'w', window: { start: 200, end: 200 } }, value: 1 },
    ]);
    expect(() => grouped(new StreamsBuilder()).windowedBy(SessionWindows.ofInactivityGapWithNoGrace(1)).emitStrategy(null as never)).toThrow("emitStrategy can't be null");
  });
});
