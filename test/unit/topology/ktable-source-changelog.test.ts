/**
 * `builder.build({ topologyOptimization: 'all' })` (Kafka's
 * `topology.optimization=all`, `reuse.ktable.source.topics`): the store of a
 * `builder.table` source gets its source topic as changelog in the plan; no
 * `-changelog` topic; describe() unchanged.
 */
import { describe, expect, it } from 'vitest';
import { BufferConfig, IllegalArgumentError, Materialized, Serdes, StreamsBuilder, Suppressed } from '../../../src/index.js';
import { planOf } from '../../../src/topology/topology.js';
import { PlanRuntime } from '../../../src/topology/topology-runtime.js';
import { TopologyTestDriver } from '../../../src/testing.js';
import { resolveConfig, type KafkaStreamsConfig } from '../../../src/runtime/config.js';
import { storeOf } from '../../helpers/store-of.js';

const S = Serdes.String();

function tableApp() {
  const builder = new StreamsBuilder();
  builder.table('prices', { keySerde: S, valueSerde: S }, Materialized.as<string, string>('prices-store')).toStream().to('out', { keySerde: S, valueSerde: S });
  builder.stream('events', { keySerde: S, valueSerde: S }).toTable(Materialized.as<string, string>('events-store'));
  return builder;
}

const changelogs = (plan: ReturnType<typeof planOf>) => new PlanRuntime(plan).changelogTopics('app').map((c) => c.topic).sort();

describe('reuse.ktable.source.topics (topologyOptimization)', () => {
  it("default ('none'): the table source's store has its own changelog topic", () => {
    const plan = planOf(tableApp().build());
    expect(plan.stores.get('prices-store')?.sourceChangelogTopic).toBeUndefined();
    expect(changelogs(plan)).toEqual(['app-events-store-changelog', 'app-prices-store-changelog']);
    expect(new PlanRuntime(plan).sourceChangelogs()).toEqual(new Map());
  });

  it("'all': the store's changelog is the source topic; no -changelog topic for it; toTable() is not affected", () => {
    const plan = planOf(tableApp().build({ topologyOptimization: 'all' }));
    expect(plan.stores.get('prices-store')?.sourceChangelogTopic).toBe('prices');
    expect(plan.stores.get('events-store')?.sourceChangelogTopic).toBeUndefined();
    expect(changelogs(plan)).toEqual(['app-events-store-changelog']);
    expect(new PlanRuntime(plan).sourceChangelogs()).toEqual(new Map([['prices-store', 'prices']]));
  });

  it("Kafka's names are accepted ('reuse.ktable.source.topics', a list); unknown or unimplemented ones are refused clearly", () => {
    for (const value of ['reuse.ktable.source.topics', ['reuse.ktable.source.topics']] as const) {
      expect(planOf(tableApp().build({ topologyOptimization: value })).stores.get('prices-store')?.sourceChangelogTopic).toBe('prices');
    }
    expect(planOf(tableApp().build({ topologyOptimization: 'none' })).stores.get('prices-store')?.sourceChangelogTopic).toBeUndefined();
    expect(() => tableApp().build({ topologyOptimization: 'merge.repartition.topics' })).toThrow(/not implemented by sluice yet/);
    expect(() => tableApp().build({ topologyOptimization: 'fast' })).toThrow(IllegalArgumentError);
    expect(() => tableApp().build({ topologyOptimization: 'all,reuse.ktable.source.topics' })).toThrow(/cannot be combined/);
  });

  it('a table source materialized only because a downstream node needs it (suppress) reuses its topic too', () => {
    const builder = new StreamsBuilder();
    builder.table('prices', { keySerde: S, valueSerde: S }).suppress(Suppressed.untilTimeLimit(0, BufferConfig.unbounded()));
    const plan = planOf(builder.build({ topologyOptimization: 'all' }));
    expect(plan.stores.get('prices-STATE-STORE-0000000000')?.sourceChangelogTopic).toBe('prices');
    expect(changelogs(plan)).toEqual(['app-KTABLE-SUPPRESS-STATE-STORE-0000000004-changelog']);
  });

  it('describe() is the same with and without the optimization', () => {
    expect(tableApp().build({ topologyOptimization: 'all' }).describe().toString()).toBe(tableApp().build().describe().toString());
  });

  it('the TopologyTestDriver runs the optimized table as the plain one', () => {
    const driver = new TopologyTestDriver(tableApp().build({ topologyOptimization: 'all' }), { applicationId: 'app' });
    const input = driver.createInputTopic('prices', S, S);
    input.pipeInput('a', '1');
    input.pipeInput('a', '2');
    expect(driver.createOutputTopic('out', S, S).readValuesToList()).toEqual(['1', '2']);
    expect(storeOf(driver.getKeyValueStore<string, string>('prices-store')).get('a')).toBe('2');
    driver.close();
  });

  it('topologyOptimization on the KafkaStreams config is an error naming builder.build (it applies at build time)', () => {
    expect(() => resolveConfig({ applicationId: 'app', topologyOptimization: 'all' } as unknown as KafkaStreamsConfig)).toThrow(/builder\.build\(\{ topologyOptimization: 'all' \}\)/);
  });
});
