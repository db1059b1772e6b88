import { afterEach, describe, expect, it } from 'vitest';
import { RecordTooLargeError, SerializationError } from '../../../src/errors.js';
import type { ErrorHandlerContext, FailedOutputRecord, ProductionExceptionHandler } from '../../../src/handlers/types.js';
import { deadLetterQueueHandler } from '../../../src/handlers/dead-letter-queue.js';
import { Serdes } from '../../../src/serdes/serdes.js';
import { StreamsBuilder } from '../../../src/topology/streams-builder.js';
import { uniqueGroup, uniqueTopic, waitFor } from '../../helpers/index.js';
import { Closer, EmbeddedKafkaCluster, kv, upperTopology } from './fixtures.js';

const closer = new Closer();
afterEach(() => closer.closeAll());

const BIG = 'x'.repeat(600);

/** 20 records on one partition; keys in `bad` get a value over the output topic's max.message.bytes (300). */
async function setup(bad: number[]): Promise<{ cluster: EmbeddedKafkaCluster; input: string; output: string; applicationId: string }> {
  const cluster = closer.cluster();
  const input = uniqueTopic('in');
  const output = uniqueTopic('out');
  await cluster.createTopic(input, { partitions: 1 });
  await cluster.createTopic(output, { partitions: 1, config: { 'max.message.bytes': '300' } });
  await cluster.produce(
    input,
    Array.from({ length: 20 }, (_, i) => ({ key: `k${i}`, value: bad.includes(i) ? BIG : `v${i}`, partition: 0 })),
  );
  return { cluster, input, output, applicationId: uniqueGroup('app') };
}

describe('production exception handler mapping (exactly_once)', () => {
  it('CONTINUE drops only the failing records; the rest commits atomically with all input offsets', async () => {
    const { cluster, input, output, applicationId } = await setup([3, 11]);
    const seen: Array<{ context: ErrorHandlerContext; record: FailedOutputRecord; error: Error }> = [];
    const handler: ProductionExceptionHandler = {
      handle: (context, record, error) => {
        seen.push({ context, record, error });
        return 'CONTINUE';
      },
    };
    const app = closer.app(upperTopology(input, output), { applicationId, cluster, productionExceptionHandler: handler });
    await app.start();
    await waitFor(async () => (await cluster.committedOffsets(applicationId, input))[0] === 20);
    const out = kv(await cluster.readCommitted(output));
    expect(out).toHaveLength(18);
    expect(out).not.toContain(`k3=${BIG.toUpperCase()}`);
    expect(out).toContain('k4=V4');
    expect(app.state).toBe('RUNNING');
    const metrics = app.metrics();
    expect(metrics.droppedRecords).toBe(2);
    expect(metrics.tasks['0_0']!.droppedRecords).toBe(2);
    expect(metrics.recordsProduced).toBe(18);
    expect(metrics.aborts).toBe(0);
    expect(seen.map((s) => s.context.offset).sort((a, b) => a - b)).toEqual([3, 11]);
    expect(seen[0]!.error).toBeInstanceOf(RecordTooLargeError);
    expect(seen[0]!.context).toMatchObject({ topic: input, partition: 0, taskId: '0_0' });
    expect(seen[0]!.context.processorNodeId).toMatch(/SINK/);
    expect(seen[0]!.record.topic).toBe(output);
  });

  it('FAIL (the default) aborts the transaction: nothing of it is visible, offsets stay behind, the app ends in ERROR', async () => {
    const { cluster, input, output, applicationId } = await setup([5]);
    const app = closer.app(upperTopology(input, output), { applicationId, cluster, commitIntervalMs: 60_000, transactionTimeoutMs: 120_000 });
    await app.start();
    await waitFor(() => app.state === 'ERROR', { message: 'app in ERROR' });
    expect(app.error).toBeDefined();
    expect((app.error as Error & { cause?: unknown }).cause).toBeInstanceOf(RecordTooLargeError);
    expect(await cluster.readCommitted(output)).toEqual([]);
    expect((await cluster.readUncommitted(output)).length).toBeGreaterThan(0); // written, then aborted
    expect((await cluster.committedOffsets(applicationId, input))[0]).toBe(-1);
    expect(app.metrics().aborts).toBe(1);
  });

  it('a handler that throws stops the app in ERROR with the handler error as cause', async () => {
    const { cluster, input, output, applicationId } = await setup([2]);
    const boom = new Error('handler bug');
    const app = closer.app(upperTopology(input, output), {
      applicationId,
      cluster,
      uncaughtExceptionPolicy: 'RESTART_TASK',
      productionExceptionHandler: { handle: () => { throw boom; } },
    });
    await app.start();
    await waitFor(() => app.state === 'ERROR');
    expect((app.error as Error & { cause?: unknown }).cause).toBe(boom);
    expect(await cluster.readCommitted(output)).toEqual([]);
  });

  it('dead-letter records go to the DLQ topic in the same transaction', async () => {
    const { cluster, input, output, applicationId } = await setup([7]);
    const dlq = uniqueTopic('dlq');
    await cluster.createTopic(dlq, { partitions: 1 });
    const app = closer.app(upperTopology(input, output), {
      applicationId,
      cluster,
      productionExceptionHandler: deadLetterQueueHandler({ topic: dlq }),
    });
    await app.start();
    await waitFor(async () => (await cluster.committedOffsets(applicationId, input))[0] === 20);
    expect(await cluster.readCommitted(output)).toHaveLength(19);
    const dead = await cluster.readCommitted(dlq);
    expect(dead).toHaveLength(1);
    expect(dead[0]!.key?.toString()).toBe('k7');
    expect(app.metrics().droppedRecords).toBe(1);
  });

  it('an output serialization error goes to handleSerializationException with origin VALUE', async () => {
    const cluster = closer.cluster();
    const input = uniqueTopic('in');
    const output = uniqueTopic('out');
    await cluster.createTopic(input, { partitions: 1 });
    await cluster.createTopic(output, { partitions: 1 });
    await cluster.produce(input, ['a', 'bad', 'c'].map((value, i) => ({ key: `k${i}`, value })));
    const failing = Serdes.from<string>(
      (_topic, data) => {
        if (data === 'BAD') throw new Error('cannot serialize BAD');
        return data === null ? null : Buffer.from(data);
      },
      (_topic, data) => data!.toString(),
    );
    const origins: string[] = [];
    const applicationId = uniqueGroup('app');
    const app = closer.app(upperTopology(input, output, failing), {
      applicationId,
      cluster,
      productionExceptionHandler: {
        handle: () => 'FAIL',
        handleSerializationException: (_context, _record, error, origin) => {
          expect(error).toBeInstanceOf(SerializationError);
          origins.push(origin);
          return 'CONTINUE';
        },
      },
    });
    await app.start();
    await waitFor(async () => (await cluster.committedOffsets(applicationId, input))[0] === 3);
    expect(kv(await cluster.readCommitted(output))).toEqual(['k0=A', 'k2=C']);
    expect(origins).toEqual(['VALUE']);
    expect(app.metrics().tasks['0_0']!.droppedRecords).toBe(1);
  });
});

