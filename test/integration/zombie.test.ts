/**
 * ZOMBIE (real Kafka): a worker is frozen (SIGSTOP) with an open transaction;
 * its session expires and its partitions move to a second instance, whose
 * producers fence the frozen one's. When the zombie wakes up (SIGCONT) it
 * cannot commit its stale transaction: it is fenced, closes its tasks dirty
 * and rejoins. No output is duplicated; the invariant holds.
 */
import { afterEach, expect, it } from 'vitest';
import type { AdminPort } from '../../src/cluster/port.js';
import { createKafkaCluster } from '../../src/cluster/kafkajs/index.js';
import { KafkaStreams } from '../../src/runtime/kafka-streams.js';
import { createTopic, describeKafka, uniqueGroup, uniqueTopic, waitFor } from '../helpers/index.js';
import { WorkerProcess } from './fixtures/worker-process.js';
import { expectInvariant, invariantTopology, produceInputs, readCommittedByMarkers } from './support.js';

const PARTITIONS = 4;
const pick = (m: { commits: number; aborts: number; taskRestarts: number; rebalances: number }) => ({
  commits: m.commits,
  aborts: m.aborts,
  taskRestarts: m.taskRestarts,
  rebalances: m.rebalances,
});
const workers: WorkerProcess[] = [];
const apps: KafkaStreams[] = [];
const admins: AdminPort[] = [];
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.stop()));
  await Promise.all(apps.splice(0).map((a) => a.close()));
  await Promise.all(admins.splice(0).map((a) => a.close()));
});

describeKafka('ZOMBIE: a frozen instance whose partitions moved away (real Kafka)', (brokers) => {
  it('cannot commit its stale transaction after waking up; no output is duplicated', { timeout: 150_000 }, async () => {
    const input = await createTopic(brokers, uniqueTopic('zombie-in'), { partitions: PARTITIONS });
    const output = await createTopic(brokers, uniqueTopic('zombie-out'), { partitions: PARTITIONS });
    const applicationId = uniqueGroup('zombie-app');
    const admin = createKafkaCluster({ bootstrapServers: brokers }).admin();
    admins.push(admin);
    const allCommitted = async (n: number) => (await admin.committedOffsets(applicationId, input)).every((c) => c === n / PARTITIONS);
    await produceInputs(brokers, input, PARTITIONS, 0, 8_000);

    // 1. The future zombie: long commit interval, so a transaction is open when it freezes.
    const zombie = new WorkerProcess({ brokers, applicationId, input, output, commitIntervalMs: 5_000, sessionTimeoutMs: 6_000 });
    workers.push(zombie);
    await waitFor(() => (zombie.metrics?.commits ?? 0) > 0, { timeoutMs: 60_000, message: `zombie committed (stderr: ${zombie.stderr.join('')})` });
    await produceInputs(brokers, input, PARTITIONS, 8_000, 2_000);
    await waitFor(() => (zombie.metrics?.recordsProcessed ?? 0) >= 10_000, { timeoutMs: 30_000, message: 'zombie processed the new inputs' });
    zombie.signal('SIGSTOP');
    const frozenAt = zombie.metrics!;
    const committedAtFreeze = await admin.committedOffsets(applicationId, input);
    expect(committedAtFreeze.reduce((s, c) => s + c, 0)).toBeLessThan(10_000); // the open transaction holds uncommitted work

    // 2. The partitions move to a healthy instance, which fences the zombie's producers.
    const healthy = new KafkaStreams(invariantTopology(input, output), {
      applicationId,
      bootstrapServers: brokers,
      commitIntervalMs: 100,
      sessionTimeoutMs: 6_000,
      heartbeatIntervalMs: 500,
    });
    apps.push(healthy);
    await healthy.start();
    await waitFor(() => allCommitted(10_000), { timeoutMs: 60_000, intervalMs: 250, message: 'healthy instance committed everything' });
    const beforeWake = await readCommittedByMarkers(brokers, output);
    expectInvariant(beforeWake, PARTITIONS, await admin.committedOffsets(applicationId, input), await admin.committedOffsets(applicationId, input));

    // 3. The zombie wakes up: its stale commit is fenced; it rejoins; new input is processed exactly once.
    zombie.signal('SIGCONT');
    // Its open transactions cannot commit: each is aborted (fenced commit -> dirty close), never made visible.
    await waitFor(() => (zombie.metrics?.aborts ?? 0) > frozenAt.aborts, { timeoutMs: 30_000, message: 'zombie aborted its stale transaction' });
    await waitFor(() => zombie.metrics!.aborts - frozenAt.aborts >= PARTITIONS - 1, { timeoutMs: 15_000, message: 'stale transactions aborted' });
    const woken = pick(zombie.metrics!);
    expect(woken.commits, 'the zombie committed nothing after waking up').toBe(frozenAt.commits);
    expect(woken.taskRestarts, 'fenced tasks are closed dirty and re-acquired').toBeGreaterThan(frozenAt.taskRestarts);
    const afterWake = await readCommittedByMarkers(brokers, output);
    expect(afterWake.length).toBe(beforeWake.length); // nothing of the stale transaction became visible
    await produceInputs(brokers, input, PARTITIONS, 10_000, 2_000);
    await waitFor(() => allCommitted(12_000), { timeoutMs: 60_000, intervalMs: 250, message: 'all 12,000 inputs committed' });
    await zombie.stop('SIGTERM');
    await healthy.close();

    const committed = await admin.committedOffsets(applicationId, input);
    const outputs = await readCommittedByMarkers(brokers, output);
    expect(outputs).toHaveLength(12_000);
    expectInvariant(outputs, PARTITIONS, committed, committed);
  });
});
