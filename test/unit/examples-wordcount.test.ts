/**
 * Kafka Streams' WordCountDemoTest (streams/examples/src/test/java/org/apache/
 * kafka/streams/examples/wordcount/WordCountDemoTest.java), ported to the
 * TopologyTestDriver with its inputs and expected outputs unchanged.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Serdes, StreamsBuilder, KeyValue } from '../../src/index.js';
import { TopologyTestDriver, type TestInputTopic, type TestOutputTopic } from '../../src/testing.js';
import { createWordCountStream, INPUT_TOPIC, OUTPUT_TOPIC, streamsConfig } from '../../examples/wordcount/word-count-demo.js';

describe('WordCountDemo (TopologyTestDriver)', () => {
  let testDriver: TopologyTestDriver;
  let inputTopic: TestInputTopic<string, string>;
  let outputTopic: TestOutputTopic<string, number>;

  beforeEach(() => {
    const builder = new StreamsBuilder<string, string>();
    // Create Actual Stream Processing pipeline
    createWordCountStream(builder);
    const config = streamsConfig(null);
    testDriver = new TopologyTestDriver(builder.build(), {
      applicationId: config.applicationId,
      ...(config.defaultKeySerde ? { defaultKeySerde: config.defaultKeySerde } : {}),
      ...(config.defaultValueSerde ? { defaultValueSerde: config.defaultValueSerde } : {}),
    });
    inputTopic = testDriver.createInputTopic(INPUT_TOPIC, Serdes.String(), Serdes.String());
    outputTopic = testDriver.createOutputTopic(OUTPUT_TOPIC, Serdes.String(), Serdes.Long());
  });

  afterEach(() => {
    testDriver.close();
  });

  // WordCountDemoTest.testOneWord
  it('counts one word', () => {
    // Feed word "Hello" to inputTopic and no kafka key, timestamp is irrelevant in this case
    inputTopic.pipeValue('Hello');
    // Read and validate output to match word as key and count as value
    expect(outputTopic.readKeyValue()).toEqual(KeyValue.pair('hello', 1));
    // No more output in topic
    expect(outputTopic.isEmpty()).toBe(true);
  });

  // WordCountDemoTest.testCountListOfWords
  it('counts the words of a list of sentences', () => {
    const inputValues = [
      'Apache   Kafka Streams   Example',
      'Using  \t\t Kafka   Streams\tTest Utils',
      'Reading and Writing Kafka Topic',
    ];
    const expectedWordCounts = new Map<string, number>([
      ['apache', 1],
      ['kafka', 3],
      ['streams', 2],
      ['example', 1],
      ['using', 1],
      ['test', 1],
      ['utils', 1],
      ['reading', 1],
      ['and', 1],
      ['writing', 1],
      ['topic', 1],
    ]);
    inputTopic.pipeValueList(inputValues);
    const actualWordCounts = outputTopic.readKeyValuesToMap();
    expect(actualWordCounts).toEqual(expectedWordCounts);
  });

  // WordCountDemoTest.testStreamsConfig
  it('reads bootstrap.servers from a properties file; extra arguments are ignored', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wordcount-'));
    const tmp = join(dir, 'streams.properties');
    writeFileSync(tmp, 'bootstrap.servers=localhost:1234');
    try {
      let config = streamsConfig([tmp]);
      expect(config.bootstrapServers).toBe('localhost:1234');
      config = streamsConfig([tmp, 'extra', 'args']);
      expect(config.bootstrapServers).toBe('localhost:1234');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('defaults as Kafka’s demo: application id streams-wordcount, cache disabled, earliest', () => {
    expect(streamsConfig(null)).toMatchObject({
      applicationId: 'streams-wordcount',
      bootstrapServers: 'localhost:9092',
      statestoreCacheMaxBytes: 0,
      autoOffsetReset: 'earliest',
    });
  });
});
