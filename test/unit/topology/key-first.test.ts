/**
 * Issue 29 item 1: with String keys and values a swapped key and value would
 * show in every output here. The value-only forms are given the value(s)
 * only; `ValueMapperWithKey.of` / `ValueJoinerWithKey.of` are given the key
 * first, as Kafka's `ValueMapperWithKey` / `ValueJoinerWithKey`, on every
 * operator that has a key-taking form (the stream operators and the
 * stream joins are covered by the ports in kafka/key-first-forms.test.ts).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { IllegalArgumentError, JoinWindows, Serdes, StreamsBuilder, ValueJoinerWithKey, ValueMapperWithKey, type KTable } from '../../../src/index.js';
import { TopologyTestDriver, type TestInputTopic } from '../../../src/testing.js';

const S = Serdes.String();
let driver: TopologyTestDriver | undefined;
afterEach(() => {
  driver?.close();
  driver = undefined;
});

function run(builder: StreamsBuilder, inputs: Array<[topic: string, key: string, value: string | null]>): Array<{ key: string | null; value: string | null }> {
  driver = new TopologyTestDriver(builder.build(), { defaultKeySerde: S, defaultValueSerde: S });
  const topics = new Map<string, TestInputTopic<string, string>>();
  for (const [topic, key, value] of inputs) {
    let input = topics.get(topic);
    if (input === undefined) topics.set(topic, (input = driver.createInputTopic(topic, S, S)));
    input.pipeInput(key, value);
  }
  return driver.createOutputTopic('out', S, S).readKeyValuesToList();
}

function tables(builder: StreamsBuilder): { left: KTable<string, string>; right: KTable<string, string> } {
  return { left: builder.table('left', { keySerde: S, valueSerde: S }), right: builder.table('right', { keySerde: S, valueSerde: S }) };
}

describe('value-only forms get the value(s) only', () => {
  it('mapValues, flatMapValues and a joiner are not handed the key (a JavaScript (key, value) habit cannot read it as the value)', () => {
    const seen: number[] = [];
    const builder = new StreamsBuilder();
    const stream = builder.stream('in', { keySerde: S, valueSerde: S });
    stream.mapValues(function (this: unknown, value: string) {
      seen.push(arguments.length);
      return value;
    });
    stream.flatMapValues(function (this: unknown, value: string) {
      seen.push(arguments.length);
      return [value];
    });
    const other = builder.stream('other', { keySerde: S, valueSerde: S });
    stream
      .join(other, function (this: unknown, value: string, otherValue: string) {
        seen.push(arguments.length);
        return `${value}+${otherValue}`;
      }, JoinWindows.ofTimeDifferenceWithNoGrace(1000))
      .to('out');
    expect(run(builder, [['in', 'k', 'v'], ['other', 'k', 'o']])).toEqual([{ key: 'k', value: 'v+o' }]);
    expect(seen).toEqual([1, 1, 2]);
  });
});

describe('KStream key-first forms (String keys and values)', () => {
  it('flatMapValues(ValueMapperWithKey.of((readOnlyKey, value) => …)) gets the key first', () => {
    const builder = new StreamsBuilder();
    builder
      .stream('in', { keySerde: S, valueSerde: S })
      .flatMapValues(ValueMapperWithKey.of((readOnlyKey, value) => [`key=${readOnlyKey}`, `value=${value}`]))
      .to('out');
    expect(run(builder, [['in', 'A', 'a']])).toEqual([
      { key: 'A', value: 'key=A' },
      { key: 'A', value: 'value=a' },
    ]);
  });
});

describe('KTable key-first forms', () => {
  it('KTable.mapValues(ValueMapperWithKey.of((readOnlyKey, value) => …)) gets the key first', () => {
    const builder = new StreamsBuilder();
    builder
      .table('left', { keySerde: S, valueSerde: S })
      .mapValues(ValueMapperWithKey.of((readOnlyKey, value) => `key=${readOnlyKey},value=${value}`))
      .toStream()
      .to('out');
    expect(run(builder, [['left', 'A', 'a'], ['left', 'B', 'b'], ['left', 'A', null]])).toEqual([
      { key: 'A', value: 'key=A,value=a' },
      { key: 'B', value: 'key=B,value=b' },
      { key: 'A', value: null },
    ]);
  });

  it('table-table join, leftJoin and outerJoin with ValueJoinerWithKey get the key first', () => {
    const builder = new StreamsBuilder();
    const { left, right } = tables(builder);
    const joiner = ValueJoinerWithKey.of((readOnlyKey: string, v1: string | null, v2: string | null) => `${readOnlyKey}:${v1 ?? '-'}/${v2 ?? '-'}`);
    left.join(right, joiner).toStream().to('out');
    left.leftJoin(right, joiner).toStream().mapValues((v) => (v === null ? null : `L ${v}`)).to('out');
    left.outerJoin(right, joiner).toStream().mapValues((v) => (v === null ? null : `O ${v}`)).to('out');
    const out = run(builder, [['left', 'A', 'a'], ['right', 'A', 'x'], ['right', 'B', 'y']]);
    expect(out).toEqual([
      { key: 'A', value: 'L A:a/-' },
      { key: 'A', value: 'O A:a/-' },
      { key: 'A', value: 'A:a/x' },
      { key: 'A', value: 'L A:a/x' },
      { key: 'A', value: 'O A:a/x' },
      { key: 'B', value: 'O B:-/y' },
    ]);
  });

  it('foreign-key join: a key-first extractor and a key-first joiner', () => {
    const builder = new StreamsBuilder();
    const { left, right } = tables(builder);
    // the left key names the right row ("order1" -> "1"), the value is only carried along
    const extractor = ValueMapperWithKey.of((readOnlyKey: string, value: string) => `${readOnlyKey.slice(-1)}${value === 'never' ? '!' : ''}`);
    const joiner = ValueJoinerWithKey.of((readOnlyKey: string, value: string, foreign: string) => `${readOnlyKey}|${value}|${foreign}`);
    left.join(right, extractor, joiner).toStream().to('out');
    expect(run(builder, [['right', '1', 'customer-one'], ['left', 'order1', 'pen']])).toEqual([{ key: 'order1', value: 'order1|pen|customer-one' }]);
  });

  it('foreign-key leftJoin: a value-only extractor with a key-first joiner', () => {
    const builder = new StreamsBuilder();
    const { left, right } = tables(builder);
    left.leftJoin(right, (value) => value.split('@')[1]!, ValueJoinerWithKey.of((readOnlyKey: string, value: string, foreign: string | null) => `${readOnlyKey}|${value}|${foreign ?? 'none'}`)).toStream().to('out');
    expect(run(builder, [['left', 'order1', 'pen@2']])).toEqual([{ key: 'order1', value: 'order1|pen@2|none' }]);
  });
});

describe('a mapper or joiner of neither form', () => {
  it('fails at the call, naming the argument and the key-first form', () => {
    const builder = new StreamsBuilder();
    const stream = builder.stream('in', { keySerde: S, valueSerde: S });
    const table = builder.table('t', { keySerde: S, valueSerde: S });
    expect(() => stream.mapValues({ apply: (v: string) => v } as never)).toThrow(IllegalArgumentError);
    expect(() => stream.mapValues({ apply: (v: string) => v } as never)).toThrow('valueMapper must be a function or ValueMapperWithKey.of((readOnlyKey, ...) => ...); got object');
    expect(() => stream.join(table, 'joiner' as never)).toThrow('joiner must be a function or ValueJoinerWithKey.of((readOnlyKey, ...) => ...); got string');
    expect(() => table.mapValues(null as never)).toThrow("mapper can't be null");
    expect(() => table.join(table, { keyFirst: 1 } as never, (a: string) => a)).toThrow(IllegalArgumentError);
  });
});