describe('deserialization and processing handlers through the task', () => {
  async function jsonApp(handlers: object) {
    const cluster = closer.cluster();
    const input = uniqueTopic('in');
    const output = uniqueTopic('out');
    await cluster.createTopic(input, { partitions: 1 });
    await cluster.createTopic(output, { partitions: 1 });
    await cluster.produce(input, ['{"n":1}', 'not json', '{"n":0}', '{"n":4}'].map((value, i) => ({ key: `k${i}`, value })));
    const builder = new StreamsBuilder();
    builder
      .stream<string, { n: number }>(input, { keySerde: Serdes.String(), valueSerde: Serdes.Json() })
      .mapValues((v) => {
        if (v.n === 0) throw new Error('division by zero');
        return String(12 / v.n);
      })
      .to(output, { keySerde: Serdes.String(), valueSerde: Serdes.String() });
    const applicationId = uniqueGroup('app');
    const app = closer.app(builder.build(), { applicationId, cluster, ...handlers });
    await app.start();
    return { app, cluster, input, output, applicationId };
  }

  it('CONTINUE skips the bad input records, counts them and commits past them', async () => {
    const { app, cluster, input, output, applicationId } = await jsonApp({
      deserializationExceptionHandler: { handle: () => 'CONTINUE' },
      processingExceptionHandler: { handle: () => 'CONTINUE' },
    });
    await waitFor(async () => (await cluster.committedOffsets(applicationId, input))[0] === 4);
    expect(kv(await cluster.readCommitted(output))).toEqual(['k0=12', 'k3=3']);
    expect(app.metrics()).toMatchObject({ recordsProcessed: 4, recordsSkipped: 2, droppedRecords: 0 });
  });

  it('FAIL from the deserialization handler (the default) aborts and stops the app in ERROR', async () => {
    const { app, cluster, input, output, applicationId } = await jsonApp({});
    await waitFor(() => app.state === 'ERROR');
    expect(app.error?.message).toMatch(/deserializ/i);
    expect(await cluster.readCommitted(output)).toEqual([]);
    expect((await cluster.committedOffsets(applicationId, input))[0]).toBe(-1);
  });
});
