/**
 * Ports of Kafka's `SuppressScenarioTest` final-results cases
 * (`Suppressed.untilWindowCloses` on windowed counts) through the
 * TopologyTestDriver, inputs and expected outputs unchanged. Kafka maps each
 * `Windowed` key to its `toString()` (`[k1@0/2]`) before writing;
 * `Windowed.toString` is the same text. Caching is disabled in the counts'
 * Materialized as in Kafka, so every update reaches the outputs.
 */
import { describe, expect, it } from 'vitest';
import { BufferConfig, Grouped, KeyValue, Materialized, Serdes, StreamsBuilder, Suppressed, TimeWindows, Windowed } from '../../../../src/index.js';
import type { KTable, Serde } from '../../../../src/index.js';
import { TopologyTestDriver } from '../../../../src/testing.js';

const STRING_SERDE = Serdes.String();
const LONG = Serdes.Long() as unknown as Serde<number>;
const { untilWindowCloses } = Suppressed;
const { unbounded } = BufferConfig;
const kvt = (key: string, value: number | null, timestamp: number) => ({ key, value, timestamp });

function drain(driver: TopologyTestDriver, topic: string) {
  return driver
    .createOutputTopic(topic, STRING_SERDE, LONG)
    .readRecordsToList()
    .map((r) => kvt(r.key as string, r.value as number | null, r.timestamp));
}

/** Kafka's two outputs of `valueCounts`: suppressed and raw, keys as `Windowed.toString`. */
function outputs(valueCounts: KTable<Windowed<string>, number>): void {
  valueCounts
    .suppress(untilWindowCloses(unbounded()))
    .toStream()
    .map((k, v) => KeyValue.pair(Windowed.toString(k), v))
    .to('output-suppressed', { keySerde: STRING_SERDE, valueSerde: LONG });
  valueCounts
    .toStream()
    .map((k, v) => KeyValue.pair(Windowed.toString(k), v))
    .to('output-raw', { keySerde: STRING_SERDE, valueSerde: LONG });
}

function grouped(builder: StreamsBuilder) {
  return builder.stream('input', { keySerde: STRING_SERDE, valueSerde: STRING_SERDE }).groupBy((k: string) => k, Grouped.with(STRING_SERDE, STRING_SERDE));
}

describe('SuppressScenarioTest, final results (ported)', () => {
  // SuppressScenarioTest.shouldSupportFinalResultsForTimeWindows
  it('shouldSupportFinalResultsForTimeWindows', () => {
    const builder = new StreamsBuilder();
    const valueCounts = grouped(builder)
      .windowedBy(TimeWindows.ofSizeAndGrace(2, 1))
      .count(Materialized.as<string, number>('counts').withCachingDisabled());
    outputs(valueCounts);
    const driver = new TopologyTestDriver(builder.build(), { applicationId: 'suppress-scenario' });
    const inputTopic = driver.createInputTopic('input', STRING_SERDE, STRING_SERDE);
    inputTopic.pipeInput('k1', 'v1', 0);
    inputTopic.pipeInput('k1', 'v1', 1);
    inputTopic.pipeInput('k1', 'v1', 2);
    inputTopic.pipeInput('k1', 'v1', 1);
    inputTopic.pipeInput('k1', 'v1', 0);
    inputTopic.pipeInput('k1', 'v1', 5);
    // note this last record gets dropped because it is out of the grace period
    inputTopic.pipeInput('k1', 'v1', 0);
    expect(drain(driver, 'output-raw')).toEqual([
      kvt('[k1@0/2]', 1, 0),
      kvt('[k1@0/2]', 2, 1),
      kvt('[k1@2/4]', 1, 2),
      kvt('[k1@0/2]', 3, 1),
      kvt('[k1@0/2]', 4, 1),
      kvt('[k1@4/6]', 1, 5),
    ]);
    expect(drain(driver, 'output-suppressed')).toEqual([kvt('[k1@0/2]', 4, 1), kvt('[k1@2/4]', 1, 2)]);
    driver.close();
  });

  // SuppressScenarioTest.shouldSupportFinalResultsForTimeWindowsWithLargeJump
  it('shouldSupportFinalResultsForTimeWindowsWithLargeJump', () => {
    const builder = new StreamsBuilder();
    const valueCounts = grouped(builder)
      .windowedBy(TimeWindows.ofSizeAndGrace(2, 2))
      .count(Materialized.as<string, number>('counts').withCachingDisabled().withKeySerde(STRING_SERDE));
    outputs(valueCounts);
    const driver = new TopologyTestDriver(builder.build(), { applicationId: 'suppress-scenario' });
    const inputTopic = driver.createInputTopic('input', STRING_SERDE, STRING_SERDE);
    inputTopic.pipeInput('k1', 'v1', 0);
    inputTopic.pipeInput('k1', 'v1', 1);
    inputTopic.pipeInput('k1', 'v1', 2);
    inputTopic.pipeInput('k1', 'v1', 0);
    inputTopic.pipeInput('k1', 'v1', 3);
    inputTopic.pipeInput('k1', 'v1', 0);
    inputTopic.pipeInput('k1', 'v1', 4);
    // this update should get dropped, since the previous event advanced the stream time and closed the window.
    inputTopic.pipeInput('k1', 'v1', 0);
    inputTopic.pipeInput('k1', 'v1', 30);
    expect(drain(driver, 'output-raw')).toEqual([
      kvt('[k1@0/2]', 1, 0),
      kvt('[k1@0/2]', 2, 1),
      kvt('[k1@2/4]', 1, 2),
      kvt('[k1@0/2]', 3, 1),
      kvt('[k1@2/4]', 2, 3),
      kvt('[k1@0/2]', 4, 1),
      kvt('[k1@4/6]', 1, 4),
      kvt('[k1@30/32]', 1, 30),
    ]);
    expect(drain(driver, 'output-suppressed')).toEqual([kvt('[k1@0/2]', 4, 1), kvt('[k1@2/4]', 2, 3), kvt('[k1@4/6]', 1, 4)]);
    driver.close();
  });
});
