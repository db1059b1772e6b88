/**
 * Issue 29 item 5, on the embedded cluster and on real Kafka: a header whose
 * value is null (Kafka writes its length as -1) written by a producer is read
 * back as null by a sluice app's processor and carried, still null, to the
 * app's output (through a repartition topic on the way).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ProcessorContext } from '../../src/processors/processor.js';
import { KafkaStreams } from '../../src/runtime/kafka-streams.js';
import { Serdes } from '../../src/serdes/serdes.js';
import { StreamsBuilder } from '../../src/topology/streams-builder.js';
import { uniqueGroup, uniqueTopic, waitFor } from '../helpers/index.js';
import { backends, type BackendContext } from './backends.js';

const STR = { keySerde: Serdes.String(), valueSerde: Serdes.String() };

for (const backend of await backends()) {
  const title = `null header values contract: ${backend.name}`;
  (backend.skipReason ? describe.skip : describe)(backend.skipReason ? `${title} [skipped: ${backend.skipReason}]` : title, () => {
    let ctx: BackendContext;
    let app: KafkaStreams | undefined;
    beforeEach(async () => {
      ctx = await backend.create();
    });
    afterEach(async () => {
      await app?.close();
      app = undefined;
      await ctx.close();
    });

    it('a null header value written by a producer is read as null by a processor and carried to the output', async () => {
      const input = uniqueTopic(`nullhdr-in-${backend.name}`);
      const output = uniqueTopic(`nullhdr-out-${backend.name}`);
      for (const name of [input, output]) await ctx.admin.createTopic(name, { partitions: 1, config: {} });
      const producer = ctx.cluster.producer({});
      await producer.connect();
      try {
        await producer.produce({
          topic: input,
          partition: 0,
          records: [{ key: Buffer.from('k'), value: Buffer.from('v'), headers: { foo: Buffer.from('value'), bar: null }, timestamp: Date.now() }],
        });
      } finally {
        await producer.close();
      }

      const seen: Array<[string, unknown]> = [];
      const builder = new StreamsBuilder();
      builder
        .stream<string, string>(input, STR)
        .process<string, string>(() => {
          let pc: ProcessorContext<string, string>;
          return {
            init: (c: ProcessorContext<string, string>) => void (pc = c),
            process(record) {
              seen.push(['bar' in record.headers ? 'present' : 'absent', record.headers.bar]);
              pc.forward(record);
            },
          };
        })
        .repartition({ name: 'nullhdr', ...STR })
        .to(output, STR);
      const applicationId = uniqueGroup(`nullhdr-${backend.name}`);
      app = new KafkaStreams(builder.build(), { cluster: await ctx.appCluster({ applicationId, inputTopics: [input], outputTopics: [output] }), ...ctx.consumerTiming, applicationId, commitIntervalMs: 100 });
      await app.start();

      const records = await waitFor(
        async () => {
          const read = await ctx.read(output);
          return read.length > 0 ? read : undefined;
        },
        { timeoutMs: ctx.patienceMs, intervalMs: 50, message: 'the output record' },
      );
      expect(seen).toEqual([['present', null]]);
      expect(records).toHaveLength(1);
      expect(records[0]?.value?.toString()).toBe('v');
      expect(records[0]?.headers).toEqual({ foo: Buffer.from('value'), bar: null });
    });
  });
}
