/**
 * Issue 29 item 11 (third part): `Serdes.Json()` without a type argument.
 * Type-level assertions, checked by `npm run typecheck` (and run by vitest as
 * no-ops): with `Json<T>(): Serde<T>`, `createInputTopic('t', Serdes.String(),
 * Serdes.Json())` was a `TestInputTopic<string, null>`; with
 * `Serde<NoInfer<T>>`, `const s: Serde<X> = Serdes.Json()` did not compile.
 */
import { describe, expectTypeOf, it } from 'vitest';
import { KStream, Serdes, StreamsBuilder } from '../../../src/index.js';
import type { Deserializer, JsonSerde, Serde, Serializer } from '../../../src/index.js';
import { TopologyTestDriver, type TestInputTopic, type TestOutputTopic } from '../../../src/testing.js';

interface Order {
  id: string;
  amount: number;
}

describe('Serdes.Json() typing', () => {
  it('infers T from an annotation or a parameter type', () => {
    const s: Serde<Order> = Serdes.Json();
    expectTypeOf(s).toEqualTypeOf<Serde<Order>>();
    const takesSerde = (serde: Serde<Order>): Serde<Order> => serde;
    expectTypeOf(takesSerde(Serdes.Json())).toEqualTypeOf<Serde<Order>>();
    const ser: Serializer<Order> = Serdes.Json();
    const de: Deserializer<Order> = Serdes.Json();
    expectTypeOf(ser.serialize).parameter(1).toEqualTypeOf<Order | null>();
    expectTypeOf(de.deserialize).returns.toEqualTypeOf<Order>();
  });

  it('Serdes.Json<X>() is a serde of X, assignable to Serde<X> and back', () => {
    expectTypeOf(Serdes.Json<Order>()).toEqualTypeOf<JsonSerde<Order>>();
    expectTypeOf(Serdes.Json<Order>()).toExtend<Serde<Order>>();
    expectTypeOf<Serde<Order>>().toExtend<JsonSerde<Order>>();
    expectTypeOf(Serdes.Json<Order>().deserialize).returns.toEqualTypeOf<Order>();
    expectTypeOf(Serdes.Json<Order>().serialize).parameter(1).toEqualTypeOf<Order | null>();
    expectTypeOf(Serdes.Json()).toEqualTypeOf<JsonSerde<unknown>>();
  });

  it('the driver topics infer unknown (not null) from Serdes.Json() without a type argument', () => {
    const builder = new StreamsBuilder();
    builder.stream('t', { keySerde: Serdes.String(), valueSerde: Serdes.String() }).to('o', { keySerde: Serdes.String(), valueSerde: Serdes.String() });
    const driver = new TopologyTestDriver(builder.build());
    try {
      expectTypeOf(driver.createInputTopic('t', Serdes.String(), Serdes.Json())).toEqualTypeOf<TestInputTopic<string, unknown>>();
      expectTypeOf(driver.createOutputTopic('o', Serdes.String(), Serdes.Json())).toEqualTypeOf<TestOutputTopic<string, unknown>>();
      expectTypeOf(driver.createInputTopic('t', Serdes.String(), Serdes.Json<Order>())).toEqualTypeOf<TestInputTopic<string, Order>>();
      expectTypeOf(driver.createInputTopic<string, Order>('t', Serdes.String(), Serdes.Json())).toEqualTypeOf<TestInputTopic<string, Order>>();
    } finally {
      driver.close();
    }
  });

  it('DSL options infer the value type from Serdes.Json<X>()', () => {
    const b = new StreamsBuilder();
    expectTypeOf(b.stream('orders', { keySerde: Serdes.String(), valueSerde: Serdes.Json<Order>() })).toEqualTypeOf<KStream<string, Order>>();
    expectTypeOf(b.stream<string, Order>('orders2', { keySerde: Serdes.String(), valueSerde: Serdes.Json() })).toEqualTypeOf<KStream<string, Order>>();
  });
});
