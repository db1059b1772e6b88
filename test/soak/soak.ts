/**
 * Crash soak (Kafka Streams' `StreamsEosTest`: `EosTestDriver` + `EosTestClient`):
 * two worker processes run the soak app (test/soak/topology.ts) on real Kafka
 * while the driver produces keyed, sequence-numbered input, SIGKILLs running
 * workers at chosen moments (test/soak/chaos.ts), restarts them, optionally
 * restarts the broker with its data kept, and finally verifies the outputs
 * (test/soak/verify.ts) and prints one summary line.
 *
 *   npm run soak                                   # own broker, 200 000 records, 100 kills, a broker restart
 *   npx tsx test/soak/soak.ts --brokers 127.0.0.1:9092 --records 5000 --kills 10
 *   npx tsx test/soak/soak.ts --brokers 127.0.0.1:9092 --records 5000 --kills 10 --async-step   # the data branch as mapValuesAsync
 *   npx tsx test/soak/soak.ts --brokers 127.0.0.1:9092 --records 5000 --kills 10 --threads 2    # each worker: numStreamThreads 2
 *
 * Steps of {@link runSoak}:
 * 1. a broker: the given one, or a private one on a free port (only that one may be restarted);
 * 2. unique topics and applicationId; two worker slots, each with its own state directory;
 * 3. production paced to last as long as the kills (so kills hit workers with input to process; killing
 *    goes on until all is produced), while the chaos kills and the supervisor restarts; halfway, the broker restart;
 * 4. drain: every worker back, input fully committed, nothing open, workers idle;
 * 5. clean stop of the workers (SIGTERM);
 * 6. verify with read_committed reads: data, counts, sums, repartitioned counts, transactions, offsets;
 * 7. clean up (workers, state directories, the private broker).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { restartBroker, startBroker, type RunningBroker } from '../../scripts/kafka/broker.mjs';
import { freePort } from '../../scripts/kafka/process.mjs';
import { uniqueName } from '../helpers/names.js';
import { Chaos, seededRandom } from './chaos.js';
import { InputProducer } from './input.js';
import { committedOffsets, createTopics, endOffsets, groupMemberCount, poll, readCommitted, topicsWithPrefix, type CommittedRead } from './kafka-io.js';
import { summaryLine, type SoakReport } from './report.js';
import { REKEY_GROUPING, type SoakStoreType, type SoakTopics } from './topology.js';
import { checkAggregate, checkData, checkOffsets, checkTransactions, truthOf } from './verify.js';
import { WorkerSlot } from './worker-slot.js';

export type { SoakReport } from './report.js';

const PACE_MS = 250;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const KAFKA_SCRIPT = fileURLToPath(new URL('../../scripts/kafka.mjs', import.meta.url));

/** Options of {@link runSoak}. */
export interface SoakOptions {
  /** A running cluster; without it the soak starts (and stops) a private broker. */
  brokers?: string[];
  records: number;
  keys: number;
  /** Number of re-keyed groups of the repartition branch. */
  groups: number;
  partitions: number;
  kills: number;
  /** Restart the broker halfway (data kept). Only with the soak's own broker. */
  brokerRestart: boolean;
  workers: number;
  commitIntervalMs: number;
  sessionTimeoutMs: number;
  store: SoakStoreType;
  /** The stateless branch as an async step (`mapValuesAsync`, concurrency 32): data is checked in per-key order. */
  asyncStep?: boolean;
  /** Stream threads per worker process (`numStreamThreads`; > 1: worker threads running test/soak/thread-module.ts); default 1. */
  threads?: number;
  minKillGapMs: number;
  maxKillGapMs: number;
  seed: number;
  /** Bound of every wait for a worker, the drain and the reads. */
  waitMs: number;
  log: (line: string) => void;
  /** Leave the private broker running (data kept) when a check failed, for a post-mortem. */
  keepBrokerOnFailure?: boolean;
}

/** Defaults: the CI size; `npm run soak` raises records and kills. */
export const SOAK_DEFAULTS: Omit<SoakOptions, 'brokers' | 'log' | 'seed'> = {
  records: 4000,
  keys: 50,
  groups: 7,
  partitions: 4,
  kills: 10,
  brokerRestart: false,
  workers: 2,
  commitIntervalMs: 150,
  sessionTimeoutMs: 6000,
  store: 'default',
  minKillGapMs: 500,
  maxKillGapMs: 2500,
  waitMs: 120_000,
};

