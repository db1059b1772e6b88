/**
 * Issue 29 item 7f: `TopologyTestDriver.metrics()` with Kafka's names.
 * Ported (inputs and expected outputs unchanged):
 * - ProcessingExceptionHandlerIntegrationTest.shouldFailWhenProcessingExceptionOccursIfExceptionHandlerReturnsFail
 *   (its metrics part: dropped-records-total 0.0, dropped-records-rate 0.0);
 * - ProcessingExceptionHandlerIntegrationTest.shouldContinueWhenProcessingExceptionOccursIfExceptionHandlerReturnsContinue
 *   (dropped-records-total 2.0, dropped-records-rate > 0.0).
 * sluice's StreamsError message differs from Kafka's "Exception caught in
 * process. ..." text; it names the same processor, topic and offset.
 */
import { describe, expect, it } from 'vitest';
import { KeyValue, Serdes, StreamsBuilder } from '../../../src/index.js';
import type { ProcessorContext, ProcessorSupplier } from '../../../src/index.js';
import { DRIVER_THREAD_ID, TopologyTestDriver } from '../../../src/testing.js';
import type { MetricQuery } from '../../../src/testing.js';
import { kvt, RecordingProcessorSupplier } from '../../helpers/ktable/recording-processor.js';

const threadId = DRIVER_THREAD_ID;
const TIMESTAMP = Date.now();
const S = Serdes.String();

const droppedRecordsTotalMetric = (): MetricQuery => ({
  name: 'dropped-records-total',
  group: 'stream-task-metrics',
  description: 'The total number of dropped records',
  tags: { 'thread-id': threadId, 'task-id': '0_0' },
});
const droppedRecordsRateMetric = (): MetricQuery => ({
  name: 'dropped-records-rate',
  group: 'stream-task-metrics',
  description: 'The average number of dropped records per second',
  tags: { 'thread-id': threadId, 'task-id': '0_0' },
});

/** Kafka's runtimeErrorProcessorSupplierMock: throws for keys containing "ERR", forwards the rest. */
function runtimeErrorProcessorSupplierMock(): ProcessorSupplier<string, string, string, string> {
  return () => {
    let context: ProcessorContext<string, string>;
    return {
      init: (c: ProcessorContext<string, string>) => void (context = c),
      process(record) {
        if (record.key.includes('ERR')) throw new Error('Exception should be handled by processing exception handler');
        context.forward(record);
      },
    };
  };
}

function topology(processor: RecordingProcessorSupplier<string, string>) {
  const builder = new StreamsBuilder();
  builder
    .stream<string, string>('TOPIC_NAME', { keySerde: S, valueSerde: S })
    .map((k, v) => KeyValue.pair(k, v))
    .mapValues((value) => value)
    .process(runtimeErrorProcessorSupplierMock())
    .process(() => processor.get());
  return builder.build();
}

