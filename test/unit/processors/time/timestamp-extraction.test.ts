/**
 * The task's timestamp step: the timestamp cases of Kafka's RecordQueueTest
 * (streams/src/test/java/org/apache/kafka/streams/processor/internals/RecordQueueTest.java),
 * run on sluice's TimestampExtraction and StreamTask, then the configuration
 * (defaultTimestampExtractor, Consumed.withTimestampExtractor) through the
 * TopologyTestDriver.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError, StreamsError } from '../../../../src/errors.js';
import { Consumed, FailOnInvalidTimestamp, Materialized, type ProcessorContext, type StreamRecord, LogAndSkipOnInvalidTimestamp, Serdes, StreamsBuilder, Topology, type ExtractorRecord } from '../../../../src/index.js';
import { TopologyTestDriver } from '../../../../src/testing.js';
import { TimestampExtraction } from '../../../../src/processors/internal/timestamp-extraction.js';
import { resolveTimestampExtractor, type TimestampExtractor } from '../../../../src/processors/timestamp-extractors.js';
import type { SourceNodeDef } from '../../../../src/processors/plan.js';
import type { ConsumedRecord } from '../../../../src/records/types.js';
import { toRuntime } from '../../../../src/topology/topology-runtime.js';
import { resolveConfig } from '../../../../src/runtime/config.js';
import { captureLogger } from '../../handlers/capture-logger.js';
import { storeOf } from '../../../helpers/store-of.js';

const I = Serdes.Integer();
const S = Serdes.String();
const FAIL = { handle: () => 'FAIL' as const };
const handlers = { deserialization: FAIL, processing: FAIL };

/** Java's `new ConsumerRecord<>("topic", 1, offset, timestamp, CREATE_TIME, 0, 0, recordKey=1, recordValue=10, ...)`. */
function raw(offset: number, timestamp = 0): ConsumedRecord {
  return { topic: 'topic', partition: 1, offset, timestamp, key: I.serialize('topic', 1), value: I.serialize('topic', 10), headers: {} };
}

/** Kafka's MockTimestampExtractor: the record's offset. */
const mockTimestampExtractor = (record: ExtractorRecord): number => record.offset;

function source(extractor?: TimestampExtractor): SourceNodeDef {
  return {
    kind: 'source', name: 'source', topics: ['topic'], keyDeserializer: I, valueDeserializer: I,
    ...(extractor === undefined ? {} : { timestampExtractor: resolveTimestampExtractor(extractor, 'test') }),
  };
}

/** RecordQueue.poll: extract, then the partition time advances (sluice does both in `stamp`). */
function poll(time: TimestampExtraction, def: SourceNodeDef, record: ConsumedRecord): number | string {
  const stamp = time.stamp(def, record, 1, 10);
  return 'skip' in stamp ? stamp.skip : stamp.timestamp;
}

/** A task over `topology` for partition 1, its outputs collected. */
function taskOf(topology: Topology, options: { defaultTimestampExtractor?: TimestampExtractor } = {}) {
  const { logger, lines } = captureLogger();
  const sent: Array<{ key: unknown; value: unknown; timestamp: number }> = [];
  const runtime = toRuntime(topology, options);
  const task = runtime.createTask({ subtopology: 0, partition: 1 }, { send: (o) => void sent.push({ key: o.key, value: o.value, timestamp: o.timestamp }) }, handlers, { logger, clock: () => 0 });
  task.init();
  return { task, sent, lines };
}

function passThrough(consumed?: Consumed<number, number>): Topology {
  const b = new StreamsBuilder();
  b.stream('topic', { keySerde: I, valueSerde: I, ...consumed }).to('out', { keySerde: I, valueSerde: I });
  return b.build();
}

