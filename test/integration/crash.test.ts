/**
 * CRASH (real Kafka): a worker process is killed with SIGKILL mid-run (open
 * transactions, uncommitted offsets) and restarted; afterwards every output
 * is visible exactly once and the invariant holds.
 */
import { afterEach, expect, it } from 'vitest';
import type { AdminPort } from '../../src/cluster/port.js';
import { createKafkaCluster } from '../../src/cluster/kafkajs/index.js';
import { createTopic, describeKafka, readAll, uniqueGroup, uniqueTopic, waitFor } from '../helpers/index.js';
import { WorkerProcess } from './fixtures/worker-process.js';
import { expectInvariant, produceInputs, readCommittedByMarkers } from './support.js';

const PARTITIONS = 4;
const workers: WorkerProcess[] = [];
const admins: AdminPort[] = [];
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.stop()));
  await Promise.all(admins.splice(0).map((a) => a.close()));
});

describeKafka('CRASH: SIGKILL mid-run and restart (real Kafka)', (brokers) => {
  it('after a kill -9 and a restart every output is visible exactly once', { timeout: 120_000 }, async () => {
    const total = 20_000;
    const input = await createTopic(brokers, uniqueTopic('crash-in'), { partitions: PARTITIONS });
    const output = await createTopic(brokers, uniqueTopic('crash-out'), { partitions: PARTITIONS });
    const applicationId = uniqueGroup('crash-app');
    const admin = createKafkaCluster({ bootstrapServers: brokers }).admin();
    admins.push(admin);
    await produceInputs(brokers, input, PARTITIONS, 0, total / 2);

    const env = { brokers, applicationId, input, output, commitIntervalMs: 200, sessionTimeoutMs: 6_000 };
    const first = new WorkerProcess(env);
    workers.push(first);
    await waitFor(() => first.running, { timeoutMs: 45_000, message: `worker running (stderr: ${first.stderr.join('')})` });
    await waitFor(() => (first.metrics?.commits ?? 0) > 0 && (first.metrics?.recordsProcessed ?? 0) > 2_000, {
      timeoutMs: 45_000,
      message: 'worker committed some work',
    });
    const more = produceInputs(brokers, input, PARTITIONS, total / 2, total / 2);
    await waitFor(() => (first.metrics?.recordsProcessed ?? 0) > total / 2 + 500, { timeoutMs: 45_000, message: 'worker inside the second half' });
    await first.stop('SIGKILL');
    await more;
    const atKill = await admin.committedOffsets(applicationId, input);
    expect(atKill.reduce((s, c) => s + Math.max(0, c), 0)).toBeLessThan(total); // work was left uncommitted

    const second = new WorkerProcess(env);
    workers.push(second);
    await waitFor(() => second.running, { timeoutMs: 60_000, message: `restarted worker running (stderr: ${second.stderr.join('')})` });
    await waitFor(async () => (await admin.committedOffsets(applicationId, input)).every((c) => c === total / PARTITIONS), {
      timeoutMs: 60_000,
      intervalMs: 500,
      message: 'all inputs committed after the restart',
    });
    await second.stop('SIGTERM');
    const committed = await admin.committedOffsets(applicationId, input);
    const outputs = await readCommittedByMarkers(brokers, output);
    expect(outputs).toHaveLength(total);
    expectInvariant(outputs, PARTITIONS, committed, committed);
    const uncommitted = await readAll(brokers, output, { isolation: 'read_uncommitted', timeoutMs: 60_000 });
    expect(uncommitted.length).toBeGreaterThanOrEqual(total); // aborted duplicates may exist, never visible
  });
});
