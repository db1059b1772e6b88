/**
 * KStream.processValues contract (issue 17, item 6), exactly once, on the
 * embedded cluster and on real Kafka:
 *
 * 1. a fixed-key processor keeping a running sum per key in a store it
 *    declares itself (`stores()`, no store name passed): every input is
 *    forwarded as `withValue(sum)`. The app is closed in the middle and
 *    started again with a fresh state directory, so the store is restored
 *    from its changelog; the committed outputs of each key are exactly its
 *    prefix sums over both phases (none lost, none duplicated, none restarted from 0).
 * 2. `processValues` then `groupByKey().count()` counts in the same
 *    sub-topology (no repartition topic is created), while the same after
 *    `process()` goes through `<applicationId>-<name>-repartition`; both
 *    counts equal the truth.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { FixedKeyProcessorContext, FixedKeyProcessorSupplier } from '../../src/processors/fixed-key-processor.js';
import type { ProcessorContext } from '../../src/processors/processor.js';
import type { Record as StreamRecord } from '../../src/processors/record.js';
import type { KeyValueStore } from '../../src/state/state-store.js';
import { Stores } from '../../src/state/stores.js';
import { KafkaStreams } from '../../src/runtime/kafka-streams.js';
import { Serdes } from '../../src/serdes/serdes.js';
import { StreamsBuilder } from '../../src/topology/streams-builder.js';
import { uniqueGroup, uniqueTopic, waitFor } from '../helpers/index.js';
import type { BackendContext } from './backends.js';
import { describeOnEachBackend } from './support/handler-suite.js';

const S = Serdes.String();
const PARTITIONS = 3;
const KEYS = 12;

/** [key index, amount] inputs; key k<i> goes to partition i % PARTITIONS. */
type Input = [key: number, amount: number];
const phase1: Input[] = Array.from({ length: 60 }, (_, i): Input => [i % KEYS, (i * 7) % 11]);
const phase2: Input[] = Array.from({ length: 48 }, (_, i): Input => [(i * 5) % KEYS, (i * 3) % 13]);

/** Each key's prefix sums over `inputs`, in order. */
function prefixSums(inputs: readonly Input[]): Map<string, string[]> {
  const sums = new Map<string, number>();
  const out = new Map<string, string[]>();
  for (const [k, amount] of inputs) {
    const sum = (sums.get(`k${k}`) ?? 0) + amount;
    sums.set(`k${k}`, sum);
    out.set(`k${k}`, [...(out.get(`k${k}`) ?? []), String(sum)]);
  }
  return out;
}

/** Each key's number of inputs. */
const countsOf = (inputs: readonly Input[]) => new Map([...prefixSums(inputs)].map(([k, sums]) => [k, sums.length]));
const sorted = <T>(m: Map<string, T>) => new Map([...m].sort(([a], [b]) => a.localeCompare(b)));

/** The running sum per key, in the store `running-sum` that the supplier declares. */
const runningSum: FixedKeyProcessorSupplier<string, string, string> = {
  get() {
    let context: FixedKeyProcessorContext<string, string>;
    let store: KeyValueStore<string, number>;
    return {
      init(c) {
        context = c;
        store = c.getStateStore('running-sum');
      },
      process(record) {
        const sum = (store.get(record.key) ?? 0) + Number(record.value);
        store.put(record.key, sum);
        context.forward(record.withValue(String(sum)));
      },
    };
  },
  stores: () => [Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore('running-sum'), S, Serdes.Long())],
};

