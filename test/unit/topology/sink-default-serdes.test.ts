/**
 * Issue 14 item: `.map(...).to(t)` with no serdes uses the config's
 * `defaultKeySerde` / `defaultValueSerde` (Kafka resolves `default.key.serde`
 * for a sink whose serde is unknown); without a default, building the
 * topology for a runtime (TopologyTestDriver, KafkaStreams) is a TopologyError
 * naming the sink and the fix.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { KafkaStreams, Serdes, StreamsBuilder, TopologyError } from '../../../src/index.js';
import { TopologyTestDriver } from '../../../src/testing.js';

const S = Serdes.String();
const STR = { keySerde: S, valueSerde: S };
let driver: TopologyTestDriver | undefined;
afterEach(() => {
  driver?.close();
  driver = undefined;
});

function swapThenLength() {
  const b = new StreamsBuilder();
  b.stream('in', STR)
    .map((k, v) => ({ key: v, value: k.length }))
    .to('out');
  return b.build();
}

describe('default serdes at to() after a type change', () => {
  it('the driver config defaults serialize the sink', () => {
    driver = new TopologyTestDriver(swapThenLength(), { defaultKeySerde: S, defaultValueSerde: Serdes.Integer() });
    driver.createInputTopic('in', S, S).pipeInput('abc', 'x');
    expect(driver.createOutputTopic('out', S, Serdes.Integer()).readKeyValue()).toEqual({ key: 'x', value: 3 });
  });

  it('without defaults: a TopologyError naming the sink, the side and the fix', () => {
    expect(() => new TopologyTestDriver(swapThenLength())).toThrow(TopologyError);
    expect(() => new TopologyTestDriver(swapThenLength(), { defaultKeySerde: S })).toThrow(
      "Sink 'KSTREAM-SINK-0000000002' (to 'out' after 'KSTREAM-MAP-0000000001'): the value serde is unknown (the value type changed upstream) and there is no default; " +
        "pass the serdes (Produced.with(keySerde, valueSerde)), or set 'defaultValueSerde' in the KafkaStreams / TopologyTestDriver config",
    );
  });

  it('KafkaStreams resolves them at construction (same error without defaults, none with them)', () => {
    expect(() => new KafkaStreams(swapThenLength(), { applicationId: 'a', bootstrapServers: 'localhost:1' })).toThrow(/the key serde is unknown/);
    expect(
      () => new KafkaStreams(swapThenLength(), { applicationId: 'a', bootstrapServers: 'localhost:1', defaultKeySerde: S, defaultValueSerde: Serdes.Integer() }),
    ).not.toThrow();
  });

  it('a dynamic to() names the extractor; the builder default still wins over the runtime one', () => {
    const b = new StreamsBuilder({ defaultKeySerde: S });
    b.stream('in', STR)
      .mapValues((v) => v.length)
      .to(() => 'out');
    expect(() => new TopologyTestDriver(b.build())).toThrow(/\(to a TopicNameExtractor after 'KSTREAM-MAPVALUES-0000000001'\): the value serde is unknown/);
    driver = new TopologyTestDriver(b.build(), { defaultKeySerde: Serdes.Json(), defaultValueSerde: Serdes.Integer() });
    driver.createInputTopic('in', S, S).pipeInput('k', 'abcd');
    expect(driver.createOutputTopic('out', S, Serdes.Integer()).readKeyValue()).toEqual({ key: 'k', value: 4 });
  });

  it('describe() needs no defaults', () => {
    expect(swapThenLength().describe().toString()).toContain('Sink: KSTREAM-SINK-0000000002 (topic: out)');
  });
});
