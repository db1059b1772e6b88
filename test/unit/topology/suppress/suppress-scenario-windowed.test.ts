/**
 * Ports of Kafka's `SuppressScenarioTest` final-results cases
 * (`Suppressed.untilWindowCloses` on time, sliding and session windowed
 * counts) through the
 * TopologyTestDriver, inputs and expected outputs unchanged. Kafka maps each
 * `Windowed` key to its `toString()` (`[k1@0/2]`) before writing;
 * `Windowed.toString` is the same text. Caching is disabled in the counts'
 * Materialized as in Kafka, so every update reaches the outputs.
 */
import { describe, expect, it } from 'vitest';
import { BufferConfig, Grouped, KeyValue, Materialized, Serdes, SessionWindows, SlidingWindows, StreamsBuilder, Suppressed, TimeWindows, Windowed } from '../../../../src/index.js';
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

  // SuppressScenarioTest.shouldSupportFinalResultsForSlidingWindows
  it('shouldSupportFinalResultsForSlidingWindows', () => {
    const builder = new StreamsBuilder();
    const valueCounts = grouped(builder)
      .windowedBy(SlidingWindows.ofTimeDifferenceAndGrace(5, 15))
      .count(Materialized.as<string, number>('counts').withCachingDisabled().withKeySerde(STRING_SERDE));
    outputs(valueCounts);
    const driver = new TopologyTestDriver(builder.build(), { applicationId: 'suppress-scenario' });
    const inputTopic = driver.createInputTopic('input', STRING_SERDE, STRING_SERDE);
    inputTopic.pipeInput('k1', 'v1', 10);
    inputTopic.pipeInput('k1', 'v1', 11);
    inputTopic.pipeInput('k1', 'v1', 10);
    inputTopic.pipeInput('k1', 'v1', 13);
    inputTopic.pipeInput('k1', 'v1', 10);
    inputTopic.pipeInput('k1', 'v1', 24);
    // this update should get dropped, since the previous event advanced the stream time and closed the window.
    inputTopic.pipeInput('k1', 'v1', 5);
    inputTopic.pipeInput('k1', 'v1', 7);
    // final record to advance stream time and flush windows
    inputTopic.pipeInput('k1', 'v1', 90);
    const actual = drain(driver, 'output-raw').sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.timestamp - b.timestamp));
    expect(actual).toEqual([
      // right window for k1@10 created when k1@11 is processed
      kvt('[k1@11/16]', 1, 11),
      // right window for k1@10 updated when k1@13 is processed
      kvt('[k1@11/16]', 2, 13),
      // right window for k1@11 created when k1@13 is processed
      kvt('[k1@12/17]', 1, 13),
      // left window for k1@24 created when k1@24 is processed
      kvt('[k1@19/24]', 1, 24),
      // left window for k1@10 created when k1@10 is processed
      kvt('[k1@5/10]', 1, 10),
      // left window for k1@10 updated when k1@10 is processed
      kvt('[k1@5/10]', 2, 10),
      // left window for k1@10 updated when k1@10 is processed
      kvt('[k1@5/10]', 3, 10),
      // left window for k1@10 updated when k1@5 is processed
      kvt('[k1@5/10]', 4, 10),
      // left window for k1@10 updated when k1@7 is processed
      kvt('[k1@5/10]', 5, 10),
      // left window for k1@11 created when k1@11 is processed
      kvt('[k1@6/11]', 2, 11),
      // left window for k1@11 updated when k1@10 is processed
      kvt('[k1@6/11]', 3, 11),
      // left window for k1@11 updated when k1@10 is processed
      kvt('[k1@6/11]', 4, 11),
      // left window for k1@11 updated when k1@7 is processed
      kvt('[k1@6/11]', 5, 11),
      // left window for k1@13 created when k1@13 is processed
      kvt('[k1@8/13]', 4, 13),
      // left window for k1@13 updated when k1@10 is processed
      kvt('[k1@8/13]', 5, 13),
      // right window for k1@90 created when k1@90 is processed
      kvt('[k1@85/90]', 1, 90),
    ]);
    expect(drain(driver, 'output-suppressed')).toEqual([
      kvt('[k1@5/10]', 5, 10),
      kvt('[k1@6/11]', 5, 11),
      kvt('[k1@8/13]', 5, 13),
      kvt('[k1@11/16]', 2, 13),
      kvt('[k1@12/17]', 1, 13),
      kvt('[k1@19/24]', 1, 24),
    ]);
    driver.close();
  });

  // SuppressScenarioTest.shouldSupportFinalResultsForSessionWindows
  it('shouldSupportFinalResultsForSessionWindows', () => {
    const builder = new StreamsBuilder();
    const valueCounts = grouped(builder)
      .windowedBy(SessionWindows.ofInactivityGapWithNoGrace(5))
      .count(Materialized.as<string, number>('counts').withCachingDisabled());
    outputs(valueCounts);
    const driver = new TopologyTestDriver(builder.build(), { applicationId: 'suppress-scenario' });
    const inputTopic = driver.createInputTopic('input', STRING_SERDE, STRING_SERDE);
    // first window
    inputTopic.pipeInput('k1', 'v1', 0);
    inputTopic.pipeInput('k1', 'v1', 5);
    // arbitrarily disordered records are admitted, because the *window* is not closed until stream-time > window-end + grace
    inputTopic.pipeInput('k1', 'v1', 1);
    // any record in the same partition advances stream time (note the key is different)
    inputTopic.pipeInput('k2', 'v1', 11);
    // late event for first window - this should get dropped from all streams, since the first window is now closed.
    inputTopic.pipeInput('k1', 'v1', 5);
    // just pushing stream time forward to flush the other events through.
    inputTopic.pipeInput('k1', 'v1', 30);
    expect(drain(driver, 'output-raw')).toEqual([
      kvt('[k1@0/0]', 1, 0),
      kvt('[k1@0/0]', null, 0),
      kvt('[k1@0/5]', 2, 5),
      kvt('[k1@0/5]', null, 5),
      kvt('[k1@0/5]', 3, 5),
      kvt('[k2@11/11]', 1, 11),
      kvt('[k1@30/30]', 1, 30),
    ]);
    expect(drain(driver, 'output-suppressed')).toEqual([kvt('[k1@0/5]', 3, 5), kvt('[k2@11/11]', 1, 11)]);
    driver.close();
  });
});
