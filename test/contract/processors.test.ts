/**
 * Issue 12, on the embedded cluster and on real Kafka:
 * - item 1: an async processor is awaited in order; a rejection goes to the
 *   processing handler (CONTINUE skips only that record, FAIL aborts and stops
 *   the app in ERROR with nothing of the transaction visible); a late
 *   forward() throws an IllegalStateError instead of losing its output;
 * - minor: null-key records into count() are dropped and counted in
 *   `recordsSkipped`.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IllegalStateError, StreamsError } from '../../src/errors.js';
import type { ProcessingExceptionHandler } from '../../src/handlers/types.js';
import type { ProcessorContext } from '../../src/processors/processor.js';
import { KafkaStreams } from '../../src/runtime/kafka-streams.js';
import { Serdes } from '../../src/serdes/serdes.js';
import { StreamsBuilder } from '../../src/topology/streams-builder.js';
import { uniqueGroup, uniqueTopic, waitFor } from '../helpers/index.js';
import { backends, type BackendContext } from './backends.js';

const S = Serdes.String();
const STR = { keySerde: S, valueSerde: S };
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** in -> async enrich (await a timer, then forward; 'boom' rejects after forwarding nothing) -> out. */
function asyncTopology(input: string, output: string, order: string[], late: unknown[]) {
  const builder = new StreamsBuilder();
  builder
    .stream<string, string>(input, STR)
    .process(() => {
      let ctx: ProcessorContext<string, string>;
      let running = 0;
      return {
        init: (c: ProcessorContext<string, string>) => void (ctx = c),
        async process(r) {
          if (++running > 1) order.push('OVERLAP');
          await sleep(r.value === 'slow' ? 40 : 3);
          running--;
          if (r.value === 'boom') throw new Error('enrichment failed');
          if (r.value === 'late') {
            setTimeout(() => {
              try {
                ctx.forward(r.withValue('LATE'));
              } catch (error) {
                late.push(error);
              }
            }, 20); // fires once the processor is idle (the last record is long done)
            return;
          }
          order.push(r.value);
          ctx.forward(r.withValue(r.value.toUpperCase()));
        },
      };
    })
    .to(output, STR);
  return builder.build();
}

