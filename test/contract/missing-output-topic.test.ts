/**
 * Issue 12 item 5: a missing sink or dead-letter topic is refused by
 * `start()` with one error naming every missing topic (it used to leave the
 * app RUNNING with no commit for the 120 s delivery timeout). Same cases on
 * the embedded cluster and on real Kafka.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StreamsError } from '../../src/errors.js';
import { deadLetterQueueHandler } from '../../src/handlers/dead-letter-queue.js';
import { KafkaStreams } from '../../src/runtime/kafka-streams.js';
import type { KafkaStreamsConfig } from '../../src/runtime/config.js';
import { Serdes } from '../../src/serdes/serdes.js';
import { StreamsBuilder } from '../../src/topology/streams-builder.js';
import { uniqueGroup, uniqueTopic } from '../helpers/index.js';
import { backends, type BackendContext } from './backends.js';

function upper(input: string, outputs: string[]) {
  const builder = new StreamsBuilder();
  const s = builder.stream<string, string>(input, { keySerde: Serdes.String(), valueSerde: Serdes.String() }).mapValues((v) => v.toUpperCase());
  for (const output of outputs) s.to(output, { keySerde: Serdes.String(), valueSerde: Serdes.String() });
  return builder.build();
}

for (const backend of await backends()) {
  const title = `missing output topics: ${backend.name}`;
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

    async function topic(prefix: string): Promise<string> {
      const name = uniqueTopic(prefix);
      await ctx.admin.createTopic(name, { partitions: 2 });
      return name;
    }

    function app(input: string, outputs: string[], extra: Partial<KafkaStreamsConfig> = {}): KafkaStreams {
      const a = new KafkaStreams(upper(input, outputs), {
        applicationId: uniqueGroup('missing-out'),
        cluster: ctx.cluster,
        ...ctx.consumerTiming,
        ...extra,
      });
      apps.push(a);
      return a;
    }

    it('start() rejects a missing sink topic and a missing dead-letter topic in one error naming both; the app ends in ERROR', { timeout: 60_000 }, async () => {
      const input = await topic('mo-in');
      const output = await topic('mo-out');
      const typo = uniqueTopic('mo-typo');
      const dlqTypo = uniqueTopic('mo-dlq-typo');
      const dlq = deadLetterQueueHandler({ topic: dlqTypo });
      const a = app(input, [output, typo], { productionExceptionHandler: dlq, deserializationExceptionHandler: dlq });
      const started = Date.now();
      const error = await a.start().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(StreamsError);
      const err = error as StreamsError;
      expect(err.code).toBe('MISSING_OUTPUT_TOPIC');
      expect(err.message).toContain(`'${typo}' (sink of sub-topology 0)`);
      expect(err.message).toContain(`'${dlqTypo}' (dead-letter topic of productionExceptionHandler, dead-letter topic of deserializationExceptionHandler)`);
      expect(err.message).toMatch(/do not exist; create them before starting the app/);
      expect(err.message).not.toContain(`'${output}'`);
      expect(Date.now() - started).toBeLessThan(20_000);
      expect(a.state).toBe('ERROR');
    });

    it('starts when every sink and dead-letter topic exists', { timeout: 60_000 }, async () => {
      const input = await topic('mo-in');
      const output = await topic('mo-out');
      const dlqTopic = await topic('mo-dlq');
      const a = app(input, [output], { productionExceptionHandler: deadLetterQueueHandler({ topic: dlqTopic }) });
      await a.start();
      expect(a.state).toBe('RUNNING');
    });
  });
}
