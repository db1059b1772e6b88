/**
 * Issue 12 item 5 (exit codes tell the truth): a task that fails while the
 * app is closing is recorded in `app.error` (the app still ends NOT_RUNNING),
 * so the CLI can exit non-zero instead of 0 after "task failed".
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { KafkaStreams } from '../../../src/runtime/kafka-streams.js';
import { Serdes } from '../../../src/serdes/serdes.js';
import { StreamsBuilder } from '../../../src/topology/streams-builder.js';
import { uniqueGroup, uniqueTopic, waitFor } from '../../helpers/index.js';
import { Closer, produceN } from './fixtures.js';

const closer = new Closer();
afterEach(() => closer.closeAll());

describe('a task failure during close()', () => {
  it('is kept as app.error although the app ends in NOT_RUNNING', async () => {
    const cluster = closer.cluster();
    const input = uniqueTopic('in');
    const output = uniqueTopic('out');
    await cluster.createTopic(input, { partitions: 1 });
    await cluster.createTopic(output, { partitions: 1 });
    const holder: { app?: KafkaStreams } = {};
    let closing: Promise<void> | undefined;
    const builder = new StreamsBuilder();
    builder
      .stream<string, string>(input, { keySerde: Serdes.String(), valueSerde: Serdes.String() })
      .mapValues((v) => {
        if (v === 'v5') closing = holder.app!.close(); // SIGTERM arrives while this batch is being processed
        if (v === 'v6') throw new Error('processor failed during close');
        return v;
      })
      .to(output, { keySerde: Serdes.String(), valueSerde: Serdes.String() });
    const app = (holder.app = closer.app(builder.build(), { applicationId: uniqueGroup('app'), cluster }));
    await app.start();
    await produceN(cluster, input, 10);
    await waitFor(() => closing !== undefined);
    await closing;
    expect(app.state).toBe('NOT_RUNNING');
    expect(app.error?.message).toMatch(/processor failed during close/);
  });
});
