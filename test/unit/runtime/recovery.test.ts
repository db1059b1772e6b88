import { afterEach, describe, expect, it } from 'vitest';
import { Serdes } from '../../../src/serdes/serdes.js';
import { StreamsBuilder } from '../../../src/topology/streams-builder.js';
import { uniqueGroup, uniqueTopic, waitFor } from '../../helpers/index.js';
import { Closer, kv, produceN, recordStates, upperTopology } from './fixtures.js';

const closer = new Closer();
afterEach(() => closer.closeAll());

async function topics(partitions: number) {
  const cluster = closer.cluster();
  const input = uniqueTopic('in');
  const output = uniqueTopic('out');
  await cluster.createTopic(input, { partitions });
  await cluster.createTopic(output, { partitions });
  return { cluster, input, output, applicationId: uniqueGroup('app') };
}

async function allCommitted(cluster: Awaited<ReturnType<typeof topics>>['cluster'], applicationId: string, input: string) {
  const [committed, end] = [await cluster.committedOffsets(applicationId, input), await cluster.endOffsets(input)];
  return committed.every((c, i) => c === end[i]);
}

describe('commit interval', () => {
  it('outputs stay invisible to read_committed until the task commits (long interval: at close)', async () => {
    const { cluster, input, output, applicationId } = await topics(1);
    await produceN(cluster, input, 10);
    const app = closer.app(upperTopology(input, output), { applicationId, cluster, commitIntervalMs: 60_000, transactionTimeoutMs: 120_000 });
    await app.start();
    await waitFor(async () => (await cluster.readUncommitted(output)).length === 10);
    expect(await cluster.readCommitted(output)).toEqual([]);
    expect((await cluster.committedOffsets(applicationId, input))[0]).toBe(-1);
    expect(app.metrics().commits).toBe(0);
    await app.close();
    expect(await cluster.readCommitted(output)).toHaveLength(10);
    expect((await cluster.committedOffsets(applicationId, input))[0]).toBe(10);
    expect(app.metrics().commits).toBe(1);
  });

  it('commits about every commitIntervalMs while records flow', async () => {
    const { cluster, input, output, applicationId } = await topics(1);
    const app = closer.app(upperTopology(input, output), { applicationId, cluster, commitIntervalMs: 50 });
    await app.start();
    for (let i = 0; i < 5; i++) {
      await produceN(cluster, input, 2, i * 2);
      await new Promise((r) => setTimeout(r, 80));
    }
    await waitFor(() => allCommitted(cluster, applicationId, input));
    expect(app.metrics().commits).toBeGreaterThanOrEqual(3);
    expect(await cluster.readCommitted(output)).toHaveLength(10);
  });
});

describe('at_least_once', () => {
  it('commits input offsets with commitOffsets after the outputs are acknowledged', async () => {
    const { cluster, input, output, applicationId } = await topics(2);
    await produceN(cluster, input, 30);
    const app = closer.app(upperTopology(input, output), { applicationId, cluster, processingGuarantee: 'at_least_once', commitIntervalMs: 50 });
    await app.start();
    await waitFor(() => allCommitted(cluster, applicationId, input));
    const out = kv(await cluster.readCommitted(output));
    expect(new Set(out).size).toBe(30);
    expect(app.metrics().commits).toBeGreaterThan(0);
  });
});

describe('fencing and restarts', () => {
  it('a fenced task is closed dirty, re-acquired, and output stays exactly once', async () => {
    const { cluster, input, output, applicationId } = await topics(2);
    const app = closer.app(upperTopology(input, output), { applicationId, cluster, commitIntervalMs: 30 });
    await app.start();
    await produceN(cluster, input, 50);
    await waitFor(async () => (await cluster.readUncommitted(output)).length > 0);
    cluster.fenceTransactionalId(`${applicationId}-0_0`);
    cluster.fenceTransactionalId(`${applicationId}-0_1`);
    await produceN(cluster, input, 50, 50);
    await waitFor(() => allCommitted(cluster, applicationId, input));
    await waitFor(async () => (await cluster.readCommitted(output)).length >= 100);
    const out = kv(await cluster.readCommitted(output));
    expect(out).toHaveLength(100);
    expect(new Set(out).size).toBe(100);
    expect(app.state).toBe('RUNNING');
    expect(app.metrics().taskRestarts).toBeGreaterThanOrEqual(1);
  });

  it('RESTART_TASK: a failing task is aborted, rewound and re-created; the app keeps RUNNING; exactly once', async () => {
    const { cluster, input, output, applicationId } = await topics(1);
    let failures = 0;
    const builder = new StreamsBuilder();
    builder
      .stream<string, string>(input, { keySerde: Serdes.String(), valueSerde: Serdes.String() })
      .mapValues((v) => {
        if (v === 'v13' && failures++ < 2) throw new Error('transient');
        return v.toUpperCase();
      })
      .to(output, { keySerde: Serdes.String(), valueSerde: Serdes.String() });
    const app = closer.app(builder.build(), {
      applicationId,
      cluster,
      uncaughtExceptionPolicy: 'RESTART_TASK',
      taskRestartBackoffMs: 20,
      commitIntervalMs: 20,
    });
    await app.start();
    for (let i = 0; i < 4; i++) await produceN(cluster, input, 5, i * 5);
    await waitFor(() => allCommitted(cluster, applicationId, input));
    const out = kv(await cluster.readCommitted(output));
    expect(out).toEqual(Array.from({ length: 20 }, (_, i) => `k${i}=V${i}`));
    expect(failures).toBe(3);
    expect(app.state).toBe('RUNNING');
    const metrics = app.metrics();
    expect(metrics.taskRestarts).toBe(2);
    expect(metrics.aborts).toBeGreaterThanOrEqual(1);
  });
});

