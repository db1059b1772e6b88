/**
 * An input topic deleted, or deleted and re-created, while the app runs
 * (issue 12 item 6), on both backends: the app stops in ERROR with an error
 * naming the topic (Kafka Streams' MissingSourceTopicException), instead of
 * running on with its new records never processed.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MISSING_SOURCE_TOPIC } from '../../src/cluster/port.js';
import { StreamsError } from '../../src/errors.js';
import { KafkaStreams } from '../../src/runtime/kafka-streams.js';
import { Serdes } from '../../src/serdes/serdes.js';
import { StreamsBuilder } from '../../src/topology/streams-builder.js';
import { uniqueGroup, uniqueTopic, waitFor } from '../helpers/index.js';
import { backends, type BackendContext } from './backends.js';

const PARTITIONS = 2;

function upper(input: string, output: string) {
  const builder = new StreamsBuilder();
  builder
    .stream<string, string>(input, { keySerde: Serdes.String(), valueSerde: Serdes.String() })
    .mapValues((v) => v.toUpperCase())
    .to(output, { keySerde: Serdes.String(), valueSerde: Serdes.String() });
  return builder.build();
}

for (const backend of await backends()) {
  const title = `source topic deleted while running: ${backend.name}`;
  (backend.skipReason ? describe.skip : describe)(backend.skipReason ? `${title} [skipped: ${backend.skipReason}]` : title, () => {
    let ctx: BackendContext;
    const apps: KafkaStreams[] = [];
    beforeEach(async () => {
      ctx = await backend.create();
    });
    afterEach(async () => {
      await Promise.all(apps.splice(0).map((a) => a.close()));
      await ctx.close();
    });

    async function produce(topic: string, values: string[]): Promise<void> {
      const producer = ctx.cluster.producer({});
      await producer.connect();
      for (const [i, value] of values.entries()) {
        await producer.produce({ topic, partition: i % PARTITIONS, records: [{ key: Buffer.from(`k${i}`), value: Buffer.from(value), headers: {}, timestamp: Date.now() }] });
      }
      await producer.close();
    }

    for (const recreate of [false, true]) {
      it(`${recreate ? 'deleted and re-created' : 'deleted'}: the app goes to ERROR with an error naming the topic`, async () => {
        const input = uniqueTopic(`del-in-${backend.name}`);
        const output = uniqueTopic(`del-out-${backend.name}`);
        await ctx.admin.createTopic(input, { partitions: PARTITIONS });
        await ctx.admin.createTopic(output, { partitions: 1 });
        const app = new KafkaStreams(upper(input, output), { cluster: ctx.cluster, applicationId: uniqueGroup('del'), commitIntervalMs: 100, ...ctx.consumerTiming });
        apps.push(app);
        await app.start();
        await produce(input, ['a', 'b', 'c', 'd', 'e', 'f']);
        await waitFor(async () => (await ctx.read(output)).length === 6, { timeoutMs: ctx.patienceMs, message: 'the first records processed' });

        await ctx.admin.deleteTopic(input);
        if (recreate) {
          await waitFor(
            () => ctx.admin.createTopic(input, { partitions: PARTITIONS }).then(() => true, () => false),
            { timeoutMs: ctx.patienceMs, message: 'input re-created' },
          );
          await produce(input, ['new-1', 'new-2']);
        }
        await waitFor(() => app.state === 'ERROR', { timeoutMs: ctx.patienceMs, message: `app in ERROR (state ${app.state})` });
        const error = app.error as StreamsError;
        expect(error.message).toContain(input);
        const causes: unknown[] = [];
        for (let e: unknown = error; e instanceof Error; e = e.cause) causes.push(e);
        expect(causes.some((e) => (e as StreamsError).code === MISSING_SOURCE_TOPIC)).toBe(true);
        expect(causes.find((e) => (e as StreamsError).code === MISSING_SOURCE_TOPIC) as Error).toHaveProperty('message', expect.stringContaining(`'${input}'`));
      });
    }
  });
}
