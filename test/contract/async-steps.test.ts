/**
 * Async steps per key (issue 33), exactly once, on the embedded cluster and
 * on real Kafka: an enrichment calling a 20 ms (fake) service.
 *
 * 1. `mapValuesAsync(…, { concurrency: 64 })` over 2,000 records of 100 keys
 *    (one of them a poison value whose call rejects, with a CONTINUE handler):
 *    every other input exactly once in read_committed output, per key in
 *    input order, the poison one only missing; the calls' span is at least
 *    10x shorter than the sequential `process()` (an async processor awaited
 *    per record) needs for the same 2,000 records. The sequential rate is
 *    measured on 120 records (20 ms each, one at a time per task) and scaled
 *    to 2,000 to keep the file short: its time is linear in the records.
 */
import { expect, it } from 'vitest';
import { logAndContinueHandler } from '../../src/handlers/log-and-continue.js';
import type { ProcessorContext } from '../../src/processors/processor.js';
import { KafkaStreams } from '../../src/runtime/kafka-streams.js';
import { Serdes } from '../../src/serdes/serdes.js';
import { StreamsBuilder } from '../../src/topology/streams-builder.js';
import { uniqueGroup, uniqueTopic, waitFor } from '../helpers/index.js';
import type { BackendContext } from './backends.js';
import { describeOnEachBackend } from './support/handler-suite.js';

const S = Serdes.String();
const PARTITIONS = 2;
const KEYS = 100;
const RECORDS = 2000;
const SEQUENTIAL_SAMPLE = 120;
const CALL_MS = 20;
const POISON = 777;

const keyOf = (i: number) => `k${i % KEYS}`;
const valueOf = (i: number) => (i === POISON ? `boom-${i}` : `v${String(i).padStart(5, '0')}`);

/** The fake service: 20 ms per call; the span from the first call's start to the last call's end. */
function fakeService() {
  const span = { first: Infinity, last: 0, calls: 0 };
  const call = async (value: string): Promise<string> => {
    span.first = Math.min(span.first, performance.now());
    span.calls++;
    await new Promise((resolve) => setTimeout(resolve, CALL_MS));
    span.last = Math.max(span.last, performance.now());
    if (value.startsWith('boom')) throw new Error(`enrichment failed for ${value}`);
    return `${value}+enriched`;
  };
  return { span, call };
}