/** Runs one soak (see the module comment) and resolves with its report; rejects only when the harness itself cannot go on (a bounded wait timed out). */
export async function runSoak(given: Partial<SoakOptions> = {}): Promise<SoakReport> {
  const o: SoakOptions = { ...SOAK_DEFAULTS, seed: Date.now() % 2 ** 31, log: () => undefined, ...given };
  const began = Date.now();
  const random = seededRandom(o.seed);
  // 1. broker
  let broker: RunningBroker | undefined;
  if (!o.brokers) {
    broker = await startBroker({ port: await freePort(), ownerPid: process.pid, heap: '-Xmx768m -Xms256m', log: () => undefined });
    o.log(`private broker ${broker.bootstrap} (log ${broker.logFile})`);
  } else if (o.brokerRestart) {
    throw new Error('soak: brokerRestart needs the soak\'s own broker (never restart a shared one): drop brokers or brokerRestart');
  }
  const brokers = o.brokers ?? [broker!.bootstrap];
  // 2. names, topics, slots
  const applicationId = uniqueName('soak-app');
  const topics: SoakTopics = {
    input: uniqueName('soak-input'), data: uniqueName('soak-data'), count: uniqueName('soak-count'),
    sum: uniqueName('soak-sum'), repartitionedCount: uniqueName('soak-repartitioned-count'),
  };
  const repartitionTopic = `${applicationId}-${REKEY_GROUPING}-repartition`;
  await createTopics(brokers, Object.values(topics), o.partitions);
  const stateRoot = mkdtempSync(join(tmpdir(), 'sluice-soak-'));
  const slots = Array.from({ length: o.workers }, (_, slot) => new WorkerSlot(slot, {
    slot, brokers, applicationId, topics, groups: o.groups, store: o.store, asyncStep: o.asyncStep === true, threads: o.threads ?? 1, stateDir: join(stateRoot, `slot-${slot}`),
    commitIntervalMs: o.commitIntervalMs, sessionTimeoutMs: o.sessionTimeoutMs,
  }));
  // on an abrupt exit of the driver (Ctrl-C): SIGKILL the workers, stop the private broker (synchronously)
  const killAll = () => {
    slots.forEach((s) => s.killNow());
    if (broker) spawnSync(process.execPath, [KAFKA_SCRIPT, 'stop', '--port', String(broker.port)], { stdio: 'ignore' });
  };
  process.once('exit', killAll);
  const chaos = new Chaos(slots, {
    minGapMs: o.minKillGapMs, maxGapMs: o.maxKillGapMs, pAfterCommit: 0.4, pRestoreArm: 0.35, pInitArm: 0.15, restoreWindowMs: o.sessionTimeoutMs + 10_000,
    maxRestartDelayMs: 500, random, log: (line) => o.log(line),
  });
  const producer = new InputProducer(brokers, topics.input, o.keys, o.partitions, random);
  let brokerRestarts = 0;
  let ok = false;
  let status: NodeJS.Timeout | undefined;
  try {
    await producer.connect();
    chaos.startAll();
    await poll(() => slots.every((s) => s.running), o.waitMs, () => `the ${o.workers} workers to reach RUNNING; worker output:\n${tails(slots)}`);
    o.log(`workers running (${Math.round((Date.now() - began) / 1000)} s)`);

    // 3. production and chaos (a status line every 20 s)
    status = setInterval(() => o.log(`status: ${producer.produced}/${o.records} produced, ${chaos.kills.total}/${o.kills} kills, ${slots.map((s) => `slot ${s.slot} ${s.running ? 'running' : s.alive ? 'starting' : 'down'} (${s.lastProgress?.processed ?? 0} processed)`).join(', ')}`), 20_000);
    let failed = false;
    let pausedForBroker = false;
    let producing: Promise<void> = Promise.resolve();
    const produceAll = (async () => {
      const t0 = Date.now();
      while (producer.produced < o.records && !failed) {
        await poll(() => failed || !pausedForBroker, o.waitMs, 'the broker restart to end');
        // paced so the input lasts as long as the kills: remaining records over the kills' expected remaining time
        const perKillMs = chaos.kills.total > 0 ? (Date.now() - t0) / chaos.kills.total : 4000;
        const remainingMs = Math.max(1000, (o.kills - chaos.kills.total) * perKillMs);
        const batch = Math.min(o.records - producer.produced, Math.max(20, Math.round(((o.records - producer.produced) * PACE_MS) / remainingMs)));
        producing = producer.produce(batch);
        await producing;
        await sleep(PACE_MS);
      }
    })();
    const chaosAll = (async () => {
      while ((chaos.kills.total < o.kills || producer.produced < o.records) && !failed) {
        await chaos.killOne(o.waitMs);
        if (broker && o.brokerRestart && brokerRestarts === 0 && chaos.kills.total >= o.kills / 2) {
          pausedForBroker = true;
          chaos.pause(true);
          await producing;
          const r = await restartBroker({ port: broker.port, heap: '-Xmx768m -Xms256m' });
          brokerRestarts += 1;
          o.log(`broker restarted with its data in ${(r.restartMs / 1000).toFixed(1)} s`);
          chaos.pause(false);
          pausedForBroker = false;
        }
      }
    })();
    await Promise.all([produceAll, chaosAll].map((p) => p.catch((error: unknown) => {
      failed = true;
      throw error;
    })));
    chaos.stopKilling();
    o.log(`input produced, ${chaos.kills.total} kills done (${Math.round((Date.now() - began) / 1000)} s); draining`);

    // 4. drain (bounded: on timeout the soak still stops the workers and verifies, and reports what was left)
    let stable = 0;
    let last = '';
    let state = 'not polled yet';
    const drainBegan = Date.now();
    const drain = await poll(async () => {
      if (!slots.every((s) => s.running)) {
        state = `workers: ${slots.map((s) => `slot ${s.slot} ${s.running ? 'running' : s.alive ? 'starting' : 'down'}`).join(', ')}`;
        return (stable = 0) > 0;
      }
      const [committed, end] = [await committedOffsets(brokers, applicationId, topics.input), await endOffsets(brokers, topics.input, 'read_uncommitted')];
      const [lso, hw] = [await endOffsets(brokers, repartitionTopic, 'read_committed'), await endOffsets(brokers, repartitionTopic, 'read_uncommitted')];
      const snapshot = JSON.stringify([committed, lso, slots.map((s) => s.lastProgress?.commits)]);
      const drained = end.every((e, p) => committed[p] === e) && hw.every((h, p) => lso[p] === h);
      state = `input committed [${committed.join(',')}] of end [${end.join(',')}], repartition LSO [${lso.join(',')}] HW [${hw.join(',')}]`;
      stable = drained && snapshot === last ? stable + 1 : 0;
      last = snapshot;
      return stable >= 6;
    }, o.waitMs, () => state).then(
      () => ({ ok: true, waitedMs: Date.now() - drainBegan, detail: state }),
      (error: Error) => {
        o.log(`${error.message}; worker output:\n${tails(slots)}`);
        return { ok: false, waitedMs: Date.now() - drainBegan, detail: state };
      },
    );

    // 5. clean stop
    chaos.close();
    const stops = await Promise.all(slots.map((s) => s.stop(30_000)));
    o.log(`workers stopped (${stops.join(', ')}); verifying`);
    await poll(async () => (await groupMemberCount(brokers, applicationId)) === 0, 30_000, `the group ${applicationId} to be empty`).catch((error: Error) => o.log(error.message));

    // 6. verify
    const outputs = [topics.data, topics.count, topics.sum, topics.repartitionedCount];
    const txnTopics = [...outputs, ...(await topicsWithPrefix(brokers, `${applicationId}-`))];
    const ends = async () => Promise.all(txnTopics.map(async (topic) => ({ topic, lso: await endOffsets(brokers, topic, 'read_committed'), hw: await endOffsets(brokers, topic, 'read_uncommitted') })));
    let lastEnds = await ends();
    await poll(async () => (lastEnds = await ends()).every((e) => e.hw.every((h, p) => e.lso[p] === h)), 30_000, 'LSO == HW on every output partition').catch(() => undefined);
    const read = (topic: string) => readCommitted(brokers, topic, o.waitMs);
    const [input, data, count, sum, rekeyed, repartition] = [await read(topics.input), await read(topics.data), await read(topics.count), await read(topics.sum), await read(topics.repartitionedCount), await read(repartitionTopic)];
    const truth = truthOf(input.partitions, o.groups);
    const offsets = checkOffsets(
      { topic: topics.input, committed: await committedOffsets(brokers, applicationId, topics.input), end: await endOffsets(brokers, topics.input, 'read_uncommitted') },
      { topic: repartitionTopic, committed: await committedOffsets(brokers, applicationId, repartitionTopic), afterLastRecord: afterLast(repartition), hw: lastEnds.find((e) => e.topic === repartitionTopic)?.hw ?? [] },
    );
    const body = {
      records: truth.count.size === 0 ? 0 : [...truth.count.values()].reduce((a, b) => a + b, 0),
      keys: o.keys, seed: o.seed, applicationId, threads: o.threads ?? 1,
      kills: { ...chaos.kills },
      restoreEvents: slots.reduce((n, s) => n + (s.eventCounts.get('restoring') ?? 0), 0),
      brokerRestarts,
      unexpectedExits: slots.flatMap((s) => s.unexpectedExits),
      stateDir: slots.some((s) => s.stateDir === 'unsupported') ? ('unsupported' as const) : ('used' as const),
      inputProblems: truth.inputProblems,
      data: checkData(input.partitions, data.partitions, o.asyncStep ? 'key' : 'partition'),
      counts: checkAggregate(truth.count, count.partitions),
      sums: checkAggregate(truth.sum, sum.partitions),
      repartitionedCounts: checkAggregate(truth.repartitionedCount, rekeyed.partitions),
      transactions: checkTransactions(lastEnds, [data, count, sum, rekeyed, repartition]),
      offsets,
      drain,
      durationMs: Date.now() - began,
    };
    const statelessOk = drain.ok && body.inputProblems.length === 0 && body.data.ok && body.transactions.ok && body.offsets.ok;
    const statefulOk = body.counts.ok && body.sums.ok && body.repartitionedCounts.ok;
    ok = statelessOk && statefulOk;
    return { ...body, ok, statelessOk, statefulOk, summary: summaryLine(body) };
  } finally {
    // 7. clean up
    clearInterval(status);
    chaos.close();
    await Promise.all(slots.map((s) => s.kill()));
    process.removeListener('exit', killAll);
    await producer.close();
    rmSync(stateRoot, { recursive: true, force: true });
    if (broker && !ok && o.keepBrokerOnFailure) o.log(`private broker left running for a post-mortem: ${broker.bootstrap} (stop: node scripts/kafka.mjs stop --port ${broker.port})`);
    else if (broker) await broker.stop({ keepLog: !ok }).catch(() => undefined);
    if (broker && !ok) o.log(`broker log kept: ${broker.logFile}`);
  }
}

