import { afterEach, describe, expect, it } from 'vitest';
import type { ProcessorContext } from '../../../src/processors/processor.js';
import { Record } from '../../../src/processors/record.js';
import { Serdes } from '../../../src/serdes/serdes.js';
import { StreamsBuilder } from '../../../src/topology/streams-builder.js';
import { uniqueGroup, uniqueTopic, waitFor } from '../../helpers/index.js';
import { Closer, kv, produceN } from './fixtures.js';

const closer = new Closer();
afterEach(() => closer.closeAll());

describe('wall-clock punctuation and commit requests in the runtime', () => {
  it('punctuator outputs are written in the task transaction and committed; context.commit() commits early', async () => {
    const cluster = closer.cluster();
    const input = uniqueTopic('in');
    const output = uniqueTopic('out');
    await cluster.createTopic(input, { partitions: 1 });
    await cluster.createTopic(output, { partitions: 1 });
    const builder = new StreamsBuilder();
    builder
      .stream<string, string>(input, { keySerde: Serdes.String(), valueSerde: Serdes.String() })
      .process<string, string>(() => {
        let count = 0;
        let context: ProcessorContext<string, string>;
        return {
          init(ctx) {
            context = ctx;
            ctx.schedule(30, 'WALL_CLOCK_TIME', () => {
              if (count > 0) context.forward(new Record('count', String(count), Date.now(), {}));
              count = 0;
            });
          },
          process(record) {
            count++;
            if (record.value === 'v9') context.commit();
          },
        };
      })
      .to(output, { keySerde: Serdes.String(), valueSerde: Serdes.String() });
    const applicationId = uniqueGroup('app');
    const app = closer.app(builder.build(), { applicationId, cluster, commitIntervalMs: 60_000, transactionTimeoutMs: 120_000 });
    await app.start();
    await produceN(cluster, input, 10);
    // context.commit() committed the input offsets long before the 60 s interval.
    await waitFor(async () => (await cluster.committedOffsets(applicationId, input))[0] === 10);
    await waitFor(async () => (await cluster.readUncommitted(output)).length > 0, { message: 'punctuation output' });
    await app.close();
    const counts = kv(await cluster.readCommitted(output)).map((s) => Number(s.split('=')[1]));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(10);
    expect(app.metrics().commits).toBeGreaterThanOrEqual(2);
  });
});