describe('rebalancing on the embedded cluster', () => {
  it('a second instance joins and later leaves; every output appears exactly once', async () => {
    const { cluster, input, output, applicationId } = await topics(4);
    const topology = () => upperTopology(input, output);
    const a = closer.app(topology(), { applicationId, cluster, commitIntervalMs: 20 });
    const statesOfA = recordStates(a);
    await a.start();
    await produceN(cluster, input, 200);
    const b = closer.app(topology(), { applicationId, cluster, commitIntervalMs: 20 });
    await b.start();
    await produceN(cluster, input, 200, 200);
    await waitFor(() => Object.values(b.metrics().tasks).some((t) => t.owned), { message: 'b owns a task' });
    await waitFor(() => allCommitted(cluster, applicationId, input));
    await a.close();
    await produceN(cluster, input, 200, 400);
    await waitFor(() => allCommitted(cluster, applicationId, input));
    expect(Object.values(b.metrics().tasks).filter((t) => t.owned)).toHaveLength(4);
    const out = kv(await cluster.readCommitted(output));
    expect(out).toHaveLength(600);
    expect(new Set(out).size).toBe(600);
    expect(a.metrics().recordsProcessed + b.metrics().recordsProcessed).toBeGreaterThanOrEqual(600);
    expect(statesOfA).toEqual(['CREATED', 'REBALANCING', 'RUNNING', 'REBALANCING', 'RUNNING', 'PENDING_SHUTDOWN', 'NOT_RUNNING']);
    expect(b.metrics().consumerLag).toBe(0);
    expect(b.metrics().rebalances).toBeGreaterThanOrEqual(2);
  });

  it('a member whose session expired rejoins; nothing is duplicated', async () => {
    const { cluster, input, output, applicationId } = await topics(2);
    const app = closer.app(upperTopology(input, output), { applicationId, cluster, commitIntervalMs: 20, heartbeatIntervalMs: 50 });
    await app.start();
    await produceN(cluster, input, 100);
    cluster.expireGroupMember(applicationId);
    await produceN(cluster, input, 100, 100);
    await waitFor(() => allCommitted(cluster, applicationId, input));
    const out = kv(await cluster.readCommitted(output));
    expect(new Set(out).size).toBe(200);
    expect(out).toHaveLength(200);
  });
});

describe('zombie on the embedded cluster', () => {
  it('an expired member whose partitions moved cannot commit its open transaction; exactly once', async () => {
    const { cluster, input, output, applicationId } = await topics(2);
    const zombie = closer.app(upperTopology(input, output), { applicationId, cluster, commitIntervalMs: 60_000, transactionTimeoutMs: 120_000, heartbeatIntervalMs: 1_000 });
    await zombie.start();
    await produceN(cluster, input, 50);
    await waitFor(async () => (await cluster.readUncommitted(output)).length === 50, { message: 'zombie wrote in its open transaction' });
    const [member] = cluster.expireGroupMember(applicationId);
    expect(member).toBeDefined();
    const healthy = closer.app(upperTopology(input, output), { applicationId, cluster, commitIntervalMs: 20 });
    await healthy.start();
    await waitFor(() => allCommitted(cluster, applicationId, input), { message: 'healthy instance committed' });
    await waitFor(() => zombie.metrics().aborts >= 1, { message: 'zombie aborted its stale transactions' });
    expect(zombie.metrics().commits, 'the zombie committed nothing of its stale transaction').toBe(0);
    expect(kv(await cluster.readCommitted(output))).toHaveLength(50);
    // The zombie rejoined and may own a task again (with its 60 s commit interval); closing it commits that.
    await produceN(cluster, input, 50, 50);
    await zombie.close();
    await waitFor(() => allCommitted(cluster, applicationId, input), { message: 'everything committed' });
    await healthy.close();
    const out = kv(await cluster.readCommitted(output));
    expect(out).toHaveLength(100);
    expect(new Set(out).size).toBe(100);
  });
});

describe('backpressure', () => {
  it('processing waits while more than maxPendingOutputRecordsPerTask outputs are unacknowledged', async () => {
    const { cluster, input, output, applicationId } = await topics(1);
    cluster.setLatency({ produceMs: 2 });
    await produceN(cluster, input, 40);
    const app = closer.app(upperTopology(input, output), { applicationId, cluster, maxPendingOutputRecordsPerTask: 1 });
    let maxPending = 0;
    const timer = setInterval(() => (maxPending = Math.max(maxPending, app.metrics().tasks['0_0']?.pendingOutputs ?? 0)), 1);
    await app.start();
    await waitFor(() => allCommitted(cluster, applicationId, input));
    clearInterval(timer);
    cluster.clearFaults();
    expect(await cluster.readCommitted(output)).toHaveLength(40);
    expect(maxPending).toBeGreaterThan(0);
    expect(maxPending).toBeLessThanOrEqual(2); // the bound, plus the outputs of the record being processed
  });
});
