/**
 * Timestamp extractors contract (issue 17, time): through KafkaStreams,
 * exactly once, on the embedded cluster and on real Kafka.
 * 1. A value-embedded-timestamp extractor (`id|ms`) drives the time: every
 *    output carries the embedded timestamp (not the produce time), and a
 *    stream-time punctuation fires by the embedded times; a negative embedded
 *    timestamp, handed to LogAndSkipOnInvalidTimestamp, is skipped and counted
 *    (recordsSkipped 1) and nothing else is lost.
 * 2. The same extractor handing a negative timestamp to FailOnInvalidTimestamp
 *    (Kafka's default; a broker keeps no negative record timestamp, so the
 *    default's own trigger cannot be produced on either backend: the embedded
 *    timestamp stands for it): the app ends in ERROR with a message naming the
 *    record and what to change, and the exactly-once invariant holds: the
 *    committed outputs are exactly the inputs below the committed offset,
 *    nothing of the failing record's transaction is visible.
 */
import { expect, it } from 'vitest';
import { KafkaStreams } from '../../src/runtime/kafka-streams.js';
import { Serdes } from '../../src/serdes/serdes.js';
import { Consumed } from '../../src/topology/options.js';
import { StreamsBuilder } from '../../src/topology/streams-builder.js';
import type { ProcessorContext } from '../../src/processors/processor.js';
import { Record as StreamRecord } from '../../src/processors/record.js';
import {
  FailOnInvalidTimestamp,
  LogAndSkipOnInvalidTimestamp,
  type ExtractRecordMetadataTimestamp,
  type ExtractorRecord,
  type TimestampExtractorFunction,
} from '../../src/processors/timestamp-extractors.js';
import { uniqueGroup, uniqueTopic, waitFor } from '../helpers/index.js';
import type { BackendContext } from './backends.js';
import { describeOnEachBackend } from './support/handler-suite.js';

const S = Serdes.String();
const TICK_MS = 10_000;

/** Reads the timestamp embedded in a value `id|ms`; a negative one goes to `onInvalid` (as the built-ins do with the metadata timestamp). */
function embeddedTimestamp(onInvalid: ExtractRecordMetadataTimestamp): TimestampExtractorFunction {
  return function embeddedTimestamp(record: ExtractorRecord, partitionTime: number): number {
    const ms = Number(String(record.value).split('|')[1]);
    return ms < 0 ? onInvalid.onInvalidTimestamp({ ...record, timestamp: ms }, ms, partitionTime) : ms;
  };
}

/** Forwards every record, and `tick|<stream time>` from a stream-time punctuation every {@link TICK_MS}. */
function withTicks() {
  let ctx: ProcessorContext<string, string> | undefined;
  return {
    init(context: ProcessorContext<string, string>) {
      ctx = context;
      context.schedule(TICK_MS, 'STREAM_TIME', (time) => ctx?.forward(new StreamRecord('tick', `tick|${time}`, time, {})));
    },
    process(record: StreamRecord<string, string>) {
      ctx?.forward(record);
    },
  };
}

