/**
 * Runs one contender of the versioned-table join workload
 * (./versioned-join-workload.ts) once. Steps:
 * 1. fresh topics: input, output and the prices topic, 8 partitions each;
 * 2. the prices table written (versions out of order), then the contender started a
 *    first time on a fresh state directory until the group has committed all of it,
 *    and stopped (SIGTERM: a clean close);
 * 3. the input written (event times over every version's range);
 * 4. the contender started again on a fresh state directory: it restores the
 *    versioned store from its changelog, so every price is in it before the first
 *    input record comes; timed from its first input record until every input
 *    offset is committed. (Not on the same directory: Java Kafka Streams 4.4's
 *    RocksDB versioned store, reopened from its local checkpoint, answered only
 *    the latest version — 25% of the records joined — in a trial run; restored
 *    from the changelog it answers every version.);
 * 5. stop, check (read_committed: every record once, with the right version), clean up.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Admin } from 'kafkajs';
import { childFailure, childNotes, spawnChild, type RunningChild } from './child.js';
import type { ContenderSpec, LaunchContext } from './contenders.js';
import { committedOffsets, createRunTopics, deleteGroups, deleteTopics, deleteTopicsWithPrefix } from './kafka.js';
import { loadInput } from './loader.js';
import { CommittedOffsetWatch, regressionReason } from './offset-watch.js';
import type { RunResult } from './result.js';
import type { PipelineRunOptions } from './run-pipeline.js';
import { checkKeys, statefulKeyOf } from './stateful-workload.js';
import { verifyVersionedJoin } from './verify-versioned-join.js';
import { pricesTopic, versionedJoinPlan } from './versioned-join-workload.js';

const pending: Promise<void>[] = [];

/** Resolves once every background topic/group deletion of these runs has finished. */
export async function awaitVersionedJoinCleanups(): Promise<void> {
  await Promise.all(pending.splice(0));
}

/** Polls every 50 ms until `group` has committed `target` offsets on `topic`, the child exited or `deadline` passed. */
async function waitCommitted(admin: Admin, group: string, topic: string, target: number, deadline: number, child: RunningChild, watch = new CommittedOffsetWatch()) {
  let exited = false;
  void child.exited.then(() => (exited = true));
  let committed = 0;
  while (Date.now() < deadline && !exited) {
    committed = await committedOffsets(admin, group, topic).then((o) => watch.observe(o), () => committed);
    if (committed >= target) return { done: true, at: Date.now(), committed, exited };
    await new Promise((r) => setTimeout(r, 50));
  }
  return { done: false, at: Date.now(), committed, exited };
}

/** One run of `spec`; never throws for a contender failure (the row is marked failed). */
export async function runVersionedJoin(spec: ContenderSpec, o: PipelineRunOptions): Promise<RunResult> {
  const began = Date.now();
  const result = await runOnce(spec, o);
  result.wallSeconds = (Date.now() - began) / 1000;
  o.log(`  ${spec.id} r${o.round}: ${result.ok ? 'OK' : `FAILED (${result.reason})`} ${Math.round(result.recordsPerSec)} rec/s, ${result.seconds.toFixed(2)} s, ` +
    `RSS ${(result.maxRssKb / 1024).toFixed(0)} MiB, CPU ${result.cpuSeconds.toFixed(2)} s; startup ${result.startupMs ?? '-'} ms, run wall ${result.wallSeconds.toFixed(1)} s`);
  return result;
}

