/**
 * Broker soak (`npm run soak:brokers`): the multi-broker failover run of
 * test/integration/multi-broker-run.ts, longer: a 3-node cluster of its own, a steady
 * input load, and many leader kills in turn (input, output, changelog, a task's
 * `__transaction_state` partition, the group's `__consumer_offsets` partition, rotating over
 * partitions), each killed node restarted on its data; then the exactly-once checks and a
 * summary (records, kills, election times, longest stretch outside RUNNING, exactness).
 *
 *   npm run soak:brokers                                   # 20 kills, ~10 minutes
 *   npx tsx test/soak/brokers-soak.ts --kills 5 --port 19510
 *
 * Exit code 0 iff every input was counted exactly once and no stretch outside RUNNING
 * exceeded --max-not-running-ms.
 */
import { parseArgs } from 'node:util';
import { startCluster } from '../../scripts/kafka/cluster.mjs';
import { portFree } from '../../scripts/kafka/process.mjs';
import { runFailover, type FailoverReport, type TargetKind } from '../integration/multi-broker-run.js';

const KINDS: TargetKind[] = ['input', 'output', 'changelog', 'transaction-state', 'group-coordinator'];

/** One line per kill and a summary line. */
export function summarize(report: FailoverReport, maxNotRunningMs: number): string[] {
  const lines = report.kills.map((k, i) =>
    `kill ${String(i + 1).padStart(2)}: ${k.label} ${k.topic}-${k.partition}: node ${k.killedNode} -> ${k.newLeader}, election ${k.electionMs} ms, ` +
    `not RUNNING ${k.notRunningMs} ms, output stalled ${k.outputStallMs} ms, node back in sync after ${k.downMs} ms`);
  const max = (f: (k: FailoverReport['kills'][number]) => number) => Math.max(0, ...report.kills.map(f));
  const avg = (f: (k: FailoverReport['kills'][number]) => number) => Math.round(report.kills.reduce((n, k) => n + f(k), 0) / Math.max(1, report.kills.length));
  const ok = report.exactness.ok && report.maxNotRunningMs < maxNotRunningMs && !report.states.includes('ERROR');
  lines.push(
    `brokers soak ${ok ? 'PASSED' : 'FAILED'}: ${report.produced} records (${report.exactness.keys} keys, ${report.failedSends} sends retried), ${report.kills.length} leader kills, ` +
    `election avg ${avg((k) => k.electionMs)} / max ${max((k) => k.electionMs)} ms, max not RUNNING ${report.maxNotRunningMs} ms (bound ${maxNotRunningMs}), ` +
    `output stall avg ${avg((k) => k.outputStallMs)} / max ${max((k) => k.outputStallMs)} ms, states ${report.states.join(',')}; exactly once: ${report.exactness.ok ? 'yes' : 'NO'} ` +
    `(${report.exactness.inputs} inputs, ${report.exactness.outputs} committed outputs, ${report.exactness.badSequences} bad sequences, ${report.exactness.badStoreCounts} bad store counts) in ${Math.round(report.durationMs / 1000)} s`,
  );
  return lines;
}

async function freeBlock(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const first = 20_000 + Math.floor(Math.random() * 12_000); // below the Linux ephemeral range (32768+)
    if ((await Promise.all(Array.from({ length: 6 }, (_, i) => portFree(first + i)))).every(Boolean)) return first;
  }
  throw new Error('no block of 6 free ports found');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      kills: { type: 'string' }, port: { type: 'string' }, 'per-tick': { type: 'string' }, 'tick-ms': { type: 'string' }, keys: { type: 'string' },
      'down-ms': { type: 'string' }, 'gap-ms': { type: 'string' }, 'max-not-running-ms': { type: 'string' },
    },
  });
  const num = (v: string | undefined, d: number) => (v === undefined ? d : Number(v));
  const kills = num(values.kills, 20);
  const maxNotRunningMs = num(values['max-not-running-ms'], 15_000);
  const log = (line: string) => process.stderr.write(`[soak:brokers] ${line}\n`);
  const port = values.port ? Number(values.port) : await freeBlock();
  const cluster = await startCluster({ port, nodes: 3, ownerPid: process.pid, log });
  log(`cluster ${cluster.bootstrap} started in ${(cluster.startMs / 1000).toFixed(1)} s`);
  let ok = false;
  try {
    const report = await runFailover(cluster, {
      partitions: 3, keys: num(values.keys, 100), perTick: num(values['per-tick'], 30), tickMs: num(values['tick-ms'], 100),
      kills: Array.from({ length: kills }, (_, i) => KINDS[i % KINDS.length]!), downMs: num(values['down-ms'], 2000), gapMs: num(values['gap-ms'], 3000), log,
    });
    const lines = summarize(report, maxNotRunningMs);
    process.stdout.write(`${lines.join('\n')}\n`);
    if (!report.exactness.ok) process.stdout.write(`problems: ${report.exactness.problems.join('; ')}\n`);
    ok = lines.at(-1)!.includes('PASSED');
  } finally {
    await cluster.stop({ keepLog: !ok });
    if (!ok) log(`node logs kept under ${cluster.nodes[0]?.logFile.replace(/node-1\/broker\.log$/, '')}`);
  }
  process.exitCode = ok ? 0 : 1;
}

process.once('SIGINT', () => process.exit(130));
main().catch((error: unknown) => {
  process.stderr.write(`soak:brokers: harness failure: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  process.exitCode = 2;
});
