/**
 * `KTable.toStream(mapper[, named])` (Kafka's `toStream(KeyValueMapper)`:
 * `toStream(named).selectKey(mapper)`). Ported: `KTableMapKeysTest`,
 * `StreamsBuilderTest.shouldUseSpecifiedNameForToStreamWithMapper`, the
 * `toStream(selector)` lines of `KTableImplTest.shouldPreserveSerdesForOperators`
 * and `KTableImplTest.shouldNotAllowNullSelectorOnToStream`.
 */
import { describe, expect, it } from 'vitest';
import { Named, Serdes, StreamsBuilder } from '../../../../../src/index.js';
import { TopologyTestDriver } from '../../../../../src/testing.js';
import { kvt, RecordingProcessorSupplier } from '../../../../helpers/ktable/recording-processor.js';
import { impl } from '../../../../helpers/dsl-impl.js';

const S = Serdes.String();
const I = Serdes.Integer();

function processorNames(builder: StreamsBuilder): string[] {
  return builder
    .build()
    .describe()
    .subtopologies.flatMap((s) => s.nodes.map((n) => n.name));
}

describe('KTable.toStream(mapper)', () => {
  /** KTableMapKeysTest.testMapKeysConvertingToStream */
  it('testMapKeysConvertingToStream', () => {
    const builder = new StreamsBuilder();
    const topic1 = 'topic_map_keys';
    const table1 = builder.table('topic_map_keys', { keySerde: I, valueSerde: S });
    const keyMap = new Map([
      [1, 'ONE'],
      [2, 'TWO'],
      [3, 'THREE'],
    ]);
    const convertedStream = table1.toStream((key) => keyMap.get(key) as string);
    const expected = [kvt('ONE', 'V_ONE', 5), kvt('TWO', 'V_TWO', 10), kvt('THREE', 'V_THREE', 15)];
    const originalKeys = [1, 2, 3];
    const values = ['V_ONE', 'V_TWO', 'V_THREE'];
    const supplier = new RecordingProcessorSupplier<string, string>();
    convertedStream.process(supplier);
    const driver = new TopologyTestDriver(builder.build(), { defaultKeySerde: I, defaultValueSerde: S });
    try {
      const inputTopic = driver.createInputTopic(topic1, I, S);
      for (let i = 0; i < originalKeys.length; i++) inputTopic.pipeInput(originalKeys[i] as number, values[i] as string, 5 + i * 5);
    } finally {
      driver.close();
    }
    expect(supplier.theCapturedProcessor().processed()).toHaveLength(3);
    expect(supplier.theCapturedProcessor().processed()).toEqual(expected);
  });

  /** StreamsBuilderTest.shouldUseSpecifiedNameForToStreamWithMapper */
  it('shouldUseSpecifiedNameForToStreamWithMapper', () => {
    const builder = new StreamsBuilder();
    builder.table('stream-topic').toStream((key, value) => ({ key, value }), Named.as('to-stream'));
    expect(processorNames(builder)).toEqual(['KSTREAM-SOURCE-0000000001', 'KTABLE-SOURCE-0000000002', 'to-stream', 'KSTREAM-KEY-SELECT-0000000004']);
  });

  it("names the nodes as Kafka's without a Named: KTABLE-TOSTREAM then KSTREAM-KEY-SELECT", () => {
    const unnamed = new StreamsBuilder();
    unnamed.table('stream-topic').toStream((key) => key);
    expect(processorNames(unnamed)).toEqual(['KSTREAM-SOURCE-0000000001', 'KTABLE-SOURCE-0000000002', 'KTABLE-TOSTREAM-0000000003', 'KSTREAM-KEY-SELECT-0000000004']);
  });

  /** KTableImplTest.shouldPreserveSerdesForOperators (the toStream(selector) lines): key serde unknown, value serde kept */
  it('shouldPreserveSerdesForOperators (toStream with a selector)', () => {
    const builder = new StreamsBuilder();
    const table1 = builder.table('topic-2', { keySerde: S, valueSerde: S });
    expect(impl(table1.toStream()).serdes.key).toBe(S);
    expect(impl(table1.toStream()).serdes.value).toBe(S);
    const selected = table1.toStream((key, value) => `${key}${value}`);
    expect(impl(selected).serdes.key).toBeUndefined();
    expect(impl(selected).serdes.value).toBe(S);
    expect(selected.keyChanged).toBe(true);
  });

  /** KTableImplTest.shouldNotAllowNullSelectorOnToStream */
  it('shouldNotAllowNullSelectorOnToStream', () => {
    const table = new StreamsBuilder().table('topic', { keySerde: S, valueSerde: S });
    expect(() => table.toStream(null as never, Named.as('n'))).toThrow("mapper can't be null");
  });

  it('is key-changed: a later aggregation repartitions by the new key, and a delete reaches the mapper with a null value', () => {
    const builder = new StreamsBuilder();
    const seen: Array<[string, string | null]> = [];
    builder
      .table('input', { keySerde: S, valueSerde: S })
      .toStream((key, value) => {
        seen.push([key, value]);
        return key.charAt(0);
      })
      .groupByKey({ keySerde: S, valueSerde: S })
      .count()
      .toStream()
      .to('output', { keySerde: S, valueSerde: Serdes.Long() });
    expect(processorNames(builder)).toContain('KSTREAM-FILTER-0000000008');
    expect(builder.build().describe().subtopologies).toHaveLength(2);
    const driver = new TopologyTestDriver(builder.build(), { statestoreCacheMaxBytes: 0 });
    try {
      const input = driver.createInputTopic('input', S, S);
      input.pipeInput('a1', 'x', 1);
      input.pipeInput('a2', 'y', 2);
      input.pipeInput('b1', 'z', 3);
      input.pipeInput('a1', null, 4);
      expect(driver.createOutputTopic('output', S, Serdes.Long()).readKeyValuesToList()).toEqual([
        { key: 'a', value: 1 },
        { key: 'a', value: 2 },
        { key: 'b', value: 1 },
      ]);
      expect(seen).toEqual([
        ['a1', 'x'],
        ['a2', 'y'],
        ['b1', 'z'],
        ['a1', null],
      ]);
    } finally {
      driver.close();
    }
  });
});
