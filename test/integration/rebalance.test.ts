/**
 * REBALANCE (real Kafka): two app instances over 8 input partitions and
 * 100,000 records; the second joins mid-run, later the first leaves. Every
 * output appears exactly once in read_committed and the DESIGN.md §6
 * invariant holds mid-run and at the end. The same app then runs unchanged on
 * the embedded cluster.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { AdminPort, ClusterPort } from '../../src/cluster/port.js';
import { createKafkaCluster } from '../../src/cluster/kafkajs/index.js';
import { EmbeddedKafkaCluster } from '../../src/cluster/embedded/embedded-cluster.js';
import { KafkaStreams } from '../../src/runtime/kafka-streams.js';
import { createTopic, describeKafka, uniqueGroup, uniqueTopic, waitFor } from '../helpers/index.js';
import { expectInvariant, invariantTopology, produceInputs, readCommittedByMarkers, readForInvariant } from './support.js';

const PARTITIONS = 8;
const apps: KafkaStreams[] = [];
const admins: AdminPort[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((a) => a.close()));
  await Promise.all(admins.splice(0).map((a) => a.close()));
});

/** The scenario, parametrised by where the app runs. */
function app(cluster: ClusterPort, applicationId: string, input: string, output: string): KafkaStreams {
  const streams = new KafkaStreams(invariantTopology(input, output), {
    applicationId,
    cluster,
    commitIntervalMs: 100,
    sessionTimeoutMs: 10_000,
    heartbeatIntervalMs: 500,
  });
  apps.push(streams);
  return streams;
}

const processed = (a: KafkaStreams) => a.metrics().recordsProcessed;

describeKafka('REBALANCE: two instances, one joins, one leaves (real Kafka)', (brokers) => {
  it('every one of 100,000 outputs is visible exactly once; output visible iff its input is committed', { timeout: 150_000 }, async () => {
    const total = 100_000;
    const input = await createTopic(brokers, uniqueTopic('rebalance-in'), { partitions: PARTITIONS });
    const output = await createTopic(brokers, uniqueTopic('rebalance-out'), { partitions: PARTITIONS });
    const applicationId = uniqueGroup('rebalance-app');
    const cluster = createKafkaCluster({ bootstrapServers: brokers });
    const admin = cluster.admin();
    admins.push(admin);
    await produceInputs(brokers, input, PARTITIONS, 0, 40_000);

    const a = app(cluster, applicationId, input, output);
    await a.start();
    await waitFor(() => processed(a) >= 10_000, { timeoutMs: 60_000, message: 'first instance processed 10k' });

    // The second instance joins mid-run while more input arrives.
    const b = app(cluster, applicationId, input, output);
    await b.start();
    // the next 30,000 inputs go in once b owns tasks, so b has records to process however fast a is
    await waitFor(() => Object.values(b.metrics().tasks).some((t) => t.owned), { timeoutMs: 60_000, message: 'second instance owns tasks' });
    await produceInputs(brokers, input, PARTITIONS, 40_000, 30_000);
    await waitFor(() => Object.values(b.metrics().tasks).some((t) => t.owned) && processed(b) > 0, {
      timeoutMs: 60_000,
      message: 'second instance owns tasks and processes',
    });
    await waitFor(() => Object.values(a.metrics().tasks).filter((t) => t.owned).length < PARTITIONS, {
      timeoutMs: 30_000,
      message: 'first instance gave tasks away',
    });

    // Mid-run invariant: committed offsets read before and after the outputs.
    const mid = await readForInvariant(() => readCommittedByMarkers(brokers, output), () => admin.committedOffsets(applicationId, input), PARTITIONS);
    expectInvariant(mid.outputs, PARTITIONS, mid.before, mid.after);

    // The first instance leaves while the last 30,000 inputs arrive; the second takes everything over.
    await Promise.all([a.close(), produceInputs(brokers, input, PARTITIONS, 70_000, 30_000)]);
    expect(a.state).toBe('NOT_RUNNING');
    await waitFor(async () => (await admin.committedOffsets(applicationId, input)).every((c) => c === total / PARTITIONS), {
      timeoutMs: 90_000,
      intervalMs: 500,
      message: 'all 100,000 inputs committed',
    });
    await waitFor(() => Object.values(b.metrics().tasks).filter((t) => t.owned).length === PARTITIONS, {
      timeoutMs: 30_000,
      message: 'second instance owns all 8 tasks',
    });
    await b.close();

    expect(await admin.endOffsets(input)).toEqual(Array(PARTITIONS).fill(total / PARTITIONS));
    const committed = await admin.committedOffsets(applicationId, input);
    const outputs = await readCommittedByMarkers(brokers, output);
    expect(outputs).toHaveLength(total);
    expectInvariant(outputs, PARTITIONS, committed, committed);
    expect(a.metrics().recordsProcessed + b.metrics().recordsProcessed).toBeGreaterThanOrEqual(total);
  });
});

describe('REBALANCE: the same app on the embedded cluster', () => {
  it('one joins, one leaves: exactly once', async () => {
    const total = 8_000;
    const cluster = new EmbeddedKafkaCluster();
    try {
      const input = uniqueTopic('rebalance-in');
      const output = uniqueTopic('rebalance-out');
      await cluster.createTopic(input, { partitions: PARTITIONS });
      await cluster.createTopic(output, { partitions: PARTITIONS });
      const applicationId = uniqueGroup('rebalance-app');
      const produce = (from: number, count: number) =>
        cluster.produce(input, Array.from({ length: count }, (_, j) => ({ key: `k${from + j}`, value: String(from + j), partition: (from + j) % PARTITIONS })));
      await produce(0, total / 2);
      const a = app(cluster, applicationId, input, output);
      await a.start();
      await waitFor(() => processed(a) >= 500);
      const b = app(cluster, applicationId, input, output);
      await b.start();
      // the second half goes in once b owns tasks, so b has records to process however fast a is
      await waitFor(() => Object.values(b.metrics().tasks).some((t) => t.owned), { timeoutMs: 30_000 });
      await produce(total / 2, total / 2);
      await waitFor(() => processed(b) > 0, { timeoutMs: 30_000 });
      await a.close();
      await waitFor(async () => (await cluster.committedOffsets(applicationId, input)).every((c) => c === total / PARTITIONS));
      await b.close();
      const committed = await cluster.committedOffsets(applicationId, input);
      const outputs = await cluster.readCommitted(output);
      expect(outputs).toHaveLength(total);
      expectInvariant(outputs, PARTITIONS, committed, committed);
    } finally {
      await Promise.all(apps.splice(0).map((x) => x.close()));
      await cluster.close();
    }
  });
});
