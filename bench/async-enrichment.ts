/**
 * The async-enrichment benchmark (issue 33): every record calls a fake
 * service that answers after `--call-ms` (20 ms), exactly once, on a real
 * broker. Three contenders, each on fresh topics, one after another in this
 * process:
 *
 * - `sluice-async`: `mapValuesAsync(call, { concurrency })` (exactly_once);
 * - `sluice-sequential`: `process()` with an async processor (awaited per
 *   record: one call at a time per task), on `--sequential-records` only
 *   (it runs at ~1,000/call-ms records/s per task; its rate is what counts);
 * - `kafkajs-promise-all`: a plain kafkajs exactly-once loop (as
 *   bench/contenders/kafkajs-loop.ts) calling the service for the whole batch
 *   with `Promise.all`, then one transaction per batch.
 *
 * Each row: records, seconds from the first call to the last committed
 * offset, records/s, and the read_committed output checked (every input once;
 * sluice's rows also per key in input order).
 *
 *   npx tsx bench/async-enrichment.ts --brokers 127.0.0.1:9092 [--records 5000] [--keys 100] [--partitions 2] [--concurrency 64] [--call-ms 20]
 *     [--only sluice-async,sluice-sequential,kafkajs-promise-all] [--json]
 *
 * `--json`: one JSON line of rows on stdout instead of the table (`npm run bench -- --workload async`, bench/lib/run-async.ts).
 */
import { parseArgs } from 'node:util';
import kafkajs from 'kafkajs';
import { pino } from 'pino';
import type { Message } from 'kafkajs';
import { KafkaStreams } from '../src/runtime/kafka-streams.js';
import { Serdes } from '../src/serdes/serdes.js';
import { StreamsBuilder } from '../src/topology/streams-builder.js';
import type { ProcessorContext } from '../src/processors/processor.js';
import { readCommitted } from './lib/read-committed.js';

const { Kafka, logLevel, Partitioners } = kafkajs;
const S = Serdes.String();

interface Options {
  brokers: string[];
  records: number;
  sequentialRecords: number;
  keys: number;
  partitions: number;
  concurrency: number;
  callMs: number;
  only: string[];
  json: boolean;
}

/** The contenders, in the order they run. */
const ASYNC_CONTENDERS = ['sluice-async', 'sluice-sequential', 'kafkajs-promise-all'] as const;

/** One row of the result. */
interface Row {
  contender: string;
  records: number;
  seconds: number;
  recordsPerSecond: number;
  verified: string;
  ok: boolean;
}