await describeOnEachBackend('timestamp extractors, exactly once', (backend, fx) => {
  const ctx = (): BackendContext => fx.ctx;
  const timeout = backend.name === 'kafka' ? 120_000 : 60_000;

  /** An app reading `input` with `extractor` into `output`. */
  const startApp = async (input: string, output: string, extractor: TimestampExtractorFunction, apps: KafkaStreams[]): Promise<{ app: KafkaStreams; applicationId: string }> => {
    const applicationId = uniqueGroup(`ts-extractor-${backend.name}`);
    const builder = new StreamsBuilder();
    builder.stream(input, Consumed.with(S, S).withTimestampExtractor(extractor)).process(withTicks).to(output, { keySerde: S, valueSerde: S });
    const app = new KafkaStreams(builder.build(), {
      cluster: ctx().cluster,
      ...ctx().consumerTiming,
      applicationId,
      processingGuarantee: 'exactly_once',
      commitIntervalMs: 100,
    });
    apps.push(app);
    await app.start();
    return { app, applicationId };
  };

  /** Produces `values` (key = the id before '|') to partition 0 of `topic`, stamped with the produce time. */
  const produce = async (topic: string, values: string[]): Promise<void> => {
    const producer = ctx().cluster.producer({});
    await producer.connect();
    try {
      await producer.produce({ topic, partition: 0, records: values.map((v) => ({ key: Buffer.from(v.split('|')[0]!), value: Buffer.from(v), headers: {}, timestamp: Date.now() })) });
    } finally {
      await producer.close();
    }
  };

  const committed = async (topic: string) => (await ctx().read(topic)).map((r) => ({ value: r.value!.toString(), timestamp: r.timestamp }));
  /** A time near now (the broker keeps it), a whole number of ticks, ten minutes before the produce times. */
  const base = (): number => Math.floor((Date.now() - 600_000) / TICK_MS) * TICK_MS;

  it('embedded timestamps stamp the outputs and drive stream-time punctuation; a negative one is skipped (LogAndSkip) and counted, nothing else lost', { timeout }, async () => {
    const apps: KafkaStreams[] = [];
    try {
      const [input, output] = [uniqueTopic(`ts-in-${backend.name}`), uniqueTopic(`ts-out-${backend.name}`)];
      for (const topic of [input, output]) await ctx().admin.createTopic(topic, { partitions: 1 });
      const t0 = base();
      const { app } = await startApp(input, output, embeddedTimestamp(new LogAndSkipOnInvalidTimestamp()), apps);
      const values = [`a|${t0}`, `b|${t0 + 3_000}`, `c|${t0 + 12_000}`, 'bad|-1', `d|${t0 + 25_000}`];
      await produce(input, values);
      const expected = [
        { value: `tick|${t0}`, timestamp: t0 }, // the first record's stream time
        { value: `a|${t0}`, timestamp: t0 },
        { value: `b|${t0 + 3_000}`, timestamp: t0 + 3_000 },
        { value: `c|${t0 + 12_000}`, timestamp: t0 + 12_000 },
        { value: `tick|${t0 + 12_000}`, timestamp: t0 + 12_000 }, // stream time passed t0 + 10 s
        { value: `d|${t0 + 25_000}`, timestamp: t0 + 25_000 },
        { value: `tick|${t0 + 25_000}`, timestamp: t0 + 25_000 }, // and t0 + 20 s
      ];
      const out = await waitFor(async () => {
        const seen = await committed(output);
        return seen.length >= expected.length && seen;
      }, { timeoutMs: ctx().patienceMs, intervalMs: 100, message: `${expected.length} outputs committed` });
      expect(new Set(out.map((o) => o.value))).toEqual(new Set(expected.map((o) => o.value)));
      expect(out.filter((o) => !o.value.startsWith('tick')).map((o) => o.value)).toEqual(expected.filter((o) => !o.value.startsWith('tick')).map((o) => o.value));
      for (const o of out) expect(o.timestamp).toBe(Number(o.value.split('|')[1]));
      await waitFor(() => app.metrics().recordsProcessed === values.length, { timeoutMs: ctx().patienceMs, intervalMs: 50, message: 'every input consumed' });
      expect(app.metrics().recordsSkipped).toBe(1);
      expect(app.state).toBe('RUNNING');
      expect(await committed(output)).toHaveLength(expected.length);
    } finally {
      await Promise.all(apps.splice(0).map((a) => a.close()));
    }
  });

  it('a negative timestamp with FailOnInvalidTimestamp: the app ends in ERROR naming what to change; nothing of the failing transaction is visible', { timeout }, async () => {
    const apps: KafkaStreams[] = [];
    try {
      const [input, output] = [uniqueTopic(`ts-fail-in-${backend.name}`), uniqueTopic(`ts-fail-out-${backend.name}`)];
      for (const topic of [input, output]) await ctx().admin.createTopic(topic, { partitions: 1 });
      const t0 = base();
      const { app, applicationId } = await startApp(input, output, embeddedTimestamp(new FailOnInvalidTimestamp()), apps);
      // 1. two good records, committed
      await produce(input, [`a|${t0 + 1}`, `b|${t0 + 2}`]);
      await waitFor(async () => (await committed(output)).filter((o) => !o.value.startsWith('tick')).length === 2, { timeoutMs: ctx().patienceMs, intervalMs: 100, message: 'first outputs committed' });
      // 2. a good record and the bad one in one batch (likely one transaction), then another good one
      await produce(input, [`c|${t0 + 3}`, 'bad|-1', `d|${t0 + 4}`]);
      await waitFor(() => app.state === 'ERROR', { timeoutMs: ctx().patienceMs, intervalMs: 50, message: 'the app in ERROR' });
      const error = app.error as Error & { code?: string };
      expect(error.code).toBe('INVALID_EXTRACTED_TIMESTAMP');
      expect(error.message).toContain(`${input}-0@3`);
      expect(error.message).toContain('has invalid (negative) timestamp -1');
      expect(error.message).toContain('Use a different TimestampExtractor');
      expect(error.message).toContain('LogAndSkipOnInvalidTimestamp');
      // 3. the exactly-once invariant: committed outputs are exactly those of the inputs below the committed offset
      const [offset] = await ctx().admin.committedOffsets(applicationId, input);
      const outputs = (await committed(output)).filter((o) => !o.value.startsWith('tick')).map((o) => o.value);
      expect(offset).toBeGreaterThanOrEqual(2);
      expect(offset).toBeLessThanOrEqual(3); // never past the bad record
      expect(outputs).toEqual([`a|${t0 + 1}`, `b|${t0 + 2}`, `c|${t0 + 3}`].slice(0, offset));
      expect(outputs).not.toContain(`d|${t0 + 4}`);
    } finally {
      await Promise.all(apps.splice(0).map((a) => a.close()));
    }
  });
});