async function runOnce(spec: ContenderSpec, o: PipelineRunOptions): Promise<RunResult> {
  const [input, output, prices] = [`${o.name}-in`, `${o.name}-out`, pricesTopic(o.name)];
  const keys = o.keys ?? 0;
  checkKeys(keys);
  const plan = versionedJoinPlan(o.records, keys);
  const stateDirs = [mkdtempSync(join(tmpdir(), `${o.name}-state-`)), mkdtempSync(join(tmpdir(), `${o.name}-state-`))];
  const ctx: LaunchContext = { ...o.base, group: o.name, input, output, stateDir: stateDirs[0]! };
  const fail = (reason: string, extra: Partial<RunResult> = {}): RunResult => ({
    id: spec.id, round: o.round, records: o.records, ok: false, reason, recordsPerSec: 0, seconds: 0, maxRssKb: 0, cpuSeconds: 0, usageSource: 'none', ...extra,
  });
  const admin = o.kafka.admin();
  await admin.connect();
  const children: RunningChild[] = [];
  const launch = (): RunningChild => {
    const { command, args, env } = spec.launch(ctx);
    const child = spawnChild(command, args, env);
    children.push(child);
    return child;
  };
  try {
    // 1. topics
    await createRunTopics(o.kafka, input, output);
    await createRunTopics(o.kafka, prices, undefined);
    // 2. the table, loaded by a first start of the contender
    const tableAt = Date.now();
    const producer = o.kafka.producer({ allowAutoTopicCreation: false, idempotent: false, maxInFlightRequests: 1 });
    await producer.connect();
    try {
      for (let i = 0; i < plan.table.length; i += 8000) {
        await producer.send({ topic: prices, acks: -1, messages: plan.table.slice(i, i + 8000).map((r) => ({ key: r.key, value: r.value, partition: r.partition, timestamp: String(r.timestamp) })) });
      }
    } finally {
      await producer.disconnect().catch(() => undefined);
    }
    const loader = launch();
    const loaded = await waitCommitted(admin, o.name, prices, plan.table.length, Date.now() + Math.min(o.timeoutMs, 180_000), loader);
    await loader.stop();
    if (!loaded.done) return fail(`the table was not loaded: ${loaded.committed} of ${plan.table.length} price offsets committed${childFailure(loader) ? `; ${childFailure(loader)}` : ''}\n${loader.output.slice(-15).join('\n')}`);
    o.log(`  ${spec.id} r${o.round}: table of ${plan.table.length} prices loaded in ${Date.now() - tableAt} ms`);
    // 3. the input
    const loadMs = await loadInput(o.kafka, input, o.records, { keyOf: (id) => statefulKeyOf(id, keys), timestampOf: plan.timestampOf });
    o.log(`  ${spec.id} r${o.round}: loaded ${o.records} records in ${loadMs} ms`);
    // 4. the timed run, on a fresh state directory
    ctx.stateDir = stateDirs[1]!;
    const child = launch();
    let first: number;
    try {
      first = (await child.waitFor('first', Math.min(o.timeoutMs, 120_000))).t ?? Date.now();
    } catch (err) {
      const usage = await child.stop(5000);
      return fail(`no record processed: ${childFailure(child) ?? (err instanceof Error ? err.message : String(err))}`, { loadMs, maxRssKb: usage.maxRssKb, cpuSeconds: usage.cpuSeconds });
    }
    const watch = new CommittedOffsetWatch();
    const waited = await waitCommitted(admin, o.name, input, o.records, first + o.timeoutMs, child, watch);
    const usage = await child.stop();
    const seconds = (waited.at - first) / 1000;
    const metricsEvent = child.events.find((e) => e.event === 'metrics');
    const notes = childNotes(child);
    const base = {
      ...(metricsEvent ? { childMetrics: metricsEvent['metrics'] } : {}), ...(notes.length > 0 ? { notes } : {}),
      loadMs, startupMs: first - child.spawnedAt, maxRssKb: usage.maxRssKb, cpuSeconds: usage.cpuSeconds, usageSource: usage.source, seconds,
    };
    const regression = regressionReason(watch.regressions);
    if (!waited.done) {
      const why = waited.exited ? `child exited early (code ${usage.exitCode})` : `timeout after ${o.timeoutMs} ms (stopped)`;
      return fail(`${[regression, why].filter(Boolean).join('; ')}: ${waited.committed} of ${o.records} input offsets committed\n${[childFailure(child), ...child.output.slice(-15)].filter(Boolean).join('\n')}`, base);
    }
    // 5. the check
    const check = await verifyVersionedJoin(o.kafka, output, plan);
    o.log(`  ${spec.id} r${o.round}: ${check.count} joined records out, ${check.correct}/${o.records} exactly once with the right version`);
    const reasons = [regression, check.reason].filter((r): r is string => r !== undefined);
    return {
      id: spec.id, round: o.round, records: o.records, recordsPerSec: o.records / seconds, outputCount: check.count, expectedOutput: o.records,
      abortedOutput: check.aborted, keys, ...base, ok: check.ok && regression === undefined, ...(reasons.length > 0 ? { reason: reasons.join('; ') } : {}),
    };
  } catch (err) {
    return fail(err instanceof Error ? err.message : String(err));
  } finally {
    for (const child of children) await child.stop(5000).catch(() => undefined);
    await admin.disconnect().catch(() => undefined);
    // In the background; the app's internal topics and the prices topic start with `${o.name}-`.
    pending.push(deleteTopics(o.kafka, [input, output]).then(() => deleteTopicsWithPrefix(o.kafka, `${o.name}-`)).then(() => deleteGroups(o.kafka, [o.name])));
    for (const dir of stateDirs) rmSync(dir, { recursive: true, force: true });
  }
}