function options(): Options {
  const { values } = parseArgs({
    options: {
      brokers: { type: 'string', default: process.env.KAFKA_BROKERS ?? '127.0.0.1:9092' },
      records: { type: 'string', default: '5000' },
      'sequential-records': { type: 'string', default: '400' },
      keys: { type: 'string', default: '100' },
      partitions: { type: 'string', default: '2' },
      concurrency: { type: 'string', default: '64' },
      'call-ms': { type: 'string', default: '20' },
      only: { type: 'string', default: ASYNC_CONTENDERS.join(',') },
      json: { type: 'boolean', default: false },
    },
  });
  return {
    brokers: values.brokers.split(','),
    records: Number(values.records),
    sequentialRecords: Number(values['sequential-records']),
    keys: Number(values.keys),
    partitions: Number(values.partitions),
    concurrency: Number(values.concurrency),
    callMs: Number(values['call-ms']),
    only: values.only.split(',').map((s) => s.trim()),
    json: values.json,
  };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The fake service, and the time of its first call. */
function service(callMs: number) {
  const seen = { first: 0 };
  const call = async (value: string): Promise<string> => {
    if (seen.first === 0) seen.first = performance.now();
    await sleep(callMs);
    return `${value}+enriched`;
  };
  return { seen, call };
}

async function main(): Promise<void> {
  const o = options();
  const kafka = new Kafka({ clientId: 'async-bench', brokers: o.brokers, logLevel: logLevel.ERROR });
  const admin = kafka.admin();
  await admin.connect();
  const run = `${Date.now().toString(36)}`;
  const rows: Row[] = [];

  /** 1. fresh topics and the input (key k<i % keys>, value v<i>). */
  const prepare = async (name: string, count: number) => {
    const [input, output] = [`async-bench-${name}-in-${run}`, `async-bench-${name}-out-${run}`];
    await admin.createTopics({ topics: [input, output].map((topic) => ({ topic, numPartitions: o.partitions, replicationFactor: 1 })), waitForLeaders: true });
    const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
    await producer.connect();
    for (let from = 0; from < count; from += 1000) {
      const messages = Array.from({ length: Math.min(1000, count - from) }, (_, j) => ({ key: `k${(from + j) % o.keys}`, value: `v${from + j}` }));
      await producer.send({ topic: input, messages });
    }
    await producer.disconnect();
    return { input, output, group: `async-bench-${name}-${run}` };
  };

  /** 2. until the group committed every input offset. */
  const committedAll = async (group: string, input: string) => {
    const ends = await admin.fetchTopicOffsets(input);
    for (;;) {
      const [committed] = await admin.fetchOffsets({ groupId: group, topics: [input] });
      const done = ends.every((e) => Number(e.high) === 0 || Number(committed?.partitions.find((p) => p.partition === e.partition)?.offset ?? -1) >= Number(e.high));
      if (done) return performance.now();
      await sleep(20);
    }
  };

  /**
   * 3. the read_committed output: every input value once; `perKeyOrder`: each
   *    key's values in input order (a key is in one partition, read in offset order).
   */
  const verify = async (output: string, count: number, perKeyOrder: boolean) => {
    const values = new Map<string, number>();
    const lastOfKey = new Map<string, number>();
    let outOfOrder = 0;
    const take = (r: { key: Buffer | null; value: Buffer | null }) => ({ key: r.key?.toString() ?? '', value: r.value?.toString() ?? '' });
    const summary = await readCommitted(kafka, output, take, ({ key, value }) => {
      values.set(value, (values.get(value) ?? 0) + 1);
      const i = Number(/^v(\d+)\+enriched$/.exec(value)?.[1] ?? Number.NaN);
      if (perKeyOrder && !((lastOfKey.get(key) ?? -1) < i)) outOfOrder++;
      lastOfKey.set(key, i);
    }, 60_000);
    const missing = Array.from({ length: count }, (_, i) => `v${i}+enriched`).filter((v) => values.get(v) !== 1).length;
    const ok = summary.complete && missing === 0 && values.size === count && outOfOrder === 0;
    const what = perKeyOrder ? `${count} once, per key in order` : `${count} once`;
    return { ok, verified: ok ? `ok (${what})` : `FAILED (${missing} missing or duplicated, ${outOfOrder} out of key order)` };
  };

  const sluice = async (name: (typeof ASYNC_CONTENDERS)[number], count: number, build: (b: StreamsBuilder, input: string, output: string, call: (v: string) => Promise<string>) => void) => {
    if (!o.only.includes(name)) return;
    const { input, output, group } = await prepare(name, count);
    const svc = service(o.callMs);
    const builder = new StreamsBuilder();
    build(builder, input, output, svc.call);
    const app = new KafkaStreams(builder.build(), { applicationId: group, bootstrapServers: o.brokers.join(','), processingGuarantee: 'exactly_once', logger: pino({ level: 'warn' }) });
    await app.start();
    const end = await committedAll(group, input);
    await app.close();
    const seconds = (end - svc.seen.first) / 1000;
    rows.push({ contender: name, records: count, seconds, recordsPerSecond: count / seconds, ...(await verify(output, count, true)) });
  };

  // sluice, async step
  await sluice('sluice-async', o.records, (b, input, output, call) =>
    b.stream<string, string>(input, { keySerde: S, valueSerde: S }).mapValuesAsync(call, { concurrency: o.concurrency }).to(output, { keySerde: S, valueSerde: S }),
  );
  // sluice, sequential process()
  await sluice('sluice-sequential', o.sequentialRecords, (b, input, output, call) =>
    b
      .stream<string, string>(input, { keySerde: S, valueSerde: S })
      .process<string, string>(() => {
        let c: ProcessorContext<string, string>;
        return { init: (x) => void (c = x), process: async (r) => c.forward(r.withValue(await call(r.value))) };
      })
      .to(output, { keySerde: S, valueSerde: S }),
  );
  // kafkajs, Promise.all per batch
  if (o.only.includes('kafkajs-promise-all')) {
    const { input, output, group } = await prepare('kafkajs-promise-all', o.records);
    const svc = service(o.callMs);
    const producer = kafka.producer({ transactionalId: `${group}-txn`, idempotent: true, maxInFlightRequests: 1, createPartitioner: Partitioners.DefaultPartitioner });
    const consumer = kafka.consumer({ groupId: group, readUncommitted: false, maxWaitTimeInMs: 500 });
    await producer.connect();
    await consumer.connect();
    await consumer.subscribe({ topics: [input], fromBeginning: true });
    await consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      eachBatch: async ({ batch, resolveOffset, heartbeat, isRunning, isStale }) => {
        if (batch.messages.length === 0 || !isRunning() || isStale()) return;
        const values = await Promise.all(batch.messages.map((m) => svc.call(m.value?.toString() ?? '')));
        const messages: Message[] = batch.messages.map((m, i) => ({ key: m.key, value: values[i] ?? null }));
        const transaction = await producer.transaction();
        try {
          await transaction.send({ topic: output, messages });
          await transaction.sendOffsets({ consumerGroupId: group, topics: [{ topic: batch.topic, partitions: [{ partition: batch.partition, offset: String(Number(batch.lastOffset()) + 1) }] }] });
          await transaction.commit();
        } catch (err) {
          await transaction.abort();
          throw err;
        }
        resolveOffset(batch.lastOffset());
        await heartbeat();
      },
    });
    const end = await committedAll(group, input);
    await consumer.disconnect();
    await producer.disconnect();
    const seconds = (end - svc.seen.first) / 1000;
    rows.push({ contender: 'kafkajs-promise-all', records: o.records, seconds, recordsPerSecond: o.records / seconds, ...(await verify(output, o.records, false)) });
  }
  await admin.disconnect();

  // 4. the table (or the rows as JSON)
  if (o.json) {
    console.log(JSON.stringify({ options: o, rows }));
    return;
  }
  console.log(`async enrichment: ${o.callMs} ms per call, ${o.keys} keys, ${o.partitions} partitions, concurrency ${o.concurrency}`);
  console.log('| contender | records | s (first call to all committed) | records/s | read_committed output |');
  console.log('|---|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.contender} | ${r.records} | ${r.seconds.toFixed(2)} | ${Math.round(r.recordsPerSecond)} | ${r.verified} |`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
