import { describe, expect, it } from 'vitest';
import { Serdes, Stores, StreamsBuilder, Topology, TopologyError } from '../../../src/index.js';
import { TopologyTestDriver } from '../../../src/testing.js';
import { toRuntime } from '../../../src/topology/topology-runtime.js';

const S = Serdes.String();
const noop = () => ({ process() {} });
const store = (name: string) => Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(name), S, S);

function topologyError(fn: () => unknown): TopologyError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(TopologyError);
    expect((error as TopologyError).code).toBe('INVALID_TOPOLOGY');
    return error as TopologyError;
  }
  throw new Error('expected a TopologyError');
}

describe('Topology validation', () => {
  it('duplicate node name, naming the node', () => {
    const t = new Topology().addSource('src', 'in');
    expect(topologyError(() => t.addProcessor('src', noop, 'src')).message).toMatch(/Node name 'src' is already used by a source node; give the new processor node another name/);
  });

  it('unknown parent, naming the node and the parent', () => {
    const t = new Topology().addSource('src', 'in').addProcessor('p', noop, 'missing');
    expect(topologyError(() => t.validate()).message).toMatch(/Processor 'p' has unknown parent 'missing'/);
    expect(() => t.describe()).toThrow(TopologyError);
    expect(() => new TopologyTestDriver(t)).toThrow(TopologyError);
    expect(() => toRuntime(t)).toThrow(TopologyError);
  });

  it('a processor without parents', () => {
    const t = new Topology().addSource('src', 'in').addProcessor('p', noop);
    expect(topologyError(() => t.validate()).message).toMatch(/Processor 'p' has no parent/);
  });

  it('a cycle, naming the nodes of the cycle', () => {
    const t = new Topology()
      .addSource('src', 'in')
      .addProcessor('a', noop, 'src', 'c')
      .addProcessor('b', noop, 'a')
      .addProcessor('c', noop, 'b');
    expect(topologyError(() => t.validate()).message).toMatch(/cycle \(a -> b -> c -> a\)/);
  });

  it('a sink as parent', () => {
    const t = new Topology().addSource('src', 'in').addSink('sink', 'out', 'src').addProcessor('p', noop, 'sink');
    expect(topologyError(() => t.validate()).message).toMatch(/Processor 'p' has sink 'sink' as parent; a sink cannot have children/);
  });

  it('a sink without topic', () => {
    const t = new Topology().addSource('src', 'in');
    expect(topologyError(() => t.addSink('sink', '', 'src')).message).toMatch(/Sink 'sink' has no topic/);
    expect(() => t.addSink('sink', undefined as unknown as string, 'src')).toThrow(TopologyError);
  });

  it('a source without topics, and a topic read by two sources', () => {
    const t = new Topology();
    expect(topologyError(() => t.addSource('src', [])).message).toMatch(/Source 'src' needs at least one non-empty topic/);
    t.addSource('a', 'in');
    expect(topologyError(() => t.addSource('b', 'in')).message).toMatch(/topic 'in' is already read by source 'a'/);
    // the DSL reuses the source of a topic read again (Kafka's mergeDuplicateSourceNodes); an overlapping, unequal set is refused
    const b = new StreamsBuilder();
    b.stream('x');
    expect(() => b.stream('x')).not.toThrow();
    expect(() => b.stream(['x', 'y'])).toThrow(TopologyError);
  });

  it('a store added but connected to nothing', () => {
    const t = new Topology().addSource('src', 'in').addProcessor('p', noop, 'src').addStateStore(store('lonely'));
    expect(topologyError(() => t.validate()).message).toMatch(/State store 'lonely' is not connected to any processor; connect it with/);
    const b = new StreamsBuilder();
    b.stream('in').foreach(() => {});
    b.addStateStore(store('lonely'));
    expect(() => b.build()).toThrow(/State store 'lonely' is not connected/);
  });

  it('a connection to an unknown store, or to a node that is not a processor', () => {
    const t1 = new Topology().addSource('src', 'in').addProcessor('p', noop, 'src').connectProcessorAndStateStores('p', 'ghost');
    expect(topologyError(() => t1.validate()).message).toMatch(/Processor 'p' is connected to unknown state store 'ghost'/);
    const t2 = new Topology().addSource('src', 'in').addStateStore(store('s'), 'src');
    expect(topologyError(() => t2.validate()).message).toMatch(/connected to 'src', which is a source; connect stores to processor nodes only/);
    const t3 = new Topology().addSource('src', 'in').addProcessor('p', noop, 'src').addStateStore(store('s'), 'p');
    expect(() => t3.addStateStore(store('s'), 'p')).toThrow(/State store 's' is already added/);
  });

  it('a processor reading a store it is not connected to fails at init', () => {
    const t = new Topology()
      .addSource('src', 'in')
      .addProcessor('p', () => ({ init: (c) => void c.getStateStore('s'), process() {} }), 'src')
      .addProcessor('q', noop, 'src')
      .addStateStore(store('s'), 'q');
    expect(() => new TopologyTestDriver(t)).toThrow(/Processor 'p' asked for state store 's' but is not connected to it/);
  });

  it('an empty topology cannot run', () => {
    expect(() => new StreamsBuilder().build()).toThrow(TopologyError);
    expect(() => new TopologyTestDriver(new Topology())).toThrow(/no source node/);
  });

  it('co-partitioning: a sub-topology reading several topics needs equal partition counts', () => {
    const runtime = toRuntime(new Topology().addSource('src', ['a', 'b']).addSource('src2', 'c'));
    expect(runtime.subtopologies).toEqual([
      { id: 0, sourceTopics: ['a', 'b'], sinkTopics: [] },
      { id: 1, sourceTopics: ['c'], sinkTopics: [] },
    ]);
    expect(runtime.sourceTopics()).toEqual(['a', 'b', 'c']);
    expect(() => runtime.validatePartitionCounts(new Map([['a', 3], ['b', 3], ['c', 1]]))).not.toThrow();
    expect(topologyError(() => runtime.validatePartitionCounts(new Map([['a', 3], ['b', 2], ['c', 1]]))).message).toMatch(
      /Sub-topology 0 reads topics that are not co-partitioned: a \(3 partitions\), b \(2 partitions\)/,
    );
    expect(topologyError(() => runtime.validatePartitionCounts(new Map([['a', 3], ['b', 3]]))).message).toMatch(/Source topic 'c' of sub-topology 1 does not exist/);
  });

  it('createTask rejects an unknown sub-topology', () => {
    const runtime = toRuntime(new Topology().addSource('src', 'in'));
    const handlers = { deserialization: { handle: () => 'FAIL' as const }, processing: { handle: () => 'FAIL' as const } };
    expect(() => runtime.createTask({ subtopology: 4, partition: 0 }, { send() {} }, handlers)).toThrow(/Task 4_0: no sub-topology 4/);
  });
});