/** Per partition, the offset after the last visible record (0 when none). */
function afterLast(read: CommittedRead): number[] {
  return read.partitions.map((records) => (records.length > 0 ? records[records.length - 1]!.offset + 1 : 0));
}

function tails(slots: WorkerSlot[]): string {
  return slots.flatMap((s) => s.stderrTail.slice(-10)).join('\n') || '(nothing)';
}

/** CLI: `tsx test/soak/soak.ts [--brokers h:p] [--records N] [--kills N] [--broker-restart] [--async-step] [--threads N] ...`; exit 0 iff every check passed. */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      brokers: { type: 'string' }, records: { type: 'string' }, keys: { type: 'string' }, kills: { type: 'string' },
      'broker-restart': { type: 'boolean' }, store: { type: 'string' }, seed: { type: 'string' }, quiet: { type: 'boolean' },
      'commit-interval-ms': { type: 'string' }, 'wait-ms': { type: 'string' }, 'keep-broker': { type: 'boolean' },
      'async-step': { type: 'boolean' }, threads: { type: 'string' },
    },
  });
  const num = (v: string | undefined) => (v === undefined ? undefined : Number(v));
  const options: Partial<SoakOptions> = Object.fromEntries(Object.entries({
    brokers: values.brokers?.split(',').map((s) => s.trim()).filter(Boolean),
    records: num(values.records), keys: num(values.keys), kills: num(values.kills), brokerRestart: values['broker-restart'],
    store: values.store as SoakStoreType | undefined, seed: num(values.seed), commitIntervalMs: num(values['commit-interval-ms']), waitMs: num(values['wait-ms']), keepBrokerOnFailure: values['keep-broker'],
    asyncStep: values['async-step'], threads: num(values.threads),
    log: values.quiet ? undefined : (line: string) => process.stderr.write(`[soak] ${line}\n`),
  }).filter(([, v]) => v !== undefined));
  const report = await runSoak(options);
  if (!values.quiet) process.stderr.write(`${JSON.stringify({ ...report, summary: undefined }, null, 1)}\n`);
  process.stdout.write(`${report.summary}\n`);
  process.exitCode = report.ok ? 0 : 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.once('SIGINT', () => process.exit(130));
  process.once('SIGTERM', () => process.exit(143));
  main().catch((error: unknown) => {
    process.stderr.write(`soak: harness failure: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
    process.exitCode = 2;
  });
}
