import { afterEach, describe, expect, it } from 'vitest';
import {
  Branched,
  Consumed,
  Grouped,
  Materialized,
  Named,
  Produced,
  Serdes,
  Stores,
  StreamsBuilder,
  TopologyError,
  ValueMapperWithKey,
  type KeyValueStore,
  type KStream,
  type ProcessorContext,
  type Record,
  type Topology,
} from '../../../src/index.js';
import { TopologyTestDriver } from '../../../src/testing.js';
import { storeOf } from '../../helpers/store-of.js';

const S = Serdes.String();
const STR = { keySerde: S, valueSerde: S };

let driver: TopologyTestDriver | undefined;
afterEach(() => {
  driver?.close();
  driver = undefined;
});

function run(topology: Topology, input: Array<[string | null, string | null]>, outputs: string[] = ['out']) {
  driver = new TopologyTestDriver(topology, { initialWallClockTimeMs: 0 });
  const topic = driver.createInputTopic('in', S, S);
  const outs = outputs.map((o) => driver!.createOutputTopic(o, S, S));
  input.forEach(([k, v], i) => topic.pipeInput(k, v, 1000 + i));
  return outs.map((o) => o.readKeyValuesToList());
}

function source(b: StreamsBuilder): KStream<string, string> {
  return b.stream<string, string>('in', STR);
}

