/**
 * Fluent option objects (`Consumed.with(k, v).withName(..)`, `Materialized.as('s').withLoggingDisabled()`, ...):
 * immutable, plain-object compatible, accepted by the DSL, typed (checked by `tsc --noEmit`).
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  Consumed,
  Grouped,
  IllegalArgumentError,
  Materialized,
  Named,
  Produced,
  Serdes,
  StreamsBuilder,
  type KStream,
} from '../../../src/index.js';
import type { KeyValueBytesStoreSupplier } from '../../../src/state/bytes-store-contract.js';
import { TopologyTestDriver } from '../../../src/testing.js';

const S = Serdes.String();
const I = Serdes.Integer();

describe('fluent option objects', () => {
  it('Consumed: with / as / withKeySerde / withValueSerde / withName; each setter returns a new frozen object', () => {
    const base = Consumed.with(S, S);
    const changed = base.withKeySerde(I).withValueSerde(Serdes.Long()).withName('src');
    expect(base).toEqual({ keySerde: S, valueSerde: S });
    expect(changed).toEqual({ keySerde: I, valueSerde: Serdes.Long(), name: 'src' });
    expect({ ...changed }).toEqual({ keySerde: I, valueSerde: Serdes.Long(), name: 'src' });
    expect(Object.isFrozen(changed)).toBe(true);
    expect(Consumed.as('named')).toEqual({ name: 'named' });
    const b = new StreamsBuilder();
    expectTypeOf(b.stream('a', changed)).toEqualTypeOf<KStream<number, number>>();
    expectTypeOf(b.stream('b', Consumed.as('src-b').withValueSerde(I))).toEqualTypeOf<KStream<Buffer, number>>();
    expectTypeOf(b.stream('c', Consumed.as('src-c'))).toEqualTypeOf<KStream<Buffer, Buffer>>();
    const names = b.build().describe().subtopologies.flatMap((s) => s.nodes.map((n) => n.name));
    expect(names).toEqual(['src', 'src-b', 'src-c']);
  });

  it('Produced: with (+ partitioner) / as / keySerde / valueSerde / withStreamPartitioner; the DSL uses them', () => {
    const partitioner = (_t: string, key: string): number => (key === 'b' ? 1 : 0);
    const produced = Produced.with(S, S).withStreamPartitioner(partitioner).withName('the-sink');
    expect(produced).toEqual({ keySerde: S, valueSerde: S, partitioner, name: 'the-sink' });
    expect(Produced.as('x').withKeySerde(S)).toEqual({ name: 'x', keySerde: S });
    expect(Produced.keySerde(S)).toEqual({ keySerde: S });
    expect(Produced.valueSerde(S)).toEqual({ valueSerde: S });
    expect(Produced.streamPartitioner(partitioner)).toEqual({ partitioner });
    expect(() => Produced.with(S, S).withStreamPartitioner('p' as never)).toThrow(IllegalArgumentError);
    const b = new StreamsBuilder();
    b.stream('in', Consumed.with(S, S)).to('out', produced);
    b.stream('in2', Consumed.with(S, S)).mapValues((v) => v.length).to('out2', Produced.as('len').withValueSerde(I).withKeySerde(S));
    const text = b.build().describe().toString();
    expect(text).toContain('Sink: the-sink (topic: out)');
    expect(text).toContain('Sink: len (topic: out2)');
  });

  it('Grouped: as(..).withKeySerde(..).withValueSerde(..) names the repartition topic and serdes it', () => {
    const grouped = Grouped.as('g').withKeySerde(S).withValueSerde(S);
    expect(grouped).toEqual({ name: 'g', keySerde: S, valueSerde: S });
    expect(Grouped.keySerde(S)).toEqual({ keySerde: S });
    const b = new StreamsBuilder();
    b.stream('in', Consumed.with(S, S))
      .groupBy((_k, v) => v, grouped)
      .count()
      .toStream()
      .to('out', Produced.with(S, Serdes.Long()));
    expect(b.build().describe().toString()).toContain('Sink: g-repartition-sink (topic: g-repartition)');
    const driver = new TopologyTestDriver(b.build());
    driver.createInputTopic('in', S, S).pipeKeyValueList([{ key: '1', value: 'green' }, { key: '2', value: 'green' }]);
    // keys in the String serde the grouping names (not JSON's "green"), counts as Long
    const repartitioned = driver.createOutputTopic('test-driver-g-repartition', Serdes.Buffer(), S).readRecordsToList();
    expect(repartitioned.map((r) => r.key?.toString())).toEqual(['green', 'green']);
    expect(driver.createOutputTopic('out', S, Serdes.Long()).readKeyValuesToList()).toEqual([
      { key: 'green', value: 1 },
      { key: 'green', value: 2 },
    ]);
    driver.close();
  });

  it('Materialized: as(name | supplier), serdes, logging, caching and retention setters fill the contract fields', () => {
    const m = Materialized.as<string, number>('counts')
      .withKeySerde(S)
      .withValueSerde(Serdes.Long())
      .withLoggingEnabled({ 'retention.ms': '1000' })
      .withCachingDisabled()
      .withRetention(60_000);
    expect(m).toEqual({ storeName: 'counts', keySerde: S, valueSerde: Serdes.Long(), loggingEnabled: true, logConfig: { 'retention.ms': '1000' }, cachingEnabled: false, retentionMs: 60_000 });
    expect(m.withLoggingDisabled()).toEqual({ storeName: 'counts', keySerde: S, valueSerde: Serdes.Long(), loggingEnabled: false, cachingEnabled: false, retentionMs: 60_000 });
    expect(m.withCachingEnabled().cachingEnabled).toBe(true);
    expect(m.loggingEnabled).toBe(true);
    const supplier: KeyValueBytesStoreSupplier = {
      name: 'in-mem',
      kind: 'in-memory',
      get: () => {
        throw new Error('not built here');
      },
    };
    expect(Materialized.as(supplier)).toEqual({ storeName: 'in-mem', storeSupplier: supplier });
    expect(Materialized.with(S, I)).toEqual({ keySerde: S, valueSerde: I });
    expect(() => Materialized.as('s').withRetention(Number.NaN)).toThrow(IllegalArgumentError);
  });

  it('fluent results are accepted where plain objects were, and plain objects still are', () => {
    const b = new StreamsBuilder();
    const s = b.stream('in', { keySerde: S, valueSerde: S });
    s.groupByKey(Grouped.as('byKey')).count(Materialized.as('c1').withCachingDisabled());
    s.groupByKey({ name: 'byKey2' }).count({ storeName: 'c2' });
    s.to('out', { keySerde: S, valueSerde: S });
    expect(b.build().describe().toString()).toContain('Processor: KSTREAM-AGGREGATE-');
  });

  it('setters check their arguments at the call', () => {
    expect(() => Consumed.with(S, S).withName('bad name')).toThrow(/is illegal/);
    expect(() => Consumed.with(S, S).withKeySerde(null as never)).toThrow(new IllegalArgumentError("keySerde can't be null"));
    expect(() => Grouped.as('g').withName('')).toThrow(/can't be empty/);
    expect(() => Named.as('ok')).not.toThrow();
  });
});

describe('MaterializedTest', () => {
  /** MaterializedTest.shouldAllowValidTopicNamesAsStoreName */
  it('shouldAllowValidTopicNamesAsStoreName', () => {
    Materialized.as('valid-name');
    Materialized.as('valid.name');
    Materialized.as('valid_name');
  });

  /** MaterializedTest.shouldNotAllowInvalidTopicNames (sluice's TopologyError has no "Invalid topology: " prefix) */
  it('shouldNotAllowInvalidTopicNames', () => {
    const invalidName = 'not:valid';
    expect(() => Materialized.as(invalidName)).toThrow(`Name "${invalidName}" is illegal, it contains a character other than ASCII alphanumerics, '.', '_' and '-'`);
  });

  /** MaterializedTest.shouldThrowNullPointerIfKeyValueBytesStoreSupplierIsNull */
  it('shouldThrowNullPointerIfKeyValueBytesStoreSupplierIsNull', () => {
    expect(() => Materialized.as(null as never)).toThrow(new IllegalArgumentError("supplier can't be null"));
  });

  /** MaterializedTest.shouldThrowIllegalArgumentExceptionIfRetentionIsNegative (-1 day in ms) */
  it('shouldThrowIllegalArgumentExceptionIfRetentionIsNegative', () => {
    expect(() => Materialized.as('valid-name').withRetention(-86_400_000)).toThrow(new IllegalArgumentError('Retention must not be negative.'));
  });

  /** MaterializedTest.shouldThrowTopologyExceptionIfStoreNameExceedsMaxAllowedLength */
  it('shouldThrowTopologyExceptionIfStoreNameExceedsMaxAllowedLength', () => {
    const maxNameLength = 249;
    const invalidStoreName = 'a'.repeat(maxNameLength + 1);
    expect(() => Materialized.as(invalidStoreName)).toThrow(`Name is illegal, it can't be longer than ${maxNameLength} characters, name: ${invalidStoreName}`);
  });
});
