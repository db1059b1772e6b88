/**
 * close() at any moment of start() (issue 12 item 0), on both backends: close
 * resolves, start rejects with "closed while starting", no unhandled rejection,
 * the group keeps no member of the closed app (no kafkajs restart rejoins it),
 * and a new instance of the same application gets every partition.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ClusterPort, GroupConsumerPort } from '../../src/cluster/port.js';
import { KafkaStreams } from '../../src/runtime/kafka-streams.js';
import { Serdes } from '../../src/serdes/serdes.js';
import { StreamsBuilder } from '../../src/topology/streams-builder.js';
import { uniqueGroup, uniqueTopic, waitFor } from '../helpers/index.js';
import { backends, type BackendContext } from './backends.js';

const PARTITIONS = 4;
type Moment = 'immediately' | 'after 5 ms' | 'when the join starts' | 'when the first assignment begins';
const MOMENTS: Moment[] = ['immediately', 'after 5 ms', 'when the join starts', 'when the first assignment begins'];

function upper(input: string, output: string) {
  const builder = new StreamsBuilder();
  builder
    .stream<string, string>(input, { keySerde: Serdes.String(), valueSerde: Serdes.String() })
    .mapValues((v) => v.toUpperCase())
    .to(output, { keySerde: Serdes.String(), valueSerde: Serdes.String() });
  return builder.build();
}

/** The backend's cluster, calling `hooks` when the app's consumer starts joining and when its first task producer is made. */
function hooked(cluster: ClusterPort, hooks: { onJoin?: () => void; onFirstProducer?: () => void }): ClusterPort {
  return {
    kind: cluster.kind,
    admin: () => cluster.admin(),
    producer: (options) => {
      if (options.transactionalId) hooks.onFirstProducer?.();
      return cluster.producer(options);
    },
    consumer: (options) => {
      const consumer = cluster.consumer(options);
      const run: GroupConsumerPort['run'] = (handlers) => {
        const running = consumer.run(handlers);
        hooks.onJoin?.();
        return running;
      };
      return new Proxy(consumer, { get: (target, prop) => (prop === 'run' ? run : Reflect.get(target, prop, target) as unknown) });
    },
  };
}

