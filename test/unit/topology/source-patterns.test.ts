/**
 * Resolving source patterns (what `KafkaStreams.start()` does with the
 * cluster's topic list): whole-name matches, named topics left to their
 * source, broker/app-internal topics excluded, clear errors.
 */
import { describe, expect, it } from 'vitest';
import { Serdes, StreamsBuilder, Topology, TopologyError } from '../../../src/index.js';
import { TopologyTestDriver } from '../../../src/testing.js';
import { isExcludedFromPatterns } from '../../../src/runtime/internal/source-patterns.js';
import { toRuntime } from '../../../src/topology/topology-runtime.js';

const S = Serdes.String();
const STR = { keySerde: S, valueSerde: S };

describe('source pattern resolution', () => {
  it('matches whole topic names only, sorted; the sub-topology and the subscription read the matches', () => {
    const b = new StreamsBuilder();
    b.stream(/orders-(eu|us)/, STR).to('out', STR);
    const runtime = toRuntime(b.build(), { applicationId: 'app' });
    expect(runtime.sourceTopics()).toEqual([]);
    expect(runtime.sourcePatterns().map((p) => p.text)).toEqual(['orders-(eu|us)']);
    const resolved = runtime.resolveSourcePatterns(['orders-us', 'orders-eu-archive', 'x-orders-eu', 'orders-eu', 'out']);
    expect(resolved.sourceTopics()).toEqual(['orders-eu', 'orders-us']);
    expect(() => resolved.validatePartitionCounts(new Map([['orders-eu', 2], ['orders-us', 3]]))).toThrow(/not co-partitioned/);
  });

  it('a repartition after a pattern source is sized from the matched topics', () => {
    const b = new StreamsBuilder();
    b.stream(/in-.*/, STR).selectKey((_k, v) => v).groupByKey({ name: 'g', keySerde: S, valueSerde: S }).count();
    const resolved = toRuntime(b.build(), { applicationId: 'app' }).resolveSourcePatterns(['in-a', 'in-b']);
    expect([...resolved.internalTopicPartitionCounts(new Map([['in-a', 4], ['in-b', 4]]))]).toEqual([['app-g-repartition', 4]]);
  });

  it('a pattern never takes an internal topic (even /.*/ before a groupBy); no match at all is an error naming the pattern', () => {
    const b = new StreamsBuilder();
    b.stream(/.*/, STR).selectKey((_k, v) => v).groupByKey({ name: 'g', keySerde: S, valueSerde: S }).count();
    const resolved = toRuntime(b.build(), { applicationId: 'app' }).resolveSourcePatterns(['in', 'app-g-repartition']);
    expect(resolved.subtopologies.map((s) => s.sourceTopics)).toEqual([['in'], ['app-g-repartition']]);
    const t = new Topology().addSource('named', 'other').addSource('pattern', /logs-[a-z]/).addSink('sink', 'out', 'named', 'pattern');
    expect(() => toRuntime(t).resolveSourcePatterns(['other', 'logs-1'])).toThrow(
      new TopologyError(
        "Source 'pattern' (pattern logs-[a-z]) matches no topic of the cluster; sluice resolves source patterns once, at start: create a matching topic, then start the application",
      ),
    );
  });

  it('a topic two patterns match: Kafka\'s error, at start and in the driver', () => {
    const t = new Topology().addSource('p1', /topic-\d/).addSource('p2', /topic-[0-9A-Z]/).addSink('sink', 'out', 'p1', 'p2');
    const message = 'Topic topic-1 is already matched for another regex pattern topic-\\d and hence cannot be matched to this regex pattern topic-[0-9A-Z] any more.';
    expect(() => toRuntime(t).resolveSourcePatterns(['topic-1'])).toThrow(new TopologyError(message));
    const driver = new TopologyTestDriver(t);
    expect(() => driver.createInputTopic('topic-1', S, S)).toThrow(new TopologyError(message));
    expect(() => driver.createInputTopic('nope', S, S)).toThrow(/or match one of its patterns \[topic-\\d, topic-\[0-9A-Z\]\]/);
    driver.close();
  });

  it('patterns never match broker topics nor the app\'s own repartition/changelog topics', () => {
    const internal = new Set(['app-g-repartition']);
    expect(isExcludedFromPatterns('__consumer_offsets', 'app', internal)).toBe(true);
    expect(isExcludedFromPatterns('app-g-repartition', 'app', internal)).toBe(true);
    expect(isExcludedFromPatterns('app-store-changelog', 'app', internal)).toBe(true);
    expect(isExcludedFromPatterns('other-app-store-changelog', 'app', internal)).toBe(false);
    expect(isExcludedFromPatterns('orders', 'app', internal)).toBe(false);
  });

  it('flags: /i is kept, /g is dropped (no stateful matching); toMermaid shows the pattern', () => {
    const b = new StreamsBuilder();
    b.stream(/ORDERS/gi, STR).to('out', STR);
    const topology = b.build();
    expect(toRuntime(topology).resolveSourcePatterns(['orders', 'Orders', 'orders2']).sourceTopics()).toEqual(['Orders', 'orders']);
    expect(topology.describe().toMermaid()).toContain('/"/ORDERS/"/');
  });
});
