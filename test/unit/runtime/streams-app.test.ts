import { afterEach, describe, expect, it } from 'vitest';
import { uniqueGroup, uniqueTopic, waitFor } from '../../helpers/index.js';
import { Closer, kv, produceN, recordStates, upperTopology } from './fixtures.js';

const closer = new Closer();
afterEach(() => closer.closeAll());

describe('KafkaStreams on the embedded cluster', () => {
  it('processes every record exactly once, commits offsets with the outputs and closes cleanly', async () => {
    const cluster = closer.cluster();
    const input = uniqueTopic('in');
    const output = uniqueTopic('out');
    await cluster.createTopic(input, { partitions: 3 });
    await cluster.createTopic(output, { partitions: 3 });
    await produceN(cluster, input, 60);
    const applicationId = uniqueGroup('app');
    const app = closer.app(upperTopology(input, output), { applicationId, cluster });
    const states = recordStates(app);
    await app.start();
    expect(app.state).toBe('RUNNING');
    const out = await waitFor(async () => {
      const records = await cluster.readCommitted(output);
      return records.length >= 60 && records;
    });
    await produceN(cluster, input, 40, 60);
    await waitFor(async () => (await cluster.readCommitted(output)).length >= 100);
    await waitFor(async () => {
      const [committed, end] = [await cluster.committedOffsets(applicationId, input), await cluster.endOffsets(input)];
      return committed.every((c, i) => c === end[i]);
    });
    await app.close();
    expect(app.state).toBe('NOT_RUNNING');
    await app.close(); // idempotent
    const all = kv(await cluster.readCommitted(output)).sort();
    expect(all).toHaveLength(100);
    expect(new Set(all).size).toBe(100);
    expect(all).toContain('k7=V7');
    expect(kv(out)).toContain(kv(out)[0]);
    const metrics = app.metrics();
    expect(metrics.recordsProcessed).toBe(100);
    expect(metrics.recordsProduced).toBe(100);
    expect(metrics.droppedRecords).toBe(0);
    expect(metrics.commits).toBeGreaterThan(0);
    expect(Object.keys(metrics.tasks).sort()).toEqual(['0_0', '0_1', '0_2']);
    expect(states).toEqual(['CREATED', 'REBALANCING', 'RUNNING', 'PENDING_SHUTDOWN', 'NOT_RUNNING']);
  });
});