await describeOnEachBackend('KStream.processValues, exactly once', (backend, fx) => {
  const ctx = (): BackendContext => fx.ctx;
  const timeout = backend.name === 'kafka' ? 180_000 : 60_000;
  const eventually = <T>(f: () => T | Promise<T>, message: string) => waitFor(f, { timeoutMs: ctx().patienceMs, intervalMs: 100, message });

  /** Writes each key's inputs, in order, to partition key % PARTITIONS, with timestamps near now. */
  const produce = async (topic: string, inputs: readonly Input[]): Promise<void> => {
    const producer = ctx().cluster.producer({});
    await producer.connect();
    try {
      for (let p = 0; p < PARTITIONS; p++) {
        const records = inputs
          .filter(([k]) => k % PARTITIONS === p)
          .map(([k, amount]) => ({ key: Buffer.from(`k${k}`), value: Buffer.from(String(amount)), headers: {}, timestamp: Date.now() }));
        if (records.length > 0) await producer.produce({ topic, partition: p, records });
      }
    } finally {
      await producer.close();
    }
  };

  /** The committed values of `topic` per key, in offset order. */
  const valuesPerKey = async (topic: string): Promise<Map<string, string[]>> => {
    const out = new Map<string, string[]>();
    for (const r of await ctx().read(topic)) out.set(r.key!.toString(), [...(out.get(r.key!.toString()) ?? []), r.value!.toString()]);
    return out;
  };

  const startApp = async (builder: StreamsBuilder, applicationId: string, apps: KafkaStreams[], dirs: string[]): Promise<KafkaStreams> => {
    const dir = mkdtempSync(join(tmpdir(), 'sluice-process-values-'));
    dirs.push(dir);
    const app = new KafkaStreams(builder.build(), {
      cluster: ctx().cluster,
      ...ctx().consumerTiming,
      applicationId,
      processingGuarantee: 'exactly_once',
      commitIntervalMs: 100,
      stateDir: dir,
      statestoreCacheMaxBytes: 0,
    });
    apps.push(app);
    await app.start();
    return app;
  };

  it('a processor with its own store (stores()) survives a restart on a fresh state dir: outputs are the exact prefix sums', { timeout }, async () => {
    const apps: KafkaStreams[] = [];
    const dirs: string[] = [];
    try {
      const [input, output] = [uniqueTopic(`pv-in-${backend.name}`), uniqueTopic(`pv-sums-${backend.name}`)];
      for (const topic of [input, output]) await ctx().admin.createTopic(topic, { partitions: PARTITIONS });
      const applicationId = uniqueGroup(`process-values-${backend.name}`);
      const start = () => {
        const builder = new StreamsBuilder();
        builder.stream(input, { keySerde: S, valueSerde: S }).processValues(runningSum).to(output, { keySerde: S, valueSerde: S });
        return startApp(builder, applicationId, apps, dirs);
      };
      const expectOutputs = async (inputs: readonly Input[], message: string) => {
        const want = sorted(prefixSums(inputs));
        await eventually(async () => JSON.stringify([...sorted(await valuesPerKey(output))]) === JSON.stringify([...want]), message);
        expect(sorted(await valuesPerKey(output))).toEqual(want);
      };

      // 1. first run: phase 1 → each key's outputs are its prefix sums
      const first = await start();
      await produce(input, phase1);
      await expectOutputs(phase1, 'phase 1 sums committed');

      // 2. close; start again with a fresh state directory (the store is restored from its changelog)
      await first.close();
      expect(first.state).toBe('NOT_RUNNING');
      await start();

      // 3. phase 2 → the sums continue from the restored store
      await produce(input, phase2);
      await expectOutputs([...phase1, ...phase2], 'phase 2 sums committed');

      // 4. the declared store is changelogged as any other store
      const changelog = await ctx().admin.describeTopic(`${applicationId}-running-sum-changelog`);
      expect(changelog.partitions).toBe(PARTITIONS);
      expect(changelog.config['cleanup.policy']).toBe('compact');
    } finally {
      await Promise.all(apps.splice(0).map((a) => a.close()));
      for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
    }
  });

  it('processValues then groupByKey().count() creates no repartition topic; process() then the same does', { timeout }, async () => {
    const apps: KafkaStreams[] = [];
    const dirs: string[] = [];
    try {
      const [input, pvCounts, pCounts] = [uniqueTopic(`pvc-in-${backend.name}`), uniqueTopic(`pvc-pv-${backend.name}`), uniqueTopic(`pvc-p-${backend.name}`)];
      for (const topic of [input, pvCounts, pCounts]) await ctx().admin.createTopic(topic, { partitions: PARTITIONS });
      const applicationId = uniqueGroup(`process-values-count-${backend.name}`);
      const builder = new StreamsBuilder();
      const stream = builder.stream(input, { keySerde: S, valueSerde: S });
      const upper: FixedKeyProcessorSupplier<string, string, string> = () => {
        let c: FixedKeyProcessorContext<string, string>;
        return { init: (x) => void (c = x), process: (r) => c.forward(r.withValue(r.value.toUpperCase())) };
      };
      const identity = () => {
        let c: ProcessorContext<string, string>;
        return { init: (x: ProcessorContext<string, string>) => void (c = x), process: (r: StreamRecord<string, string>) => c.forward(r) };
      };
      stream.processValues(upper).groupByKey({ name: 'pv-grouped', valueSerde: S }).count().toStream().to(pvCounts, { keySerde: S, valueSerde: Serdes.Long() });
      stream.process<string, string>(identity).groupByKey({ name: 'p-grouped', keySerde: S, valueSerde: S }).count().toStream().to(pCounts, { keySerde: S, valueSerde: Serdes.Long() });
      await startApp(builder, applicationId, apps, dirs);
      await produce(input, phase1);

      const lastCounts = async (topic: string) => {
        const last = new Map<string, number>();
        for (const r of await ctx().read(topic)) last.set(r.key!.toString(), Number(r.value!.readBigInt64BE(0)));
        return sorted(last);
      };
      const want = sorted(countsOf(phase1));
      for (const topic of [pvCounts, pCounts]) {
        await eventually(async () => JSON.stringify([...(await lastCounts(topic))]) === JSON.stringify([...want]), `counts of ${topic} committed`);
        expect(await lastCounts(topic)).toEqual(want);
      }
      const internal = (await ctx().admin.listTopics()).filter((t) => t.startsWith(`${applicationId}-`) && t.endsWith('-repartition'));
      expect(internal).toEqual([`${applicationId}-p-grouped-repartition`]);
    } finally {
      await Promise.all(apps.splice(0).map((a) => a.close()));
      for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
    }
  });
});