describe('partition time (RecordQueueTest)', () => {
  // RecordQueueTest.shouldTrackPartitionTimeAsMaxProcessedTimestamp
  it('tracks the partition time as the max processed timestamp', () => {
    const time = new TimestampExtraction();
    const def = source(mockTimestampExtractor);
    expect(time.partitionTime('topic', 1)).toBe(-1);
    // three out-of-order records with timestamp 2, 1, 3, 4
    const list1 = [raw(2), raw(1), raw(3), raw(4)];
    expect(time.partitionTime('topic', 1)).toBe(-1);
    poll(time, def, list1[0]!);
    expect(time.partitionTime('topic', 1)).toBe(2);
    poll(time, def, list1[1]!);
    expect(time.partitionTime('topic', 1)).toBe(2);
    poll(time, def, list1[2]!);
    expect(time.partitionTime('topic', 1)).toBe(3);
  });

  // RecordQueueTest.shouldSetTimestampAndRespectMaxTimestampPolicy
  it('sets the partition time and keeps the max', () => {
    const time = new TimestampExtraction();
    const def = source(mockTimestampExtractor);
    expect(time.partitionTime('topic', 1)).toBe(-1);
    time.setPartitionTime('topic', 1, 150);
    expect(time.partitionTime('topic', 1)).toBe(150);
    const list1 = [raw(200), raw(100), raw(300), raw(400)];
    expect(time.partitionTime('topic', 1)).toBe(150);
    poll(time, def, list1[0]!);
    expect(time.partitionTime('topic', 1)).toBe(200);
    time.setPartitionTime('topic', 1, 500);
    expect(time.partitionTime('topic', 1)).toBe(500);
    poll(time, def, list1[1]!);
    expect(time.partitionTime('topic', 1)).toBe(500);
  });

  // RecordQueueTest.shouldPassPartitionTimeToTimestampExtractor
  it('passes the partition time to the extractor', () => {
    let seen = -1;
    const partitionTimeTracking = {
      extract(record: ExtractorRecord, partitionTime: number): number {
        if (partitionTime < seen) throw new Error('Partition time should not decrease');
        seen = partitionTime;
        return record.offset;
      },
    };
    const time = new TimestampExtraction();
    const def = source(partitionTimeTracking);
    const list1 = [raw(2), raw(1), raw(3), raw(4)];
    expect(seen).toBe(-1);
    // Kafka extracts the head record when it is queued; sluice when it is processed: the extractor sees the same partition times.
    poll(time, def, list1[0]!);
    expect(seen).toBe(-1); // no (known) timestamp has yet been passed to the timestamp extractor
    poll(time, def, list1[1]!);
    expect(seen).toBe(2);
    poll(time, def, list1[2]!);
    expect(seen).toBe(2);
    poll(time, def, list1[3]!);
    expect(seen).toBe(3);
  });

  it('keeps one partition time per topic-partition', () => {
    const time = new TimestampExtraction();
    const def = source(mockTimestampExtractor);
    poll(time, def, raw(7));
    poll(time, def, { ...raw(3), partition: 2 });
    expect(time.partitionTime('topic', 1)).toBe(7);
    expect(time.partitionTime('topic', 2)).toBe(3);
    expect(time.partitionTime('other', 1)).toBe(-1);
  });
});

