import { describe, expect, it } from 'vitest';
import { Branched, Named, Serdes, Stores, StreamsBuilder, Topology } from '../../../src/index.js';

const S = Serdes.String();
const STR = { keySerde: S, valueSerde: S };

function multiBranch(): Topology {
  const b = new StreamsBuilder();
  const branches = b
    .stream<string, string>('in', STR)
    .split(Named.as('split-'))
    .branch((_k, v) => v.startsWith('a'), Branched.as('a'))
    .branch((_k, v) => v.startsWith('b'), Branched.as('b'))
    .defaultBranch(Branched.as('other'));
  branches.get('split-a')!.to('out-a', STR);
  branches.get('split-b')!.mapValues((v) => v.toUpperCase()).to('out-b', STR);
  branches.get('split-other')!.to('out-other', STR);
  b.stream<string, string>('counts-in', STR).groupByKey().count().toStream().to('counts', { keySerde: S, valueSerde: Serdes.Json<number>() });
  return b.build();
}

describe('Topology.describe()', () => {
  it("prints Kafka Streams' layout for a multi-branch topology with two sub-topologies", () => {
    expect(multiBranch().describe().toString()).toBe(
      [
        'Topologies:',
        '   Sub-topology: 0',
        '    Source: KSTREAM-SOURCE-0000000000 (topics: [in])',
        '      --> split-',
        '    Processor: split- (stores: [])',
        '      --> split-b, split-a, split-other',
        '      <-- KSTREAM-SOURCE-0000000000',
        '    Processor: split-b (stores: [])',
        '      --> KSTREAM-MAPVALUES-0000000002',
        '      <-- split-',
        '    Processor: KSTREAM-MAPVALUES-0000000002 (stores: [])',
        '      --> KSTREAM-SINK-0000000003',
        '      <-- split-b',
        '    Processor: split-a (stores: [])',
        '      --> KSTREAM-SINK-0000000001',
        '      <-- split-',
        '    Processor: split-other (stores: [])',
        '      --> KSTREAM-SINK-0000000004',
        '      <-- split-',
        '    Sink: KSTREAM-SINK-0000000001 (topic: out-a)',
        '      <-- split-a',
        '    Sink: KSTREAM-SINK-0000000003 (topic: out-b)',
        '      <-- KSTREAM-MAPVALUES-0000000002',
        '    Sink: KSTREAM-SINK-0000000004 (topic: out-other)',
        '      <-- split-other',
        '',
        '  Sub-topology: 1',
        '    Source: KSTREAM-SOURCE-0000000005 (topics: [counts-in])',
        '      --> KSTREAM-AGGREGATE-0000000007',
        '    Processor: KSTREAM-AGGREGATE-0000000007 (stores: [KSTREAM-AGGREGATE-STATE-STORE-0000000006])',
        '      --> KTABLE-TOSTREAM-0000000008',
        '      <-- KSTREAM-SOURCE-0000000005',
        '    Processor: KTABLE-TOSTREAM-0000000008 (stores: [])',
        '      --> KSTREAM-SINK-0000000009',
        '      <-- KSTREAM-AGGREGATE-0000000007',
        '    Sink: KSTREAM-SINK-0000000009 (topic: counts)',
        '      <-- KTABLE-TOSTREAM-0000000008',
        '',
        '',
      ].join('\n'),
    );
  });

  it('prints the example layout of the issue for a filter topology', () => {
    const b = new StreamsBuilder();
    b.stream<string, string>('in', STR).filter(() => true).to('out', STR);
    expect(b.build().describe().toString()).toBe(
      'Topologies:\n' +
        '   Sub-topology: 0\n' +
        '    Source: KSTREAM-SOURCE-0000000000 (topics: [in])\n' +
        '      --> KSTREAM-FILTER-0000000001\n' +
        '    Processor: KSTREAM-FILTER-0000000001 (stores: [])\n' +
        '      --> KSTREAM-SINK-0000000002\n' +
        '      <-- KSTREAM-SOURCE-0000000000\n' +
        '    Sink: KSTREAM-SINK-0000000002 (topic: out)\n' +
        '      <-- KSTREAM-FILTER-0000000001\n\n',
    );
  });

  it('exposes structured nodes; processors with no children say none; extractor sinks name the function', () => {
    const t = new Topology()
      .addSource('src', ['a', 'b'])
      .addProcessor('leaf', () => ({ process() {} }), 'src')
      .addSink('dyn', function routeByKey() {
        return 'x';
      }, 'src');
    const d = t.describe();
    expect(d.subtopologies[0]!.nodes).toEqual([
      { type: 'source', name: 'src', topics: ['a', 'b'], successors: ['dyn', 'leaf'], predecessors: [] },
      { type: 'sink', name: 'dyn', topic: null, extractor: 'routeByKey', successors: [], predecessors: ['src'] },
      { type: 'processor', name: 'leaf', stores: [], successors: [], predecessors: ['src'] },
    ]);
    expect(d.toString()).toContain('    Processor: leaf (stores: [])\n      --> none\n      <-- src\n');
    expect(d.toString()).toContain('    Sink: dyn (extractor class: routeByKey)\n      <-- src\n');
    expect(d.toString()).toContain('Source: src (topics: [a, b])');
  });

  it('sub-topologies are connected components, joined by shared stores, numbered by sorted source names', () => {
    const t = new Topology()
      .addSource('s2', 'b')
      .addSource('s1', 'a')
      .addProcessor('p1', () => ({ process() {} }), 's1')
      .addProcessor('p2', () => ({ process() {} }), 's2');
    expect(t.describe().subtopologies.map((s) => s.nodes.map((n) => n.name))).toEqual([['s1', 'p1'], ['s2', 'p2']]);
    t.connectProcessorAndStateStores('p1', 'shared').connectProcessorAndStateStores('p2', 'shared');
    t.addStateStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore('shared'), Serdes.String(), Serdes.String()));
    const joined = t.describe();
    expect(joined.subtopologies).toHaveLength(1);
    expect(joined.subtopologies[0]!.nodes.map((n) => n.name).sort()).toEqual(['p1', 'p2', 's1', 's2']);
  });

  it('toMermaid draws topics, nodes, stores and one subgraph per sub-topology', () => {
    const mermaid = multiBranch().describe().toMermaid();
    expect(mermaid.startsWith('flowchart TB\n')).toBe(true);
    expect(mermaid).toContain('subgraph sub0["Sub-topology: 0"]');
    expect(mermaid).toContain('subgraph sub1["Sub-topology: 1"]');
    const id = (label: string) => new RegExp(`(n\\d+)\\[${label.replace(/[-[\]/"()]/g, '\\$&')}\\]`).exec(mermaid)?.[1];
    const source = id('"KSTREAM-SOURCE-0000000000"');
    const split = id('"split-"');
    expect(source).toBeDefined();
    expect(mermaid).toContain(`${source} --> ${split}`);
    expect(mermaid).toMatch(/\[\/"in"\/\] --> /);
    expect(mermaid).toMatch(/-\.- n\d+\[\("KSTREAM-AGGREGATE-STATE-STORE-0000000006"\)\]/);
    expect(mermaid.match(/\bend\b/g)).toHaveLength(2);
  });
});
