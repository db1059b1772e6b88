/**
 * Issue 12 (minor items) and issue 13 item 3 on the embedded cluster:
 * - a failing dead-letter write of the deserialization handler is reported as
 *   that handler's, not as "productionExceptionHandler answered FAIL";
 * - a fenced task logs the expected fencing once, at WARN, saying the task
 *   moved to another instance (not once per record at ERROR);
 * - a write with an unknown outcome (NOT_ENOUGH_REPLICAS_AFTER_APPEND after
 *   the append) is retried, never reported as dropped, and committed once.
 */
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { KafkaErrorCode } from '../../../src/errors.js';
import { Serdes } from '../../../src/serdes/serdes.js';
import { StreamsBuilder } from '../../../src/topology/streams-builder.js';
import { uniqueGroup, uniqueTopic, waitFor } from '../../helpers/index.js';
import { Closer, kv, produceN, upperTopology } from './fixtures.js';

const closer = new Closer();
afterEach(() => closer.closeAll());

/** A pino logger at debug level whose lines are kept as objects. */
function capturingLogger(): { logger: pino.Logger; lines: Array<{ level: number; msg: string; err?: { message?: string } }> } {
  const lines: Array<{ level: number; msg: string; err?: { message?: string } }> = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: pino({ level: 'debug' }, stream), lines };
}

describe('failure reports', () => {
  it("a dead-letter record of the deserialization handler that cannot be written is reported as that handler's", async () => {
    const cluster = closer.cluster();
    const input = uniqueTopic('in');
    const output = uniqueTopic('out');
    const dlq = uniqueTopic('dlq');
    await cluster.createTopic(input, { partitions: 1 });
    await cluster.createTopic(output, { partitions: 1 });
    await cluster.createTopic(dlq, { partitions: 1, config: { 'cleanup.policy': 'compact' } }); // a keyless dead letter is refused
    await cluster.produce(input, [{ key: 'k', value: 'not json {' }]);
    const builder = new StreamsBuilder();
    builder.stream(input, { keySerde: Serdes.String(), valueSerde: Serdes.Json<unknown>() }).to(output, { keySerde: Serdes.String(), valueSerde: Serdes.Json<unknown>() });
    const app = closer.app(builder.build(), {
      applicationId: uniqueGroup('app'),
      cluster,
      deserializationExceptionHandler: { handle: (_c, record) => ({ response: 'CONTINUE', deadLetterRecords: [{ topic: dlq, key: null, value: record.value }] }) },
    });
    await app.start();
    await waitFor(() => app.state === 'ERROR', { message: 'app in ERROR' });
    const error = app.error as Error & { code?: string };
    expect(error.code).toBe('DEAD_LETTER_FAILED');
    expect(error.message).toContain('deserializationExceptionHandler');
    expect(error.message).not.toContain('productionExceptionHandler answered FAIL');
    expect(await cluster.readCommitted(output)).toEqual([]);
  });

  it('a fenced task logs the fencing once per task at WARN, saying it moved to another instance', async () => {
    const cluster = closer.cluster();
    const input = uniqueTopic('in');
    const output = uniqueTopic('out');
    await cluster.createTopic(input, { partitions: 1 });
    await cluster.createTopic(output, { partitions: 1 });
    const applicationId = uniqueGroup('app');
    const { logger, lines } = capturingLogger();
    const app = closer.app(upperTopology(input, output), { applicationId, cluster, commitIntervalMs: 200, logger });
    await app.start();
    await produceN(cluster, input, 50);
    await waitFor(async () => (await cluster.readUncommitted(output)).length >= 50);
    cluster.fenceTransactionalId(`${applicationId}-0_0`);
    await produceN(cluster, input, 200, 50);
    await waitFor(() => app.metrics().taskRestarts >= 1, { message: 'task re-acquired' });
    await waitFor(async () => (await cluster.committedOffsets(applicationId, input))[0] === 250, { message: 'all committed' });
    const loud = lines.filter((l) => l.level >= 40 && /fenc|PRODUCER_FENCED|INVALID_PRODUCER_EPOCH/i.test(`${l.msg} ${l.err?.message ?? ''}`));
    expect(loud.map((l) => l.msg)).toHaveLength(1);
    expect(loud[0]!.level).toBe(40);
    expect(loud[0]!.msg).toMatch(/moved to another instance/);
    expect(new Set(kv(await cluster.readCommitted(output))).size).toBe(250);
  });

  it('NOT_ENOUGH_REPLICAS_AFTER_APPEND (written, then answered with an error) is retried, not dropped, and committed exactly once', async () => {
    const cluster = closer.cluster();
    const input = uniqueTopic('in');
    const output = uniqueTopic('out');
    await cluster.createTopic(input, { partitions: 1 });
    await cluster.createTopic(output, { partitions: 1 });
    const applicationId = uniqueGroup('app');
    const asked: Error[] = [];
    const app = closer.app(upperTopology(input, output), {
      applicationId,
      cluster,
      productionExceptionHandler: { handle: (_c, _r, error) => (asked.push(error), 'CONTINUE') },
    });
    await app.start();
    cluster.failProduce({ topic: output, code: KafkaErrorCode.NOT_ENOUGH_REPLICAS_AFTER_APPEND, count: 3, afterAppend: true });
    await produceN(cluster, input, 20);
    await waitFor(async () => (await cluster.committedOffsets(applicationId, input))[0] === 20, { timeoutMs: 10_000 });
    const out = kv(await cluster.readCommitted(output));
    expect(out).toEqual(Array.from({ length: 20 }, (_, i) => `k${i}=V${i}`));
    expect(asked).toEqual([]);
    expect(app.metrics().droppedRecords).toBe(0);
  });
});