describe('negative timestamps in the task (RecordQueueTest)', () => {
  // RecordQueueTest.shouldThrowOnNegativeTimestamp
  it('throws on a negative timestamp with FailOnInvalidTimestamp (the default)', () => {
    const { task, sent } = taskOf(passThrough());
    let error: unknown;
    try {
      task.process(raw(1, -1));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(StreamsError);
    expect((error as StreamsError).code).toBe('INVALID_EXTRACTED_TIMESTAMP');
    expect((error as Error).message).toMatch(/^Input record topic-1@1 \(timestamp -1, key 1, value 10\) has invalid \(negative\) timestamp -1\. Use a different TimestampExtractor/);
    expect(sent).toEqual([]);
  });

  // RecordQueueTest.shouldDropOnNegativeTimestamp
  it('drops a record with a negative timestamp with LogAndSkipOnInvalidTimestamp: skipped, logged, nothing forwarded', () => {
    const { task, sent, lines } = taskOf(passThrough(), { defaultTimestampExtractor: new LogAndSkipOnInvalidTimestamp() });
    expect(task.process(raw(1, -1))).toBe('skipped');
    expect(sent).toEqual([]);
    const warn = lines.find((l) => String(l.msg).startsWith('Skipping record due to negative extracted timestamp -1'));
    expect(warn?.level).toBe(40);
    expect(String(warn?.msg)).toContain('LogAndSkipOnInvalidTimestamp');
    expect(String(warn?.msg)).toContain('topic-1@1');
    // the next record goes through, and the skipped one did not move stream time
    expect(task.process(raw(2, 5))).toBe('processed');
    expect(sent).toEqual([{ key: 1, value: 10, timestamp: 5 }]);
  });

  it('an extractor that throws fails the task with TIMESTAMP_EXTRACTOR_FAILED naming the extractor, the source and the record', () => {
    const brokenExtractor = (): number => {
      throw new TypeError('no field ts');
    };
    const { task, sent } = taskOf(passThrough(Consumed.with(I, I).withTimestampExtractor(brokenExtractor).withName('orders')));
    let error: unknown;
    try {
      task.process(raw(4, 9));
    } catch (e) {
      error = e;
    }
    expect((error as StreamsError).code).toBe('TIMESTAMP_EXTRACTOR_FAILED');
    expect((error as StreamsError).kind).toBe('fatal');
    expect((error as Error).message).toContain("Fatal user code error in TimestampExtractor function brokenExtractor of source 'orders' for record topic-1@4");
    expect((error as Error).message).toContain('threw TypeError: no field ts');
    expect((error as Error).cause).toBeInstanceOf(TypeError);
    expect(sent).toEqual([]);
  });

  it('an extractor returning no whole number fails the task the same way', () => {
    for (const bad of [Number.NaN, 1.5, '12']) {
      const { task } = taskOf(passThrough({ timestampExtractor: () => bad as number }));
      expect(() => task.process(raw(1, 0))).toThrow(/not a whole number of milliseconds/);
    }
  });
});

describe('configuring extractors', () => {
  const valueTime = (record: ExtractorRecord): number => Number(String(record.value).split('@')[1]);

  it('the driver forwards records with the extracted timestamp and stream time follows it (a stream-time punctuation fires by it)', () => {
    const b = new StreamsBuilder();
    const fired: number[] = [];
    b.stream('in', Consumed.with(S, S).withTimestampExtractor(valueTime))
      .process(() => {
        let ctx: ProcessorContext<string, string> | undefined;
        return {
          init(context: ProcessorContext<string, string>) {
            ctx = context;
            context.schedule(1000, 'STREAM_TIME', (t) => void fired.push(t));
          },
          process(record: StreamRecord<string, string>) {
            ctx?.forward(record);
          },
        };
      })
      .to('out', { keySerde: S, valueSerde: S });
    const driver = new TopologyTestDriver(b.build());
    try {
      const input = driver.createInputTopic('in', S, S);
      const output = driver.createOutputTopic('out', S, S);
      input.pipeInput('k', 'a@5000', 1);
      input.pipeInput('k', 'b@7500', 2);
      expect(output.readRecordsToList().map((r) => [r.value, r.timestamp])).toEqual([['a@5000', 5000], ['b@7500', 7500]]);
      // as Kafka's PunctuationQueue: a due punctuator is called with the stream time
      expect(fired).toEqual([5000, 7500]);
    } finally {
      driver.close();
    }
  });

  it("the driver's defaultTimestampExtractor applies to sources without their own; Consumed's wins", () => {
    const b = new StreamsBuilder();
    b.stream('a', { keySerde: S, valueSerde: S }).to('out', { keySerde: S, valueSerde: S });
    b.stream('b', Consumed.with(S, S).withTimestampExtractor(new FailOnInvalidTimestamp())).to('out', { keySerde: S, valueSerde: S });
    const driver = new TopologyTestDriver(b.build(), { defaultTimestampExtractor: valueTime });
    try {
      driver.createInputTopic('a', S, S).pipeInput('k', 'x@42', 1);
      driver.createInputTopic('b', S, S).pipeInput('k', 'y@43', 2);
      expect(driver.createOutputTopic('out', S, S).readRecordsToList().map((r) => r.timestamp)).toEqual([42, 2]);
    } finally {
      driver.close();
    }
  });

  it('a repartition topic is read with the record timestamps whatever the default (as Kafka: FailOnInvalidTimestamp)', () => {
    const b = new StreamsBuilder();
    b.stream('in', { keySerde: S, valueSerde: S })
      .selectKey((_k, v) => v.split('@')[0] ?? '')
      .groupByKey({ keySerde: S, valueSerde: S })
      .count()
      .toStream()
      .to('out', { keySerde: S, valueSerde: Serdes.Long() });
    const driver = new TopologyTestDriver(b.build(), { defaultTimestampExtractor: valueTime, statestoreCacheMaxBytes: 0 });
    try {
      driver.createInputTopic('in', S, S).pipeInput('k', 'x@42', 1);
      expect(driver.createOutputTopic('out', S, Serdes.Long()).readRecordsToList().map((r) => [r.key, r.value, r.timestamp])).toEqual([['x', 1, 42]]);
    } finally {
      driver.close();
    }
  });

  it('globalTable and addSource take an extractor; global stores keep the extracted timestamp', () => {
    const b = new StreamsBuilder();
    b.globalTable('g', Consumed.with(S, S).withTimestampExtractor(valueTime), Materialized.as('g-store'));
    const global = new TopologyTestDriver(b.build());
    try {
      global.createInputTopic('g', S, S).pipeInput('k', 'v@66', 1);
      expect(storeOf(global.getTimestampedKeyValueStore<string, string>('g-store')).get('k')).toEqual({ value: 'v@66', timestamp: 66 });
    } finally {
      global.close();
    }
    const t = new Topology().addSource('src', 'in', { keySerde: S, valueSerde: S, timestampExtractor: valueTime }).addSink('sink', 'out', { keySerde: S, valueSerde: S }, 'src');
    const driver = new TopologyTestDriver(t);
    try {
      driver.createInputTopic('in', S, S).pipeInput('k', 'v@77', 1);
      expect(driver.createOutputTopic('out', S, S).readRecord().timestamp).toBe(77);
    } finally {
      driver.close();
    }
  });

  it('Consumed.withTimestampExtractor(e) alone (Java\'s Consumed.with(TimestampExtractor)) keeps the default serdes', () => {
    const b = new StreamsBuilder();
    const consumed = Consumed.withTimestampExtractor((r) => Number(String(r.value)));
    expect(consumed.keySerde).toBeUndefined();
    b.stream('in', consumed).to('out');
    const driver = new TopologyTestDriver(b.build(), { defaultKeySerde: S, defaultValueSerde: S });
    try {
      driver.createInputTopic('in', S, S).pipeInput('k', '123', 1);
      expect(driver.createOutputTopic('out', S, S).readRecord()).toMatchObject({ key: 'k', value: '123', timestamp: 123 });
    } finally {
      driver.close();
    }
  });

  it('a bad extractor is refused where it is given, naming the setting', () => {
    expect(() => resolveConfig({ applicationId: 'a', bootstrapServers: 'localhost:9092', defaultTimestampExtractor: 'wallclock' as never })).toThrow(ConfigError);
    expect(() => resolveConfig({ applicationId: 'a', bootstrapServers: 'localhost:9092', defaultTimestampExtractor: 'wallclock' as never })).toThrow(
      /Config 'defaultTimestampExtractor' must be a TimestampExtractor/,
    );
    expect(() => Consumed.with(S, S).withTimestampExtractor({} as never)).toThrow(/Consumed.withTimestampExtractor\(extractor\) must be a TimestampExtractor/);
    expect(() => new TopologyTestDriver(passThrough(), { defaultTimestampExtractor: 5 as never })).toThrow(/defaultTimestampExtractor must be a TimestampExtractor/);
    expect(() => new Topology().addSource('s', 'in', { timestampExtractor: 5 as never })).toThrow(/The timestampExtractor of source 's' must be a TimestampExtractor/);
    expect(resolveConfig({ applicationId: 'a', bootstrapServers: 'localhost:9092' }).defaultTimestampExtractor).toBeUndefined();
  });
});
