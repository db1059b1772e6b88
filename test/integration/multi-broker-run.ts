/**
 * One multi-broker failover run (the CI test and `npm run soak:brokers`): the counting app
 * under a steady load on a 3-node cluster while the leaders of chosen partitions are SIGKILLed
 * one after the other and restarted; then the exactly-once checks.
 *
 * Steps of {@link runFailover}:
 * 1. input and output topics (RF 3) with unique names;
 * 2. the app: start, wait for RUNNING, find its repartition topic and changelog;
 * 3. the steady load and the output progress monitor;
 * 4. per kill: the target partition (from `targets`), its leader killed, re-elected, restarted,
 *    all replicas in sync, then `gapMs` of steady running; figures per kill;
 * 5. stop the load, read the input back (the truth), wait until the app counted all of it;
 * 6. the exactly-once checks; close the app.
 */
import { groupCoordinatorPartition, transactionStatePartition, partitionStates } from '../../scripts/kafka/cluster-metadata.mjs';
import type { RunningCluster } from '../../scripts/kafka/cluster.mjs';
import { createTopic } from '../helpers/topics.js';
import { uniqueName } from '../helpers/names.js';
import { waitFor } from '../helpers/wait-for.js';
import { countingApp, internalTopics, killLeader, LogRing, ProgressMonitor, StateTimeline, SteadyLoad, type FailoverTopics, type KillFigure, type KillTarget } from './multi-broker-support.js';
import { checkExactness, inputTruth, waitForDrain, type Exactness } from './multi-broker-verify.js';

/**
 * What a kill round aims at: a partition of the input, output, changelog, a task's
 * `__transaction_state` partition (its transaction coordinator), or the group's
 * `__consumer_offsets` partition (its group coordinator).
 */
export type TargetKind = 'input' | 'output' | 'changelog' | 'transaction-state' | 'group-coordinator';

export interface FailoverOptions {
  partitions: number;
  keys: number;
  /** Load: records per tick and tick length. */
  perTick: number;
  tickMs: number;
  /** The kinds of kill, in turn (one kill each). */
  kills: TargetKind[];
  /** How long a killed node stays down after the election. */
  downMs: number;
  /** Steady running after each kill round. */
  gapMs: number;
  log: (line: string) => void;
}

export interface KillReport extends KillFigure {
  /** Longest stretch outside RUNNING overlapping the kill round. */
  notRunningMs: number;
  /** Longest time without output growth in the round. */
  outputStallMs: number;
}

export interface FailoverReport {
  applicationId: string;
  topics: FailoverTopics;
  /** Replication factor of each internal topic. */
  internalReplication: Record<string, number>;
  produced: number;
  failedSends: number;
  kills: KillReport[];
  /** Longest stretch outside RUNNING over the whole run, and the states seen. */
  maxNotRunningMs: number;
  states: string[];
  exactness: Exactness;
  durationMs: number;
}

/** Runs one failover run (see the module comment). */
export async function runFailover(cluster: RunningCluster, o: FailoverOptions): Promise<FailoverReport> {
  const began = Date.now();
  const brokers = cluster.brokers;
  // 1. topics
  const applicationId = uniqueName('brokers-app');
  const topics: FailoverTopics = { input: uniqueName('brokers-in'), output: uniqueName('brokers-out') };
  for (const t of [topics.input, topics.output]) await createTopic(brokers, t, { partitions: o.partitions, replicationFactor: 3 });
  // 2. the app
  const ring = new LogRing();
  const { app, cleanup } = countingApp(brokers, applicationId, topics, ring);
  const timeline = new StateTimeline(app);
  const load = new SteadyLoad(brokers, topics.input, { partitions: o.partitions, keys: o.keys, perTick: o.perTick, tickMs: o.tickMs });
  const progress = new ProgressMonitor(brokers, topics.output);
  try {
    await app.start();
    await waitFor(() => app.state === 'RUNNING', { timeoutMs: 60_000, message: 'the app to reach RUNNING' });
    // 3. load
    await load.start();
    await progress.start();
    Object.assign(topics, await waitFor(async () => {
      const found = await internalTopics(brokers, applicationId);
      return found.repartition && found.changelog ? found : undefined;
    }, { timeoutMs: 30_000, message: 'the repartition topic and the changelog' }));
    const internal = await partitionStates(brokers, [topics.repartition!, topics.changelog!]);
    const internalReplication = Object.fromEntries(internal.map((p) => [p.topic, p.replicas.length]));
    o.log(`app ${applicationId} running; internal topics ${JSON.stringify(internalReplication)} (replication factor)`);
    await waitFor(() => app.state === 'RUNNING' && progress.samples.some((s) => s.total > 0), { timeoutMs: 30_000, message: 'first outputs' });
    // 4. kills
    const kills: KillReport[] = [];
    for (const [round, kind] of o.kills.entries()) {
      const target = targetOf(kind, round, topics, applicationId, o.partitions);
      const figure = await killLeader(cluster, target, { downMs: o.downMs });
      await new Promise((r) => setTimeout(r, o.gapMs));
      const now = Date.now();
      const report: KillReport = { ...figure, notRunningMs: timeline.longestNotRunning(figure.at, now), outputStallMs: progress.longestStall(figure.at, now) };
      kills.push(report);
      o.log(`kill ${round + 1}/${o.kills.length}: leader of ${target.label} ${target.topic}-${target.partition} = node ${report.killedNode} -> node ${report.newLeader}; ` +
        `election ${report.electionMs} ms, node back and in sync after ${report.downMs} ms, not RUNNING ${report.notRunningMs} ms, output stalled ${report.outputStallMs} ms; ${load.produced} produced`);
    }
    // 5. drain
    await load.stop();
    await progress.stop();
    const truth = await inputTruth(brokers, topics.input);
    await waitForDrain(brokers, app, topics, truth, 120_000, applicationId).catch((e: Error) => {
      o.log(`drain failed; the app's last ${ring.lines.length} log lines:\n${ring.lines.join('\n')}`);
      throw e;
    });
    // 6. checks
    const exactness = await checkExactness(brokers, app, topics, truth);
    const states = [...new Set(timeline.transitions.map((t) => t.state))];
    return {
      applicationId, topics, internalReplication, produced: load.produced, failedSends: load.failedSends, kills,
      maxNotRunningMs: timeline.longestNotRunning(), states, exactness, durationMs: Date.now() - began,
    };
  } finally {
    await load.stop().catch(() => undefined);
    await progress.stop();
    await app.close().catch(() => undefined);
    cleanup();
  }
}

/** The partition a kill round aims at; partitions rotate with the round. */
function targetOf(kind: TargetKind, round: number, topics: FailoverTopics, applicationId: string, partitions: number): KillTarget {
  const partition = round % partitions;
  switch (kind) {
    case 'input':
      return { label: 'input', topic: topics.input, partition };
    case 'output':
      return { label: 'output', topic: topics.output, partition };
    case 'changelog':
      return { label: 'changelog', topic: topics.changelog!, partition };
    case 'transaction-state': {
      // the counting task 1_<p> writes the output and the changelog under the transactional id <applicationId>-1_<p>
      const transactionalId = `${applicationId}-1_${partition}`;
      return { label: `__transaction_state of '${transactionalId}'`, topic: '__transaction_state', partition: transactionStatePartition(transactionalId, 10) };
    }
    case 'group-coordinator':
      return { label: `__consumer_offsets of group '${applicationId}'`, topic: '__consumer_offsets', partition: groupCoordinatorPartition(applicationId, 10) };
  }
}