for (const backend of await backends()) {
  const title = `close() while start() runs: ${backend.name}`;
  (backend.skipReason ? describe.skip : describe)(backend.skipReason ? `${title} [skipped: ${backend.skipReason}]` : title, () => {
    let ctx: BackendContext;
    const apps: KafkaStreams[] = [];
    const unhandled: unknown[] = [];
    const spy = (reason: unknown) => void unhandled.push(reason);

    beforeEach(async () => {
      ctx = await backend.create();
      unhandled.length = 0;
      process.on('unhandledRejection', spy);
    });
    afterEach(async () => {
      process.off('unhandledRejection', spy);
      await Promise.all(apps.splice(0).map((a) => a.close()));
      await ctx.close();
    });

    const config = (applicationId: string) => ({ applicationId, commitIntervalMs: 100, ...ctx.consumerTiming });

    /**
     * The group has no member now and for a while after: longer than a kafkajs restart (300 ms
     * after a crash) and a join (a few hundred ms on the test broker, which has no initial
     * rebalance delay), with room for a slow machine.
     */
    async function expectNoMemberFor(groupId: string): Promise<void> {
      const until = Date.now() + (backend.name === 'kafka' ? 3_000 : 500);
      do {
        expect((await ctx.admin.describeGroup!(groupId)).members).toEqual([]);
        await new Promise((r) => setTimeout(r, 250));
      } while (Date.now() < until);
    }

    for (const delayMs of [0, 1, 20, 200]) {
      it(`port: a consumer closed ${delayMs} ms into run() leaves the group for good; run() rejects or resolves, never hangs`, async () => {
        const topic = uniqueTopic(`cws-port-${backend.name}`);
        await ctx.admin.createTopic(topic, { partitions: PARTITIONS });
        const groupId = uniqueGroup(`cws-port-${backend.name}`);
        const consumer = ctx.cluster.consumer({ groupId, ...ctx.consumerTiming });
        await consumer.subscribe([topic]);
        const running = consumer.run({ onAssignment: async () => undefined, eachBatch: async () => undefined }).then(
          () => 'resolved',
          (e: unknown) => (e as Error).message,
        );
        if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
        await consumer.close();
        expect(await running).toMatch(/^resolved$|closed while joining the group/);
        await expectNoMemberFor(groupId);

        const owned = new Set<number>();
        const next = ctx.cluster.consumer({ groupId, ...ctx.consumerTiming });
        await next.subscribe([topic]);
        await next.run({ onAssignment: async ({ assigned }) => void assigned.forEach((tp) => owned.add(tp.partition)), eachBatch: async () => undefined });
        await waitFor(() => owned.size === PARTITIONS, { timeoutMs: ctx.patienceMs, message: 'the new member owns every partition' });
        expect((await ctx.admin.describeGroup!(groupId)).members).toHaveLength(1);
        await next.close();
        expect(unhandled).toEqual([]);
      });
    }

    for (const moment of MOMENTS) {
      it(`closed ${moment}: close resolves, start rejects cleanly, the group is left for good, a new instance gets every partition`, async () => {
        const input = uniqueTopic(`cws-in-${backend.name}`);
        const output = uniqueTopic(`cws-out-${backend.name}`);
        await ctx.admin.createTopic(input, { partitions: PARTITIONS });
        await ctx.admin.createTopic(output, { partitions: 1 });
        const applicationId = uniqueGroup(`cws-${backend.name}`);

        // 1. the first instance, closed at `moment`
        let closing: Promise<void> | undefined;
        const cluster = hooked(ctx.cluster, {
          onJoin: () => void (moment === 'when the join starts' && close()),
          onFirstProducer: () => void (moment === 'when the first assignment begins' && close()),
        });
        const app = new KafkaStreams(upper(input, output), { cluster, ...config(applicationId) });
        apps.push(app);
        const started = app.start();
        let startSettled = false;
        const startError = started.then(
          () => void (startSettled = true),
          (e: unknown) => {
            startSettled = true;
            return e;
          },
        );
        let wasStarting = false;
        const close = () => {
          wasStarting ||= closing === undefined && !startSettled;
          return (closing ??= app.close());
        };
        if (moment === 'immediately') close();
        if (moment === 'after 5 ms') setTimeout(close, 5);
        await waitFor(() => closing !== undefined, { timeoutMs: ctx.patienceMs, message: `close() called ${moment}` });
        await expect(closing).resolves.toBeUndefined();
        const error = await startError;
        // on the embedded cluster start() may be done within 5 ms: only a close during start() must reject it
        if (moment !== 'after 5 ms') expect(wasStarting).toBe(true);
        if (wasStarting) {
          expect(error).toBeInstanceOf(Error);
          expect((error as Error).message).toMatch(/closed while starting/);
        }
        expect(app.state).toBe('NOT_RUNNING');

        // 2. nothing rejoins (kafkajs would restart 300 ms after a crash, then join)
        await expectNoMemberFor(applicationId);
        expect(unhandled).toEqual([]);

        // 3. a new instance of the same application gets every partition and processes every record
        const producer = ctx.cluster.producer({});
        await producer.connect();
        for (let partition = 0; partition < PARTITIONS; partition++) {
          await producer.produce({ topic: input, partition, records: [{ key: Buffer.from(`k${partition}`), value: Buffer.from(`v${partition}`), headers: {}, timestamp: Date.now() }] });
        }
        await producer.close();
        const next = new KafkaStreams(upper(input, output), { cluster: ctx.cluster, ...config(applicationId) });
        apps.push(next);
        await next.start();
        await waitFor(async () => (await ctx.read(output)).length === PARTITIONS, { timeoutMs: ctx.patienceMs, message: 'every record processed by the new instance' });
        expect((await ctx.read(output)).map((r) => r.value?.toString()).sort()).toEqual(['V0', 'V1', 'V2', 'V3']);
        const after = await ctx.admin.describeGroup!(applicationId);
        expect(after.members).toHaveLength(1);
        expect(after.members[0]!.assignment.map((tp) => tp.partition).sort()).toEqual([0, 1, 2, 3]);
        expect(unhandled).toEqual([]);
      });
    }
  });
}