describe('KStream DSL through the TopologyTestDriver', () => {
  it('filter and filterNot keep and drop by predicate', () => {
    const b = new StreamsBuilder();
    const s = source(b);
    s.filter((_k, v) => v.startsWith('a')).to('out', STR);
    s.filterNot((_k, v) => v.startsWith('a')).to('other', STR);
    const [kept, dropped] = run(b.build(), [['1', 'apple'], ['2', 'banana'], ['3', 'avocado']], ['out', 'other']);
    expect(kept).toEqual([{ key: '1', value: 'apple' }, { key: '3', value: 'avocado' }]);
    expect(dropped).toEqual([{ key: '2', value: 'banana' }]);
  });

  it('map replaces key and value with a KeyValue', () => {
    const b = new StreamsBuilder();
    source(b)
      .map((k, v) => ({ key: v.slice(0, 3), value: `${k}:${v}` }))
      .to('out', STR);
    expect(run(b.build(), [['1', 'abcdef']])[0]).toEqual([{ key: 'abc', value: '1:abcdef' }]);
  });

  it('mapValues sees value and key, keeps the key and its serde', () => {
    const b = new StreamsBuilder();
    source(b)
      .mapValues(ValueMapperWithKey.of((k, v) => `${v.toUpperCase()}-${k}`))
      .to('out', { valueSerde: S });
    expect(run(b.build(), [['k', 'x']])[0]).toEqual([{ key: 'k', value: 'X-k' }]);
  });

  it('flatMap and flatMapValues emit zero or more records in order', () => {
    const b = new StreamsBuilder();
    const s = source(b);
    s.flatMap((k, v) => v.split(' ').map((w, i) => ({ key: `${k}${i}`, value: w }))).to('out', STR);
    s.flatMapValues((v) => (v === '' ? [] : v.split(' '))).to('words', STR);
    const [out, words] = run(b.build(), [['a', 'x y'], ['b', '']], ['out', 'words']);
    expect(out).toEqual([{ key: 'a0', value: 'x' }, { key: 'a1', value: 'y' }, { key: 'b0', value: '' }]);
    expect(words).toEqual([{ key: 'a', value: 'x' }, { key: 'a', value: 'y' }]);
  });

  it('selectKey replaces the key only', () => {
    const b = new StreamsBuilder();
    source(b)
      .selectKey((_k, v) => v.length.toString())
      .to('out', { keySerde: S });
    expect(run(b.build(), [['a', 'four']])[0]).toEqual([{ key: '4', value: 'four' }]);
  });

  it('peek passes records on, foreach consumes them', () => {
    const seen: string[] = [];
    const b = new StreamsBuilder();
    const s = source(b).peek((k, v) => seen.push(`peek ${k}=${v}`));
    s.foreach((k) => seen.push(`foreach ${k}`));
    s.to('out', STR);
    const [out] = run(b.build(), [['a', '1'], ['b', '2']]);
    expect(out).toEqual([{ key: 'a', value: '1' }, { key: 'b', value: '2' }]);
    expect(seen).toEqual(['peek a=1', 'foreach a', 'peek b=2', 'foreach b']);
  });

  it('merge combines two streams', () => {
    const b = new StreamsBuilder();
    const s = source(b);
    const left = s.filter((_k, v) => v === 'l').mapValues(() => 'from-left');
    const right = s.filter((_k, v) => v === 'r').mapValues(() => 'from-right');
    left.merge(right).to('out', STR);
    expect(run(b.build(), [['1', 'l'], ['2', 'r'], ['3', 'x']])[0]).toEqual([
      { key: '1', value: 'from-left' },
      { key: '2', value: 'from-right' },
    ]);
  });

  it('merge rejects a stream of another builder', () => {
    const a = source(new StreamsBuilder());
    const other = source(new StreamsBuilder());
    expect(() => a.merge(other)).toThrow(TopologyError);
  });

  it('split routes to the first matching branch and the default branch, returning named branches', () => {
    const b = new StreamsBuilder();
    const branches = source(b)
      .split(Named.as('split-'))
      .branch((_k, v) => v.startsWith('a'), Branched.as('a'))
      .branch((_k, v) => v.startsWith('ab'), Branched.as('ab')) // never: 'a' wins first
      .branch((_k, v) => v.startsWith('b'))
      .defaultBranch(Branched.as('rest'));
    expect([...branches.keys()]).toEqual(['split-a', 'split-ab', 'split-3', 'split-rest']);
    branches.get('split-a')!.to('out-a', STR);
    branches.get('split-ab')!.to('out-ab', STR);
    branches.get('split-3')!.to('out-b', STR);
    branches.get('split-rest')!.to('out-rest', STR);
    const [a, ab, bb, rest] = run(b.build(), [['1', 'abc'], ['2', 'bcd'], ['3', 'cde']], ['out-a', 'out-ab', 'out-b', 'out-rest']);
    expect(a).toEqual([{ key: '1', value: 'abc' }]);
    expect(ab).toEqual([]);
    expect(bb).toEqual([{ key: '2', value: 'bcd' }]);
    expect(rest).toEqual([{ key: '3', value: 'cde' }]);
  });

  it('split with functions and consumers; noDefaultBranch drops unmatched records', () => {
    const b = new StreamsBuilder();
    const consumed: string[] = [];
    const branches = source(b)
      .split()
      .branch((_k, v) => v === 'x', Branched.withFunction((s) => s.mapValues((v) => v + '!')))
      .branch((_k, v) => v === 'y', Branched.withConsumer((s) => s.foreach((_k, v) => consumed.push(v)), 'y'))
      .noDefaultBranch();
    expect([...branches.keys()]).toEqual(['KSTREAM-BRANCH-00000000011']);
    branches.get('KSTREAM-BRANCH-00000000011')!.to('out', STR);
    const [out] = run(b.build(), [['1', 'x'], ['2', 'y'], ['3', 'z']]);
    expect(out).toEqual([{ key: '1', value: 'x!' }]);
    expect(consumed).toEqual(['y']);
  });

  it('to with a topic name extractor picks the topic per record', () => {
    const b = new StreamsBuilder();
    source(b).to((_k, v, ctx) => `${v}-${ctx.topic}`, STR);
    const [x, y] = run(b.build(), [['1', 'x'], ['2', 'y']], ['x-in', 'y-in']);
    expect(x).toEqual([{ key: '1', value: 'x' }]);
    expect(y).toEqual([{ key: '2', value: 'y' }]);
  });

  it('to with a partitioner sets the partition of the output record', () => {
    const b = new StreamsBuilder();
    source(b).to('out', { ...STR, partitioner: (_t, _k, _v, n) => n - 1 });
    driver = new TopologyTestDriver(b.build());
    driver.createInputTopic('in', S, S).pipeInput('k', 'v', 5);
    const record = driver.createOutputTopic('out', S, S).readRecord();
    expect(record).toMatchObject({ partition: 0, key: 'k', value: 'v', timestamp: 5 });
  });

  it('headers and timestamps flow to the output', () => {
    const b = new StreamsBuilder();
    source(b).to('out', STR);
    driver = new TopologyTestDriver(b.build());
    driver.createInputTopic('in', S, S).pipeInput('k', 'v', 42, { trace: 'abc' });
    expect(driver.createOutputTopic('out', S, S).readRecord()).toMatchObject({ timestamp: 42, headers: { trace: 'abc' } });
  });

  it('process runs a user processor that forwards, with a connected store', () => {
    const b = new StreamsBuilder();
    b.addStateStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore('seen'), S, Serdes.Int32()));
    source(b)
      .process<string, number>(() => {
        let ctx: ProcessorContext<string, number>;
        let store: KeyValueStore<string, number>;
        return {
          init(c) {
            ctx = c;
            store = c.getStateStore('seen');
          },
          process(r: Record<string, string>) {
            const n = (store.get(r.key) ?? 0) + 1;
            store.put(r.key, n);
            ctx.forward(r.withValue(n));
          },
        };
      }, 'seen')
      .to('out', { keySerde: S, valueSerde: Serdes.Int32() });
    driver = new TopologyTestDriver(b.build());
    const input = driver.createInputTopic('in', S, S);
    input.pipeKeyValueList([{ key: 'a', value: '' }, { key: 'a', value: '' }, { key: 'b', value: '' }]);
    expect(driver.createOutputTopic('out', S, Serdes.Int32()).readKeyValuesToList()).toEqual([
      { key: 'a', value: 1 },
      { key: 'a', value: 2 },
      { key: 'b', value: 1 },
    ]);
    expect(storeOf(driver.getKeyValueStore<string, number>('seen')).get('a')).toBe(2);
  });

  it('groupByKey().count() emits an update per record and keeps counts in a store', () => {
    const b = new StreamsBuilder();
    source(b)
      .groupByKey()
      .count({ storeName: 'counts' })
      .toStream()
      .to('out', { keySerde: S, valueSerde: Serdes.Json<number>() });
    driver = new TopologyTestDriver(b.build());
    const input = driver.createInputTopic('in', S, S);
    input.pipeKeyValueList([{ key: 'a', value: 'x' }, { key: 'b', value: 'y' }, { key: 'a', value: 'z' }, { key: null, value: 'skipped' }]);
    expect(driver.createOutputTopic('out', S, Serdes.Json<number>()).readKeyValuesToList()).toEqual([
      { key: 'a', value: 1 },
      { key: 'b', value: 1 },
      { key: 'a', value: 2 },
    ]);
    expect(storeOf(driver.getKeyValueStore<string, number>('counts')).all()).toEqual([
      { key: 'a', value: 2 },
      { key: 'b', value: 1 },
    ]);
  });

  it('reduce and aggregate fold values per key', () => {
    const b = new StreamsBuilder();
    const grouped = source(b).groupByKey();
    grouped.reduce((acc, v) => `${acc}+${v}`).toStream().to('reduced', STR);
    grouped
      .aggregate(() => [] as string[], (_k, v, agg) => [...agg, v], { storeName: 'lists' })
      .toStream()
      .to('aggregated', { keySerde: S, valueSerde: Serdes.Json<string[]>() });
    driver = new TopologyTestDriver(b.build());
    driver.createInputTopic('in', S, S).pipeKeyValueList([{ key: 'k', value: '1' }, { key: 'k', value: '2' }]);
    expect(driver.createOutputTopic('reduced', S, S).readValuesToList()).toEqual(['1', '1+2']);
    expect(driver.createOutputTopic('aggregated', S, Serdes.Json<string[]>()).readValuesToList()).toEqual([['1'], ['1', '2']]);
    expect(storeOf(driver.getKeyValueStore<string, string[]>('lists')).get('k')).toEqual(['1', '2']);
  });

  it('Consumed/Produced/Grouped/Materialized helpers set serdes and store names', () => {
    const b = new StreamsBuilder();
    b.stream('in', Consumed.with(S, S))
      .groupByKey(Grouped.with(S, S))
      .count({ ...Materialized.with<string, number>(S, Serdes.Int32()), ...Materialized.as<string, number>('by-key') })
      .toStream()
      .to('out', Produced.with(S, Serdes.Int32()));
    driver = new TopologyTestDriver(b.build());
    driver.createInputTopic('in', S, S).pipeInput('k', 'v');
    expect(driver.createOutputTopic('out', S, Serdes.Int32()).readKeyValue()).toEqual({ key: 'k', value: 1 });
    expect(storeOf(driver.getKeyValueStore<string, number>('by-key')).get('k')).toBe(1);
  });

  it('groupBy with a new key, and groupByKey after a key change, repartition through an internal topic (a second sub-topology)', () => {
    const b = new StreamsBuilder();
    const s = source(b);
    s.groupBy((_k, v) => v, Grouped.as('by-value')).count({ storeName: 'a' }).toStream().to('out-a', { keySerde: S, valueSerde: Serdes.Json<number>() });
    s.selectKey((_k, v) => v).groupByKey(Grouped.with(S, S)).count({ storeName: 'b' }).toStream().to('out-b', { keySerde: S, valueSerde: Serdes.Json<number>() });
    const topology = b.build();
    expect(topology.describe().subtopologies).toHaveLength(3);
    driver = new TopologyTestDriver(topology);
    driver.createInputTopic('in', S, S).pipeKeyValueList([{ key: '1', value: 'x' }, { key: '2', value: 'x' }]);
    for (const out of ['out-a', 'out-b']) {
      expect(driver.createOutputTopic(out, S, Serdes.Json<number>()).readKeyValuesToList()).toEqual([
        { key: 'x', value: 1 },
        { key: 'x', value: 2 },
      ]);
    }
    expect(driver.producedTopicNames()).toEqual(expect.arrayContaining(['test-driver-by-value-repartition', 'test-driver-b-repartition']));
  });

  it('the explicit repartition (selectKey + to + stream) works in the driver as a second sub-topology', () => {
    const b = new StreamsBuilder();
    source(b)
      .selectKey((_k, v) => v)
      .to('by-value', STR);
    b.stream<string, string>('by-value', STR).groupByKey().count({ storeName: 'c' }).toStream().to('out', { keySerde: S, valueSerde: Serdes.Json<number>() });
    const topology = b.build();
    expect(topology.describe().subtopologies.map((s) => s.id)).toEqual([0, 1]);
    driver = new TopologyTestDriver(topology);
    driver.createInputTopic('in', S, S).pipeKeyValueList([{ key: '1', value: 'x' }, { key: '2', value: 'x' }]);
    expect(driver.createOutputTopic('out', S, Serdes.Json<number>()).readKeyValuesToList()).toEqual([
      { key: 'x', value: 1 },
      { key: 'x', value: 2 },
    ]);
  });

  it('to after a type change without serdes is a TopologyError at build time', () => {
    const b = new StreamsBuilder();
    source(b).mapValues((v) => v.length).to('out');
    // Built for a runtime without defaultValueSerde (with one, the default is used: default-serdes.test.ts).
    expect(() => new TopologyTestDriver(b.build())).toThrow(/value serde is unknown/);
  });

  it('generates Kafka-style node names, overridable with Named', () => {
    const b = new StreamsBuilder();
    source(b).filter(() => true).mapValues((v) => v, Named.as('upper')).to('out', { ...STR, name: 'sink' });
    const names = b.build().describe().subtopologies[0]!.nodes.map((n) => n.name);
    expect(names).toEqual(['KSTREAM-SOURCE-0000000000', 'KSTREAM-FILTER-0000000001', 'upper', 'sink']);
  });
});
