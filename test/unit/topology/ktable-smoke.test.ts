import { describe, expect, it } from 'vitest';
import { Materialized, Serdes, StreamsBuilder } from '../../../src/index.js';
import { TopologyTestDriver } from '../../../src/testing.js';
import { storeOf } from '../../helpers/store-of.js';

describe('KTable core (builder.table, filter, mapValues, toStream, toTable)', () => {
  it('a materialized table filters, maps and emits deletes for rows that stop passing', () => {
    const builder = new StreamsBuilder();
    const s = Serdes.String();
    const table = builder.table('t', { keySerde: s, valueSerde: Serdes.Int32() }, Materialized.as<string, number>('t-store').withCachingDisabled());
    table.filter((_k, v) => v % 2 === 0).mapValues((v) => v * 10).toStream().to('out', { keySerde: s, valueSerde: Serdes.Int32() });
    const driver = new TopologyTestDriver(builder.build(), { applicationId: 'smoke' });
    const input = driver.createInputTopic('t', s, Serdes.Int32());
    const out = driver.createOutputTopic('out', s, Serdes.Int32());
    input.pipeInput('a', 2);
    input.pipeInput('a', 3);
    input.pipeInput('b', 5);
    expect(out.readKeyValuesToList()).toEqual([
      { key: 'a', value: 20 },
      { key: 'a', value: null },
    ]);
    expect(storeOf(driver.getKeyValueStore<string, number>('t-store')).get('a')).toBe(3);
    driver.close();
  });

  it('toTable turns a stream into a queryable table', () => {
    const builder = new StreamsBuilder();
    const s = Serdes.String();
    builder.stream('in', { keySerde: s, valueSerde: s }).toTable(Materialized.as<string, string>('latest')).toStream().to('out', { keySerde: s, valueSerde: s });
    const driver = new TopologyTestDriver(builder.build(), { applicationId: 'smoke2', statestoreCacheMaxBytes: 0 });
    const input = driver.createInputTopic('in', s, s);
    input.pipeInput('k', 'v1');
    input.pipeInput('k', 'v2');
    expect(driver.createOutputTopic('out', s, s).readValuesToList()).toEqual(['v1', 'v2']);
    expect(storeOf(driver.getKeyValueStore<string, string>('latest')).get('k')).toBe('v2');
    driver.close();
  });
});
