/**
 * What the ports of Kafka's `TimeWindowedCogroupedKStreamImplTest`,
 * `SlidingWindowedCogroupedKStreamImplTest` and
 * `SessionWindowedCogroupedKStreamImplTest` share: their setup (two grouped
 * streams of String, cogrouped with `MockAggregator.TOSTRING_ADDER` and
 * `TOSTRING_REMOVER`), Kafka's props (String default serdes, caching off),
 * and a run reading the whole output as Kafka's `assertOutputKeyValueTimestamp`
 * compares it: the plain key, the value, the timestamp.
 */
import { Grouped, Serdes, StreamsBuilder, type CogroupedKStream, type KGroupedStream, type Serde, type Windowed } from '../../../src/index.js';
import { TopologyTestDriver } from '../../../src/testing.js';

export const S = Serdes.String();
export const TOPIC = 'topic';
export const TOPIC2 = 'topic2';
export const OUTPUT = 'output';
/** StreamsTestUtils.getStreamsConfig(Serdes.String(), Serdes.String()): caching off. */
export const props = { applicationId: 'windowed-cogroup-test', defaultKeySerde: S, defaultValueSerde: S, statestoreCacheMaxBytes: 0 };
/** MockAggregator.TOSTRING_ADDER, TOSTRING_REMOVER; MockInitializer.STRING_INIT. */
export const TOSTRING_ADDER = (_key: string, value: string, aggregate: string): string => `${aggregate}+${value}`;
export const TOSTRING_REMOVER = (_key: string, value: string, aggregate: string): string => `${aggregate}-${value}`;
export const STRING_INIT = (): string => '0';

/** The Java tests' `setup()`. */
export function setup(): { builder: StreamsBuilder; groupedStream: KGroupedStream<string, string>; cogroupedStream: CogroupedKStream<string, string> } {
  const builder = new StreamsBuilder();
  const stream = builder.stream(TOPIC, { keySerde: S, valueSerde: S });
  const stream2 = builder.stream(TOPIC2, { keySerde: S, valueSerde: S });
  const groupedStream = stream.groupByKey(Grouped.with(S, S));
  const groupedStream2 = stream2.groupByKey(Grouped.with(S, S));
  const cogroupedStream = groupedStream.cogroup(TOSTRING_ADDER).cogroup(groupedStream2, TOSTRING_REMOVER);
  return { builder, groupedStream, cogroupedStream };
}

/** One `(key, value, timestamp)` of the output, the window dropped (the Java helper compares `getKey().key()`). */
export type Out = readonly [key: string, value: string | null, timestamp: number];

/** Pipes `inputs` (`[topic, key, value, timestamp]`) through `builder`'s topology; returns every OUTPUT record, and the windowed records as read. */
export function run(
  builder: StreamsBuilder,
  keySerde: Serde<Windowed<string>>,
  inputs: readonly (readonly [topic: string, key: string, value: string, timestamp: number])[],
): { plain: Out[]; windowed: { key: Windowed<string>; value: string | null; timestamp: number }[] } {
  const driver = new TopologyTestDriver(builder.build(), props);
  try {
    const topics = new Map([TOPIC, TOPIC2].map((t) => [t, driver.createInputTopic(t, S, S)] as const));
    for (const [topic, key, value, timestamp] of inputs) topics.get(topic)?.pipeInput(key, value, timestamp);
    const records = driver.createOutputTopic(OUTPUT, keySerde, S).readRecordsToList();
    const windowed = records.map((r) => ({ key: r.key as Windowed<string>, value: r.value ?? null, timestamp: r.timestamp }));
    return { plain: windowed.map((r) => [r.key.key, r.value, r.timestamp] as const), windowed };
  } finally {
    driver.close();
  }
}
