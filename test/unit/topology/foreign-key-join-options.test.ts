/**
 * The foreign-key join's options and topology: TableJoined (fluent, as
 * Java's), names from `TableJoined.as` / `Named` / a string, argument
 * checks, and the partition counts of its internal topics (the
 * subscription topic sized as the right table, the response topic as the left).
 */
import { describe, expect, it } from 'vitest';
import { Serdes } from '../../../src/serdes/serdes.js';
import { toRuntime } from '../../../src/topology/topology-runtime.js';
import { Materialized, Named } from '../../../src/topology/options.js';
import { StreamsBuilder } from '../../../src/topology/streams-builder.js';
import { TableJoined } from '../../../src/topology/table-joined.js';
import type { KTable } from '../../../src/topology/dsl-interfaces.js';
import { impl } from '../../helpers/dsl-impl.js';
import { foreignKeyJoin } from '../../../src/topology/internal/foreign-key-join.js';

const S = Serdes.String();
const fk = (v: string) => v.split('|')[1]!;
const joiner = (a: string | null, b: string | null) => `${a}+${b}`;

function tables() {
  const builder = new StreamsBuilder();
  const left = builder.table<string, string>('left', { keySerde: S, valueSerde: S });
  const right = builder.table<string, string>('right', { keySerde: S, valueSerde: S });
  return { builder, left, right };
}

function names(builder: StreamsBuilder): { nodes: string[]; stores: string[]; topics: string[] } {
  const desc = builder.build().describe();
  const nodes = desc.subtopologies.flatMap((s) => s.nodes);
  return {
    nodes: nodes.map((n) => n.name),
    stores: [...new Set(nodes.flatMap((n) => (n.type === 'processor' ? n.stores : [])))],
    topics: [...new Set(nodes.flatMap((n) => (n.type === 'source' ? n.topics : n.type === 'sink' && n.topic !== null ? [n.topic] : [])))],
  };
}

describe('TableJoined', () => {
  it('is fluent and immutable: with, as, withName, withPartitioner, withOtherPartitioner', () => {
    const p = () => 1;
    const q = () => 2;
    const base = TableJoined.with<string, string>(p, null);
    expect(base.partitioner).toBe(p);
    expect(base.otherPartitioner).toBeUndefined();
    const named = base.withName('orders').withOtherPartitioner(q);
    expect({ ...named }).toEqual({ partitioner: p, otherPartitioner: q, name: 'orders' });
    expect({ ...base }).toEqual({ partitioner: p });
    expect({ ...TableJoined.as<string, string>('x').withPartitioner(q).withPartitioner(null) }).toEqual({ name: 'x' });
  });

  it("rejects a bad name or partitioner at once, naming what to change (Kafka's Named.validate)", () => {
    expect(() => TableJoined.as('bad name!')).toThrow(/bad name!/);
    expect(() => TableJoined.with<string, string>(42 as never, undefined)).toThrow(/partitioner/);
    expect(() => TableJoined.as('x').withOtherPartitioner('nope' as never)).toThrow(/otherPartitioner/);
  });
});

describe('foreign-key join naming and arguments', () => {
  it('TableJoined.as(name) names every node, the store and both topics <name>-...', () => {
    const { builder, left, right } = tables();
    left.join(right, fk, joiner, TableJoined.as('fk')).toStream().to('out', { keySerde: S, valueSerde: S });
    const { nodes, stores, topics } = names(builder);
    for (const suffix of [
      '-subscription-registration-processor',
      '-subscription-registration-sink',
      '-subscription-registration-source',
      '-subscription-receive',
      '-subscription-join-foreign',
      '-foreign-join-subscription',
      '-subscription-response-sink',
      '-subscription-response-source',
      '-subscription-response-resolver',
      '-result',
    ]) {
      expect(nodes).toContain(`fk${suffix}`);
    }
    expect(stores).toContain('fk-subscription-store');
    expect(topics).toEqual(expect.arrayContaining(['fk-subscription-registration-topic', 'fk-subscription-response-topic']));
  });

  it('a Named or a string names the join as TableJoined.as does; Materialized as third argument materializes', () => {
    for (const third of [Named.as('n1'), 'n1']) {
      const { builder, left, right } = tables();
      left.leftJoin(right, fk, joiner, third).toStream().to('out', { keySerde: S, valueSerde: S });
      expect(names(builder).nodes).toContain('n1-subscription-response-resolver');
    }
    const { builder, left, right } = tables();
    const joined = left.join(right, fk, joiner, Materialized.as<string, string>('result-store'));
    expect(joined.queryableStoreName).toBe('result-store');
    joined.toStream().to('out', { keySerde: S, valueSerde: S });
    expect(names(builder).stores).toContain('result-store');
  });

  it('null extractor, joiner, tableJoined or materialized: an error naming the argument', () => {
    const { left, right } = tables();
    expect(() => left.join(right, null as never, joiner)).toThrow(/foreignKeyExtractor/);
    // (a null joiner cannot be told from a key join by the KTable dispatcher; the FK join itself checks it)
    expect(() => foreignKeyJoin(impl(left), 'inner', impl(right as KTable<unknown, unknown>), [fk, null])).toThrow(/joiner/);
    expect(() => left.join(right, fk, joiner, null as never)).toThrow(/tableJoined/);
    expect(() => left.join(right, fk, joiner, TableJoined.as('x'), null as never)).toThrow(/materialized/);
    expect(() => left.join(null as unknown as KTable<string, string>, fk, joiner)).toThrow(/other/);
  });
});

describe('foreign-key join internal topics', () => {
  it('subscription topic gets the right table’s partition count, response topic the left’s (also through a repartitioned right table)', () => {
    const { builder, left, right } = tables();
    left.join(right, fk, joiner, TableJoined.as('a')).toStream().to('out', { keySerde: S, valueSerde: S });
    const counted = builder
      .stream<string, string>('events', { keySerde: S, valueSerde: S })
      .groupBy((_k, v) => v, { name: 'by-value', keySerde: S, valueSerde: S })
      .reduce((a, b) => b, Materialized.with(S, S));
    left.join(counted, fk, joiner, TableJoined.as('b')).toStream().to('out2', { keySerde: S, valueSerde: S });
    const runtime = toRuntime(builder.build(), { applicationId: 'app' });
    const counts = runtime.internalTopicPartitionCounts(new Map([['left', 3], ['right', 2], ['events', 5]]));
    expect(counts.get('app-a-subscription-registration-topic')).toBe(2);
    expect(counts.get('app-a-subscription-response-topic')).toBe(3);
    expect(counts.get('app-by-value-repartition')).toBe(5);
    expect(counts.get('app-b-subscription-registration-topic')).toBe(5);
    expect(counts.get('app-b-subscription-response-topic')).toBe(3);
    // and the sub-topologies' co-partitioning check accepts these counts
    runtime.validatePartitionCounts(new Map([['left', 3], ['right', 2], ['events', 5], ...counts]));
  });
});