describe('TopologyTestDriver.metrics() (Kafka ProcessingExceptionHandlerIntegrationTest)', () => {
  it('shouldFailWhenProcessingExceptionOccursIfExceptionHandlerReturnsFail', () => {
    const events = [KeyValue.pair('ID123-1', 'ID123-A1'), KeyValue.pair('ID123-2-ERR', 'ID123-A2'), KeyValue.pair('ID123-3', 'ID123-A3'), KeyValue.pair('ID123-4', 'ID123-A4')];
    const processor = new RecordingProcessorSupplier<string, string>();
    const driver = new TopologyTestDriver(topology(processor), { processingExceptionHandler: { handle: () => 'FAIL' }, initialWallClockTimeMs: 0 });
    try {
      const inputTopic = driver.createInputTopic('TOPIC_NAME', S, S);
      expect(() => inputTopic.pipeKeyValueList(events, TIMESTAMP, 0)).toThrow(/KSTREAM-PROCESSOR-0000000003/);
      expect(processor.theCapturedProcessor().processed()).toEqual([kvt('ID123-1', 'ID123-A1', TIMESTAMP)]);
      expect(driver.metrics().get(droppedRecordsTotalMetric())?.metricValue()).toBe(0.0);
      expect(driver.metrics().get(droppedRecordsRateMetric())?.metricValue()).toBe(0.0);
    } finally {
      driver.close();
    }
  });

  it('shouldContinueWhenProcessingExceptionOccursIfExceptionHandlerReturnsContinue', () => {
    const events = [
      KeyValue.pair('ID123-1', 'ID123-A1'),
      KeyValue.pair('ID123-2-ERR', 'ID123-A2'),
      KeyValue.pair('ID123-3', 'ID123-A3'),
      KeyValue.pair('ID123-4', 'ID123-A4'),
      KeyValue.pair('ID123-5-ERR', 'ID123-A5'),
      KeyValue.pair('ID123-6', 'ID123-A6'),
    ];
    const expectedProcessedRecords = [kvt('ID123-1', 'ID123-A1', TIMESTAMP), kvt('ID123-3', 'ID123-A3', TIMESTAMP), kvt('ID123-4', 'ID123-A4', TIMESTAMP), kvt('ID123-6', 'ID123-A6', TIMESTAMP)];
    const processor = new RecordingProcessorSupplier<string, string>();
    const driver = new TopologyTestDriver(topology(processor), { processingExceptionHandler: { handle: () => 'CONTINUE' }, initialWallClockTimeMs: 0 });
    try {
      const inputTopic = driver.createInputTopic('TOPIC_NAME', S, S);
      inputTopic.pipeKeyValueList(events, TIMESTAMP, 0);
      expect(processor.theCapturedProcessor().processed()).toHaveLength(expectedProcessedRecords.length);
      expect(processor.theCapturedProcessor().processed()).toEqual(expectedProcessedRecords);
      expect(driver.metrics().get(droppedRecordsTotalMetric())?.metricValue()).toBe(2.0);
      expect(driver.metrics().get(droppedRecordsRateMetric())?.metricValue()).toBeGreaterThan(0.0);
    } finally {
      driver.close();
    }
  });
});

describe('TopologyTestDriver.metrics(): what else is counted', () => {
  it('operator drops (a null key into an aggregation) and production-handler CONTINUEs count; process-total counts every record; rates follow the wall clock', () => {
    const builder = new StreamsBuilder();
    const stream = builder.stream<string, string>('in', { keySerde: S, valueSerde: S });
    stream.groupByKey().count();
    // a value that a number serde cannot serialize: the production handler answers CONTINUE
    stream.filter((_k, v) => v === 'bad').to('out', { keySerde: S, valueSerde: Serdes.Long() as never });
    const driver = new TopologyTestDriver(builder.build(), { productionExceptionHandler: { handle: () => 'CONTINUE' }, initialWallClockTimeMs: 0 });
    try {
      const metrics = driver.metrics();
      expect(metrics.keys()).toEqual([
        { name: 'dropped-records-total', group: 'stream-task-metrics', tags: { 'thread-id': 'main', 'task-id': '0_0' } },
        { name: 'dropped-records-rate', group: 'stream-task-metrics', tags: { 'thread-id': 'main', 'task-id': '0_0' } },
        { name: 'process-total', group: 'stream-thread-metrics', tags: { 'thread-id': 'main' } },
        { name: 'process-rate', group: 'stream-thread-metrics', tags: { 'thread-id': 'main' } },
      ]);
      const input = driver.createInputTopic('in', S, S);
      input.pipeInput('a', 'ok', 1);
      input.pipeInput(null, 'ok', 2); // dropped by count(): null key
      input.pipeInput('b', 'bad', 3); // counted, then dropped at the sink by the production handler
      expect(metrics.value('dropped-records-total', 'stream-task-metrics')).toBe(2);
      expect(metrics.value('process-total', 'stream-thread-metrics', { 'thread-id': 'main' })).toBe(3);
      // Kafka's Rate: 2 drops over at least one full 30 s window
      expect(metrics.value('dropped-records-rate', 'stream-task-metrics')).toBeCloseTo(2 / 30, 10);
      driver.advanceWallClockTime(45_000);
      expect(metrics.value('dropped-records-rate', 'stream-task-metrics')).toBeCloseTo(2 / 45, 10);
      driver.advanceWallClockTime(60_000);
      expect(metrics.value('dropped-records-rate', 'stream-task-metrics')).toBe(0);
      expect(metrics.value('dropped-records-total', 'stream-task-metrics')).toBe(2);
      expect(metrics.get({ name: 'dropped-records-total', group: 'stream-task-metrics', tags: { 'task-id': '1_0' } })).toBeUndefined();
      expect([...metrics].map((m) => m.metricName.name)).toContain('process-rate');
    } finally {
      driver.close();
    }
  });
});
