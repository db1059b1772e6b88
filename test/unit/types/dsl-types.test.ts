/** Type-level checks of the DSL (vitest's expectTypeOf, checked by `tsc --noEmit`): types flow through each operation. */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { Consumed, Serdes, StreamsBuilder, type KStream, type KGroupedStream } from '../../../src/index.js';

interface Order {
  id: string;
  amount: number;
}

describe('DSL types', () => {
  it('a stream without serdes is a Buffer stream; with serdes it has their types', () => {
    const b = new StreamsBuilder();
    expectTypeOf(b.stream('raw')).toEqualTypeOf<KStream<Buffer, Buffer>>();
    expectTypeOf(b.stream('orders', { keySerde: Serdes.String(), valueSerde: Serdes.Json<Order>() })).toEqualTypeOf<KStream<string, Order>>();
    expectTypeOf(b.stream('c', Consumed.with(Serdes.String(), Serdes.Int32()))).toEqualTypeOf<KStream<string, number>>();
    expectTypeOf(b.stream('k', { keySerde: Serdes.String() })).toEqualTypeOf<KStream<string, Buffer>>();
    // @ts-expect-error naming types without the serdes that produce them would be a lie (the bytes stay Buffers)
    b.stream<string, string>('lie');
    expect(b.build().describe().subtopologies.length).toBeGreaterThan(0);
  });

  it('the builder default serdes type the streams that name none', () => {
    const b = new StreamsBuilder({ defaultKeySerde: Serdes.String() });
    expectTypeOf(b.stream('in')).toEqualTypeOf<KStream<string, Buffer>>();
  });

  it('each operation keeps or changes the types as it says', () => {
    const s = new StreamsBuilder().stream('orders', { keySerde: Serdes.String(), valueSerde: Serdes.Json<Order>() });
    expectTypeOf(s.filter((k, v) => k.length > 0 && v.amount > 0)).toEqualTypeOf<KStream<string, Order>>();
    expectTypeOf(s.filterNot((_k, v) => v.amount > 0)).toEqualTypeOf<KStream<string, Order>>();
    expectTypeOf(s.mapValues((v) => v.amount)).toEqualTypeOf<KStream<string, number>>();
    expectTypeOf(s.map((k, v) => ({ key: v.amount, value: k }))).toEqualTypeOf<KStream<number, string>>();
    expectTypeOf(s.selectKey((_k, v) => v.amount)).toEqualTypeOf<KStream<number, Order>>();
    expectTypeOf(s.flatMap((k, v) => [{ key: k, value: v.amount }])).toEqualTypeOf<KStream<string, number>>();
    expectTypeOf(s.flatMapValues((v) => [v.id, v.id])).toEqualTypeOf<KStream<string, string>>();
    expectTypeOf(s.peek(() => {})).toEqualTypeOf<KStream<string, Order>>();
    expectTypeOf(s.merge(s)).toEqualTypeOf<KStream<string, Order>>();
    expectTypeOf(s.split().branch((_k, v) => v.amount > 10).defaultBranch()).toEqualTypeOf<Map<string, KStream<string, Order>>>();
    expectTypeOf(s.groupBy((_k, v) => v.amount)).toEqualTypeOf<KGroupedStream<number, Order>>();
    // @ts-expect-error the key is a string, not a number
    s.filter((k: number) => k > 0);
    // @ts-expect-error the value has no field `price`
    s.mapValues((v) => v.price);
    // @ts-expect-error merge needs a stream of the same types
    s.merge(s.mapValues((v) => v.amount));
  });
});