await describeOnEachBackend('async steps per key, exactly once', (backend, fx) => {
  const ctx = (): BackendContext => fx.ctx;
  const timeout = backend.name === 'kafka' ? 120_000 : 60_000;

  const produce = async (topic: string, count: number): Promise<void> => {
    const producer = ctx().cluster.producer({});
    await producer.connect();
    try {
      for (let p = 0; p < PARTITIONS; p++) {
        const records = Array.from({ length: count }, (_, i) => i)
          .filter((i) => (i % KEYS) % PARTITIONS === p)
          .map((i) => ({ key: Buffer.from(keyOf(i)), value: Buffer.from(valueOf(i)), headers: {}, timestamp: Date.now() }));
        await producer.produce({ topic, partition: p, records });
      }
    } finally {
      await producer.close();
    }
  };

  const run = async (name: string, count: number, build: (b: StreamsBuilder, input: string, output: string) => void) => {
    const [input, output] = [uniqueTopic(`async-in-${name}-${backend.name}`), uniqueTopic(`async-out-${name}-${backend.name}`)];
    for (const topic of [input, output]) await ctx().admin.createTopic(topic, { partitions: PARTITIONS });
    await produce(input, count);
    const builder = new StreamsBuilder();
    build(builder, input, output);
    const app = new KafkaStreams(builder.build(), {
      cluster: ctx().cluster,
      ...ctx().consumerTiming,
      applicationId: uniqueGroup(`async-${name}-${backend.name}`),
      processingGuarantee: 'exactly_once',
      commitIntervalMs: 100,
      processingExceptionHandler: logAndContinueHandler(),
    });
    try {
      await app.start();
      const expected = count - (count > POISON ? 1 : 0);
      const out = await waitFor(
        async () => {
          const records = await ctx().read(output);
          return records.length >= expected && records;
        },
        { timeoutMs: ctx().patienceMs + 30_000, intervalMs: 100, message: `${expected} outputs of ${name} committed` },
      );
      return { out, skipped: app.metrics().recordsSkipped };
    } finally {
      await app.close();
    }
  };

  it('mapValuesAsync (concurrency 64): each input once in read_committed output, per key in order, the rejected one only missing; >= 10x the sequential process()', { timeout }, async () => {
    // 1. the sequential baseline: an async processor awaited per record
    const sequential = fakeService();
    await run('seq', SEQUENTIAL_SAMPLE, (b, input, output) =>
      b
        .stream<string, string>(input, { keySerde: S, valueSerde: S })
        .process<string, string>(() => {
          let c: ProcessorContext<string, string>;
          return { init: (x) => void (c = x), process: async (r) => c.forward(r.withValue(await sequential.call(r.value))) };
        })
        .to(output, { keySerde: S, valueSerde: S }),
    );
    const sequentialMs = ((sequential.span.last - sequential.span.first) * RECORDS) / SEQUENTIAL_SAMPLE;

    // 2. the async step over 2,000 records
    const concurrent = fakeService();
    const { out, skipped } = await run('async', RECORDS, (b, input, output) =>
      b
        .stream<string, string>(input, { keySerde: S, valueSerde: S })
        .mapValuesAsync((v: string) => concurrent.call(v), { concurrency: 64 })
        .to(output, { keySerde: S, valueSerde: S }),
    );
    const asyncMs = concurrent.span.last - concurrent.span.first;

    // 3. each input once (the poison one only missing), per key in input order
    const want = new Map<string, string[]>();
    for (let i = 0; i < RECORDS; i++) if (i !== POISON) want.set(keyOf(i), [...(want.get(keyOf(i)) ?? []), `${valueOf(i)}+enriched`]);
    const got = new Map<string, string[]>();
    for (const r of out) got.set(r.key!.toString(), [...(got.get(r.key!.toString()) ?? []), r.value!.toString()]);
    expect(out).toHaveLength(RECORDS - 1);
    expect(got).toEqual(want);
    expect(skipped).toBe(1);
    expect(concurrent.span.calls).toBeGreaterThanOrEqual(RECORDS);

    // 4. the speed-up
    console.info(`[async-steps ${backend.name}] sequential ${Math.round(sequentialMs)} ms for ${RECORDS} (scaled from ${SEQUENTIAL_SAMPLE}), concurrency 64: ${Math.round(asyncMs)} ms (${(sequentialMs / asyncMs).toFixed(1)}x)`);
    expect(sequentialMs / asyncMs).toBeGreaterThanOrEqual(10);
  });

  it('a task held at its concurrency bound by buffered input still commits about every commitIntervalMs', { timeout }, async () => {
    // 240 records, all buffered at once; 2 calls of 10 ms at a time per task: ~600 ms of saturated processing per task.
    const [input, output] = [uniqueTopic(`async-in-cadence-${backend.name}`), uniqueTopic(`async-out-cadence-${backend.name}`)];
    for (const topic of [input, output]) await ctx().admin.createTopic(topic, { partitions: PARTITIONS });
    await produce(input, 240);
    const running: { app?: KafkaStreams } = {};
    const commitsSeenByCalls = new Set<number>();
    const builder = new StreamsBuilder();
    builder
      .stream<string, string>(input, { keySerde: S, valueSerde: S })
      .mapValuesAsync(async (v: string) => {
        commitsSeenByCalls.add(running.app?.metrics().commits ?? -1);
        await new Promise((resolve) => setTimeout(resolve, 10));
        return v;
      }, { concurrency: 2 })
      .to(output, { keySerde: S, valueSerde: S });
    const app = new KafkaStreams(builder.build(), {
      cluster: ctx().cluster, ...ctx().consumerTiming, applicationId: uniqueGroup(`async-cadence-${backend.name}`),
      processingGuarantee: 'exactly_once', commitIntervalMs: 100,
    });
    running.app = app;
    try {
      await app.start();
      const out = await waitFor(async () => {
        const records = await ctx().read(output);
        return records.length >= 240 && records;
      }, { timeoutMs: ctx().patienceMs + 30_000, intervalMs: 100, message: '240 outputs committed' });
      expect(out).toHaveLength(240);
      // commits went on while calls were still being made (the processing loop gives way to a queued commit)
      expect(commitsSeenByCalls.size, `commit counts seen by the calls: ${[...commitsSeenByCalls].join(', ')}`).toBeGreaterThanOrEqual(4);
    } finally {
      await app.close();
    }
  });
});