for (const backend of await backends()) {
  const title = `processors contract: ${backend.name}`;
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
    const eventually = <T>(f: () => T | Promise<T>, message: string) => waitFor(f, { timeoutMs: ctx.patienceMs, intervalMs: 50, message });

    async function topic(): Promise<string> {
      const name = uniqueTopic(`proc-${backend.name}`);
      await ctx.admin.createTopic(name, { partitions: 1, config: {} });
      return name;
    }

    async function produce(name: string, records: Array<{ key: string | null; value: string }>): Promise<void> {
      const producer = ctx.cluster.producer({});
      await producer.connect();
      try {
        await producer.produce({
          topic: name,
          partition: 0,
          records: records.map((r) => ({ key: r.key === null ? null : Buffer.from(r.key), value: Buffer.from(r.value), headers: {}, timestamp: Date.now() })),
        });
      } finally {
        await producer.close();
      }
    }

    async function runAsync(values: string[], processing?: ProcessingExceptionHandler) {
      const input = await topic();
      const output = await topic();
      await produce(input, values.map((value, i) => ({ key: `k${i}`, value })));
      const order: string[] = [];
      const late: unknown[] = [];
      const applicationId = uniqueGroup(`proc-${backend.name}`);
      const app = new KafkaStreams(asyncTopology(input, output, order, late), {
        cluster: ctx.cluster,
        ...ctx.consumerTiming,
        applicationId,
        commitIntervalMs: 100,
        ...(processing ? { processingExceptionHandler: processing } : {}),
      });
      apps.push(app);
      await app.start();
      const committed = () => ctx.admin.committedOffsets(applicationId, input);
      return { app, input, output, order, late, applicationId, committed };
    }

    it('an async processor is awaited in order: every output exactly once, in input order, offsets committed', async () => {
      const values = ['slow', 'a', 'slow', 'b', 'c'];
      const r = await runAsync(values);
      await eventually(async () => (await r.committed())[0] === values.length, 'all input offsets committed');
      expect((await ctx.read(r.output)).map((o) => o.value?.toString())).toEqual(['SLOW', 'A', 'SLOW', 'B', 'C']);
      expect(r.order).toEqual(values); // never two records at once
      expect(r.app.state).toBe('RUNNING');
      expect(r.app.metrics()).toMatchObject({ recordsProcessed: 5, recordsSkipped: 0, recordsProduced: 5 });
    });

    it('a rejection with CONTINUE skips only that record (handler asked, counted); the rest commits', async () => {
      const seen: string[] = [];
      const r = await runAsync(['a', 'boom', 'b'], { handle: (c, rec, e) => (seen.push(`${c.processorNodeId}:${String(rec.value)}:${e.message}@${c.offset}`), 'CONTINUE') });
      await eventually(async () => (await r.committed())[0] === 3, 'all input offsets committed');
      expect((await ctx.read(r.output)).map((o) => o.value?.toString())).toEqual(['A', 'B']);
      expect(seen).toEqual([expect.stringMatching(/^KSTREAM-PROCESSOR-\d+:boom:enrichment failed@1$/)]);
      expect(r.app.metrics()).toMatchObject({ recordsProcessed: 3, recordsSkipped: 1 });
      expect(r.app.state).toBe('RUNNING');
    });

    it('a rejection with FAIL (default) aborts: the app ends in ERROR with it as the cause; nothing of the transaction is visible or committed', async () => {
      const r = await runAsync(['a', 'boom', 'b']);
      await eventually(() => r.app.state === 'ERROR', 'app in ERROR');
      const error = r.app.error as StreamsError & { cause?: unknown };
      expect(error).toBeInstanceOf(StreamsError);
      expect(String(error.message)).toMatch(/enrichment failed/);
      expect(await ctx.read(r.output)).toEqual([]);
      expect((await r.committed())[0]).toBeLessThanOrEqual(1); // never past the failed record
    });

    it('forward() after process() returned throws an IllegalStateError naming the processor; the worker keeps running', async () => {
      const r = await runAsync(['a', 'late']);
      await eventually(async () => (await r.committed())[0] === 2, 'all input offsets committed');
      await eventually(() => r.late.length === 1, 'the late forward failed');
      expect(r.late[0]).toBeInstanceOf(IllegalStateError);
      expect((r.late[0] as Error).message).toMatch(/Processor 'KSTREAM-PROCESSOR-\d+' of task 0_0 called forward\(\) while it is not processing/);
      expect((await ctx.read(r.output)).map((o) => o.value?.toString())).toEqual(['A']);
      expect(r.app.state).toBe('RUNNING');
    });

    it('null-key records into count() are dropped and counted in recordsSkipped', async () => {
      const input = await topic();
      const output = await topic();
      await produce(input, [
        { key: 'a', value: '1' },
        { key: null, value: '2' },
        { key: 'a', value: '3' },
      ]);
      const builder = new StreamsBuilder();
      builder
        .stream<string, string>(input, STR)
        .groupByKey()
        .count()
        .toStream()
        .to(output, { keySerde: S, valueSerde: Serdes.Json<number>() });
      const applicationId = uniqueGroup(`proc-${backend.name}`);
      const app = new KafkaStreams(builder.build(), { cluster: ctx.cluster, ...ctx.consumerTiming, applicationId, commitIntervalMs: 100, statestoreCacheMaxBytes: 0 });
      apps.push(app);
      await app.start();
      await eventually(async () => (await ctx.admin.committedOffsets(applicationId, input))[0] === 3, 'all input offsets committed');
      expect((await ctx.read(output)).map((o) => `${o.key?.toString()}=${o.value?.toString()}`)).toEqual(['a=1', 'a=2']);
      expect(app.metrics()).toMatchObject({ recordsProcessed: 3, recordsSkipped: 1 });
    });
  });
}
