/**
 * Issue 29 item 1, at the type level (checked by `tsc --noEmit`): a Java
 * habit may not compile into the opposite meaning. The value-only forms
 * take one value (two for a joiner), so a value-first function that also
 * declares the key is rejected; the key-taking forms are
 * `ValueMapperWithKey.of` / `ValueJoinerWithKey.of`, key first, as Kafka's.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { JoinWindows, Serdes, StreamsBuilder, ValueJoinerWithKey, ValueMapperWithKey, type KStream, type KTable } from '../../../src/index.js';

const S = Serdes.String();

function sources() {
  const b = new StreamsBuilder();
  return {
    b,
    stream: b.stream('s', { keySerde: S, valueSerde: S }),
    other: b.stream('o', { keySerde: S, valueSerde: Serdes.Int32() }),
    table: b.table('t', { keySerde: S, valueSerde: S }),
    otherTable: b.table('u', { keySerde: S, valueSerde: Serdes.Int32() }),
    global: b.globalTable('g', { keySerde: S, valueSerde: S }),
  };
}

describe('key-first forms (types)', () => {
  it('a value-first function that also takes the key does not compile, for every operator', () => {
    const { stream, other, table, otherTable, global } = sources();
    const w = JoinWindows.ofTimeDifferenceWithNoGrace(10);
    // @ts-expect-error KStream.mapValues takes the value only: (value, key) => … would be Java's (key, value) swapped
    stream.mapValues((value, key) => `${value}${key}`);
    // @ts-expect-error KStream.flatMapValues takes the value only
    stream.flatMapValues((value, key) => [value, key]);
    // @ts-expect-error KTable.mapValues takes the value only
    table.mapValues((value, key) => `${value}${key}`);
    // @ts-expect-error stream-stream joiner: (value1, value2) only
    stream.join(other, (v, o, key) => `${v}${o}${key}`, w);
    // @ts-expect-error stream-stream leftJoin joiner: (value1, value2) only
    stream.leftJoin(other, (v, o, key) => `${v}${o}${key}`, w);
    // @ts-expect-error stream-stream outerJoin joiner: (value1, value2) only
    stream.outerJoin(other, (v, o, key) => `${v}${o}${key}`, w);
    // @ts-expect-error stream-table joiner: (value1, value2) only
    stream.join(table, (v, t, key) => `${v}${t}${key}`);
    // @ts-expect-error stream-table leftJoin joiner: (value1, value2) only
    stream.leftJoin(table, (v, t, key) => `${v}${t}${key}`);
    // @ts-expect-error stream-global joiner: (value1, value2) only
    stream.join(global, (k) => k, (v, g, key) => `${v}${g}${key}`);
    // @ts-expect-error stream-global leftJoin joiner: (value1, value2) only
    stream.leftJoin(global, (k) => k, (v, g, key) => `${v}${g}${key}`);
    // @ts-expect-error table-table joiner: (value1, value2) only
    table.join(otherTable, (v, o, key) => `${v}${o}${key}`);
    // @ts-expect-error table-table leftJoin joiner: (value1, value2) only
    table.leftJoin(otherTable, (v, o, key) => `${v}${o}${key}`);
    // @ts-expect-error table-table outerJoin joiner: (value1, value2) only
    table.outerJoin(otherTable, (v, o, key) => `${v}${o}${key}`);
    // @ts-expect-error foreign-key extractor: (value) only
    table.join(table, (value, key) => `${value}${key}`, (v, o) => `${v}${o}`);
    // @ts-expect-error foreign-key joiner: (value1, value2) only
    table.leftJoin(table, (value) => value, (v, o, key) => `${v}${o}${key}`);
    expect(stream).toBeDefined();
  });

  it('the key-first forms type their parameters: key first, then the value(s)', () => {
    const { stream, other, table, otherTable, global } = sources();
    const w = JoinWindows.ofTimeDifferenceWithNoGrace(10);
    expectTypeOf(stream.mapValues(ValueMapperWithKey.of((key, value) => key.length + value.length))).toEqualTypeOf<KStream<string, number>>();
    expectTypeOf(stream.flatMapValues(ValueMapperWithKey.of((key, value) => [key, value]))).toEqualTypeOf<KStream<string, string>>();
    expectTypeOf(table.mapValues(ValueMapperWithKey.of((key, value) => key.length + value.length))).toEqualTypeOf<KTable<string, number>>();
    expectTypeOf(stream.join(other, ValueJoinerWithKey.of((key, v, o) => `${key}${v}${o.toFixed()}`), w)).toEqualTypeOf<KStream<string, string>>();
    expectTypeOf(stream.leftJoin(table, ValueJoinerWithKey.of((key, v, t) => `${key}${v}${t ?? ''}`))).toEqualTypeOf<KStream<string, string>>();
    // stream–global and foreign-key joins share their argument count with another overload: TypeScript types an
    // inline `.of(...)` there from the first overload, so its parameters are annotated (or the joiner declared first)
    expectTypeOf(stream.join(global, (k) => k, ValueJoinerWithKey.of((key: string, v: string, g: string) => key + v + g))).toEqualTypeOf<KStream<string, string>>();
    expectTypeOf(table.outerJoin(otherTable, ValueJoinerWithKey.of((key, v, o) => `${key}${v ?? ''}${o ?? 0}`))).toEqualTypeOf<KTable<string, string>>();
    expectTypeOf(table.join(table, ValueMapperWithKey.of((key, value) => key + value), ValueJoinerWithKey.of((key: string, v: string, o: string) => key + v + o))).toEqualTypeOf<KTable<string, string>>();
    // @ts-expect-error the key of this stream is a string: a key-first mapper of a number key is refused
    stream.mapValues(ValueMapperWithKey.of((key: number, value: string) => key + value.length));
    expect(ValueMapperWithKey.of((k: string) => k).keyFirst('k', 'v')).toBe('k');
  });
});
