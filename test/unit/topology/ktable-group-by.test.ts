/**
 * KTable.groupBy beyond Kafka's ported tests: the Changes the select and
 * aggregate nodes forward, a grouping of an aggregated table (which needs
 * the aggregate's old values), deletes from a reducer, bytes on the
 * repartition topic, and clear errors for a bad selector.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { KeyValue, Materialized, Serdes, StreamsBuilder } from '../../../src/index.js';
import { TopologyTestDriver } from '../../../src/testing.js';
import { kvt, recorder } from '../../helpers/ktable/t-group.js';
import { storeOf } from '../../helpers/store-of.js';

const S = Serdes.String();
const STR = { keySerde: S, valueSerde: S };

let driver: TopologyTestDriver | undefined;
afterEach(() => {
  driver?.close();
  driver = undefined;
});

function start(builder: StreamsBuilder, applicationId = 'group-by'): TopologyTestDriver {
  driver = new TopologyTestDriver(builder.build(), { applicationId, statestoreCacheMaxBytes: 0 });
  return driver;
}

describe('KTable.groupBy', () => {
  it('the select node forwards one Change for an unchanged grouping key, else the subtraction then the addition', () => {
    const builder = new StreamsBuilder();
    const rec = recorder<string, unknown>();
    builder.table('users', STR).groupBy((user, region) => KeyValue.pair(region, user), STR).count();
    const topology = builder.build();
    topology.addProcessor('recorder', rec.supplier, 'KTABLE-SELECT-0000000003');
    driver = new TopologyTestDriver(topology, { applicationId: 'select', statestoreCacheMaxBytes: 0 });
    const input = driver.createInputTopic('users', S, S);
    input.pipeInput('alice', 'north', 1);
    input.pipeInput('alice', 'north', 2);
    input.pipeInput('alice', 'south', 3);
    input.pipeInput('alice', null, 4);
    expect(rec.formatted()).toEqual([
      'north:(alice<-null) (ts: 1)',
      'north:(alice<-alice) (ts: 2)',
      'north:(null<-alice) (ts: 3)',
      'south:(alice<-null) (ts: 3)',
      'south:(null<-alice) (ts: 4)',
    ]);
  });

  it('the repartition topic holds Kafka Change bytes ({new}{1}, {old}{0}, {varint}{new}{old}{2})', () => {
    const builder = new StreamsBuilder();
    builder.table('users', STR).groupBy((user, region) => KeyValue.pair(region, user), { name: 'g', ...STR }).count();
    const d = start(builder, 'bytes');
    const input = d.createInputTopic('users', S, S);
    input.pipeInput('al', 'n', 1);
    input.pipeInput('al', 'n', 2);
    input.pipeInput('al', 's', 3);
    const raw = d.createOutputTopic('bytes-g-repartition', S, Serdes.Buffer()).readKeyValuesToList();
    expect(raw.map((r) => [r.key, [...r.value!]])).toEqual([
      ['n', [0x61, 0x6c, 1]],
      ['n', [4, 0x61, 0x6c, 0x61, 0x6c, 2]],
      ['n', [0x61, 0x6c, 0]],
      ['s', [0x61, 0x6c, 1]],
    ]);
  });

  it('grouping an aggregated table uses its old aggregates: the total over all regions stays the number of users', () => {
    const builder = new StreamsBuilder();
    const totals = recorder<string, number>();
    builder
      .table('users', STR)
      .groupBy((user, region) => KeyValue.pair(region, user), STR)
      .count()
      .groupBy((_region, n) => KeyValue.pair('all', n), { keySerde: S, valueSerde: Serdes.Long() })
      .reduce((a, b) => a + b, (a, b) => a - b, Materialized.as('total'))
      .toStream()
      .process(totals.supplier);
    const input = start(builder).createInputTopic('users', S, S);
    input.pipeInput('a', 'north', 1);
    input.pipeInput('b', 'north', 2);
    input.pipeInput('a', 'south', 3);
    input.pipeInput('b', null, 4);
    expect(totals.processed.map((r) => r.value)).toEqual([1, 2, 1, 2, 1]); // (a north), (b north), a leaves north, a joins south, (b leaves)
    expect(totals.processed.at(-1)).toEqual(kvt('all', 1, 4));
    expect(storeOf(driver!.getKeyValueStore<string, number>('total')).get('all')).toBe(1);
  });

  it('a count that drops to 0 is kept and forwarded as 0; a reducer returning null deletes the key', () => {
    const builder = new StreamsBuilder();
    const counts = recorder<string, number | null>();
    const reduced = recorder<string, string | null>();
    const grouped = builder.table('users', STR).groupBy((user, region) => KeyValue.pair(region, user), { name: 'by-region', ...STR });
    grouped.count(Materialized.as('count')).toStream().process(counts.supplier);
    grouped
      .reduce((a, b) => `${a},${b}`, (a, b) => (a === b ? (null as unknown as string) : a.replace(b, '')), Materialized.as('names'))
      .toStream()
      .process(reduced.supplier);
    const input = start(builder).createInputTopic('users', S, S);
    input.pipeInput('a', 'north', 1);
    input.pipeInput('a', null, 2);
    expect(counts.processed).toEqual([kvt('north', 1, 1), kvt('north', 0, 2)]);
    expect(storeOf(driver!.getKeyValueStore<string, number>('count')).get('north')).toBe(0);
    expect(reduced.processed).toEqual([kvt('north', 'a', 1), kvt('north', null, 2)]);
    expect(storeOf(driver!.getKeyValueStore<string, string>('names')).get('north')).toBeNull();
  });

  it('a selector returning something other than { key, value } or null fails naming the fix', () => {
    const builder = new StreamsBuilder();
    builder
      .table('users', STR)
      .groupBy((_user, region) => region as unknown as KeyValue<string, string>, STR)
      .count();
    const input = start(builder).createInputTopic('users', S, S);
    expect(() => input.pipeInput('a', 'north')).toThrow(/the selector must return \{ key, value \} \(KeyValue\.pair\(newKey, newValue\)\) or null/);
  });

  it('a selector returning a promise fails naming groupBy', () => {
    const builder = new StreamsBuilder();
    builder
      .table('users', STR)
      .groupBy((user, region) => Promise.resolve(KeyValue.pair(region, user)) as unknown as KeyValue<string, string>, STR)
      .count();
    const input = start(builder).createInputTopic('users', S, S);
    expect(() => input.pipeInput('a', 'north')).toThrow(/groupBy\(\): the selector returned a Promise/);
  });
});
