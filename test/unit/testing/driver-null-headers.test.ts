/**
 * Issue 29 item 5: a null header value travels through the TopologyTestDriver
 * (TestInputTopic -> processors -> repartition topic -> TestOutputTopic), as
 * in Kafka, where `new RecordHeader("bar", null)` is a legal header.
 */
import { describe, expect, it } from 'vitest';
import { Serdes, StreamsBuilder, Topology } from '../../../src/index.js';
import type { Headers, ProcessorContext } from '../../../src/index.js';
import { TopologyTestDriver } from '../../../src/testing.js';

// Kafka's TestTopicsTest headers: "foo" -> "value", "bar" -> null, "\"A\\u00ea\\u00f1\\u00fcC\"" -> "value"
const headers: Headers = {
  foo: Buffer.from('value'),
  bar: null,
  '"A\\u00ea\\u00f1\\u00fcC"': Buffer.from('value'),
};

describe('null header values in the TopologyTestDriver', () => {
  // Kafka's TestTopicsTest.testWithHeaders (inputs and expected outputs unchanged; builder.stream(INPUT_TOPIC).to(OUTPUT_TOPIC))
  it('TestTopicsTest.testWithHeaders: a header with a null value is piped in and read out unchanged', () => {
    const driver = new TopologyTestDriver(new Topology().addSource('src', 'input-topic').addSink('sink', 'output-topic', 'src'));
    try {
      let baseTime = 3;
      const inputTopic = driver.createInputTopic('input-topic', Serdes.Long(), Serdes.String());
      const outputTopic = driver.createOutputTopic('output-topic', Serdes.Long(), Serdes.String());
      inputTopic.pipeRecord({ key: 1, value: 'Hello', headers });
      expect(outputTopic.readRecord()).toMatchObject({ key: 1, value: 'Hello', headers });
      inputTopic.pipeRecord({ key: 2, value: 'Kafka', headers, timestamp: ++baseTime });
      // (Kafka's TestRecord equality: key, value, headers, timestamp)
      expect(outputTopic.readRecord()).toMatchObject({ key: 2, value: 'Kafka', headers, timestamp: baseTime });
    } finally {
      driver.close();
    }
  });

  it('a processor reads the null value as null, and it is carried through a repartition topic to the output', () => {
    const seen: unknown[] = [];
    const builder = new StreamsBuilder();
    builder
      .stream<string, string>('in', { keySerde: Serdes.String(), valueSerde: Serdes.String() })
      .process<string, string>(() => {
        let ctx: ProcessorContext<string, string>;
        return {
          init: (c: ProcessorContext<string, string>) => void (ctx = c),
          process(record) {
            seen.push(record.headers.bar);
            ctx.forward(record.withHeaders({ ...record.headers, added: null }));
          },
        };
      })
      .repartition({ name: 'rekeyed', keySerde: Serdes.String(), valueSerde: Serdes.String() })
      .to('out', { keySerde: Serdes.String(), valueSerde: Serdes.String() });
    const driver = new TopologyTestDriver(builder.build());
    try {
      driver.createInputTopic('in', Serdes.String(), Serdes.String()).pipeInput('k', 'v', 10, { bar: null, foo: 'x' });
      expect(seen).toEqual([null]);
      const out = driver.createOutputTopic('out', Serdes.String(), Serdes.String()).readRecord();
      expect(out.headers).toEqual({ bar: null, foo: 'x', added: null });
    } finally {
      driver.close();
    }
  });
});
