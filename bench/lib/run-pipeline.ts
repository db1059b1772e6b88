/**
 * Runs one contender of the stateless pipeline, the count or the windowed
 * count workload once: fresh topics (and a fresh state directory), load,
 * process, stop, verify.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kafka as KafkaClient } from 'kafkajs';
import { childFailure, childNotes } from './child.js';
import { spawnFleet } from './child-fleet.js';
import type { ContenderSpec, LaunchContext } from './contenders.js';
import { cpuSecondsOf } from './proc-sampler.js';
import { committedOffsets, createRunTopics, deleteGroups, deleteTopics, deleteTopicsWithPrefix, endOffsetTotal } from './kafka.js';
import { loadExtra, loadInput } from './loader.js';
import { CommittedOffsetWatch, regressionReason, type OffsetRegression } from './offset-watch.js';
import type { RunResult } from './result.js';
import { checkKeys, statefulKeyOf } from './stateful-workload.js';
import { quantile } from './stats.js';
import { verifyCounts } from './verify-count.js';
import { verifyOutput } from './verify.js';
import { verifyWindowedCounts } from './verify-windowed.js';
import { windowedPlan } from './windowed-workload.js';
import { expectedOutputs } from './workload.js';

const pendingCleanups: Promise<void>[] = [];

/** Resolves once every background topic/group deletion has finished. */
export async function awaitCleanups(): Promise<void> {
  await Promise.all(pendingCleanups.splice(0));
}

/** Options of one run. */
export interface PipelineRunOptions {
  kafka: KafkaClient;
  base: Omit<LaunchContext, 'group' | 'input' | 'output'>;
  /** Topic/group name prefix, unique for the run, contender and round. */
  name: string;
  round: number;
  records: number;
  log: (line: string) => void;
  /** Bound on the processing phase (ms). */
  timeoutMs: number;
  /** Keep the topics afterwards (default: delete). */
  keepTopics?: boolean;
  /** Distinct keys of the count workload (stateful-workload.ts COUNT_KEYS). */
  keys?: number;
  /** The broker's process id when it runs on this machine: its CPU during the processing window is reported. */
  brokerPid?: number;
}

/** After a committed offset went backwards, how long the run may still take to complete (ms): the run has failed already. */
export const REGRESSION_GRACE_MS = 10_000;

/**
 * Polls every 50 ms until the run is complete: the group's committed offsets on
 * the input reach `target` (completion `committed`: every input record), or the
 * output's end offsets reach it (completion `output`: the expected output count).
 * Completion `committed` also watches every partition's committed offset
 * (offset-watch.ts): once one went backwards the run has failed, and the wait
 * is cut to {@link REGRESSION_GRACE_MS}.
 */
async function waitComplete(
  kafka: KafkaClient, completion: ContenderSpec['completion'], ctx: LaunchContext, target: number, deadline: number, exited: () => boolean,
): Promise<{ done: boolean; at: number; committed: number; regressions: OffsetRegression[] }> {
  const admin = kafka.admin();
  await admin.connect();
  let committed = 0;
  const watch = new CommittedOffsetWatch();
  const probe = completion === 'committed'
    ? async () => watch.observe(await committedOffsets(admin, ctx.group, ctx.input))
    : () => endOffsetTotal(admin, ctx.output);
  let until = deadline;
  try {
    while (Date.now() < until && !exited()) {
      committed = await probe().catch(() => committed);
      if (committed >= target) return { done: true, at: Date.now(), committed, regressions: watch.regressions };
      if (watch.regressions.length > 0) until = Math.min(until, (watch.regressions[0]?.atMs ?? 0) + REGRESSION_GRACE_MS);
      await new Promise((r) => setTimeout(r, 50));
    }
    return { done: false, at: Date.now(), committed, regressions: watch.regressions };
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}

/** One run of `spec`; never throws for a contender failure (the row is marked failed). */
export async function runPipeline(spec: ContenderSpec, o: PipelineRunOptions): Promise<RunResult> {
  const began = Date.now();
  const result = await runPipelineOnce(spec, o);
  result.wallSeconds = (Date.now() - began) / 1000;
  o.log(`  ${spec.id} r${o.round}: ${result.ok ? 'OK' : `FAILED (${result.reason})`} ${Math.round(result.recordsPerSec)} rec/s, ` +
    `${result.seconds.toFixed(2)} s, p50 ${result.latencyP50Ms ?? '-'} ms, p99 ${result.latencyP99Ms ?? '-'} ms, ` +
    `RSS ${(result.maxRssKb / 1024).toFixed(0)} MiB, CPU ${result.cpuSeconds.toFixed(2)} s` +
    `${result.brokerCpuSeconds === undefined ? '' : ` (broker ${result.brokerCpuSeconds.toFixed(2)} s in the window)`}; ` +
    `startup ${result.startupMs ?? '-'} ms, run wall ${result.wallSeconds.toFixed(1)} s`);
  return result;
}

async function runPipelineOnce(spec: ContenderSpec, o: PipelineRunOptions): Promise<RunResult> {
  const input = `${o.name}-in`;
  const output = `${o.name}-out`;
  const windowed = spec.workload === 'windowed';
  // The stateful workloads: keys k<i mod keys>, a state directory, the app's changelogs deleted afterwards.
  const counting = spec.workload === 'count' || windowed;
  const keys = o.keys ?? 0;
  if (counting) checkKeys(keys);
  const plan = windowed ? windowedPlan(o.records, keys) : undefined;
  const stateDir = counting ? mkdtempSync(join(tmpdir(), `${o.name}-state-`)) : undefined;
  const ctx: LaunchContext = { ...o.base, group: o.name, input, output, ...(stateDir ? { stateDir } : {}) };
  const fail = (reason: string, extra: Partial<RunResult> = {}): RunResult => ({
    id: spec.id, round: o.round, records: o.records, ok: false, reason, recordsPerSec: 0, seconds: 0,
    maxRssKb: 0, cpuSeconds: 0, usageSource: 'none', ...extra,
  });
  try {
    await createRunTopics(o.kafka, input, output);
    let loadMs = await loadInput(o.kafka, input, o.records, {
      ...(counting ? { keyOf: (id: number) => statefulKeyOf(id, keys) } : {}), ...(plan ? { timestampOf: plan.timestampOf } : {}),
    });
    // The windowed workload's flush records close the last window (windowed-workload.ts).
    if (plan) loadMs += await loadExtra(o.kafka, input, plan.flush);
    const inputRecords = o.records + (plan?.flush.length ?? 0);
    const target = spec.completion === 'committed' ? inputRecords : expectedOutputs(o.records);
    o.log(`  ${spec.id} r${o.round}: loaded ${o.records} records in ${loadMs} ms`);
    // The scaling workload starts several processes in the run's group (child-fleet.ts); every other contender one.
    const child = spawnFleet(Array.from({ length: spec.instances ?? 1 }, () => spec.launch(ctx)));
    let exited = false;
    void child.exited.then(() => (exited = true));
    let first: number;
    try {
      first = (await child.waitFor('first', Math.min(o.timeoutMs, 120_000))).t ?? Date.now();
    } catch (err) {
      const usage = await child.stop(5000);
      return fail(`no record processed: ${childFailure(child) ?? (err instanceof Error ? err.message : String(err))}`, { loadMs, maxRssKb: usage.maxRssKb, cpuSeconds: usage.cpuSeconds });
    }
    const brokerCpuAtFirst = o.brokerPid === undefined ? undefined : cpuSecondsOf(o.brokerPid);
    const waited = await waitComplete(o.kafka, spec.completion, ctx, target, first + o.timeoutMs, () => exited);
    const brokerCpuAtEnd = o.brokerPid === undefined ? undefined : cpuSecondsOf(o.brokerPid);
    const brokerCpuSeconds = brokerCpuAtFirst !== undefined && brokerCpuAtEnd !== undefined ? brokerCpuAtEnd - brokerCpuAtFirst : undefined;
    // Read before stop(): stopping a child that ran past its bound makes it exit too.
    const exitedBeforeStop = exited;
    const stopAt = Date.now();
    const usage = await child.stop();
    const stopMs = Date.now() - stopAt;
    const seconds = (waited.at - first) / 1000;
    const metricsEvent = child.events.find((e) => e.event === 'metrics');
    const notes = childNotes(child);
    const base = {
      ...(metricsEvent ? { childMetrics: metricsEvent['metrics'] } : {}), ...(notes.length > 0 ? { notes } : {}),
      loadMs, startupMs: first - child.spawnedAt, maxRssKb: usage.maxRssKb, cpuSeconds: usage.cpuSeconds,
      ...(brokerCpuSeconds !== undefined ? { brokerCpuSeconds } : {}),
      usageSource: usage.source, seconds,
    };
    // A committed offset that went backwards fails the run, whatever the output check says (offset-watch.ts).
    const regression = regressionReason(waited.regressions);
    const verdict = (ok: boolean, reason: string | undefined): Pick<RunResult, 'ok' | 'reason'> => checkVerdict(ok, reason, regression);
    if (!waited.done) {
      const stoppedEarly = regression !== undefined && waited.at < first + o.timeoutMs;
      const why = incompleteReason(exitedBeforeStop, usage.exitCode, o.timeoutMs, regression, stoppedEarly);
      const tail = [childFailure(child), ...child.output.slice(-15)].filter((l) => l !== undefined).join('\n');
      return fail(`${why}: ${waited.committed} of ${target} ${spec.completion === 'committed' ? 'input offsets committed' : 'outputs written'}${tail ? `\n${tail}` : ''}`, base);
    }
    if (plan) {
      const verifyAt = Date.now();
      const check = await verifyWindowedCounts(o.kafka, output, plan);
      o.log(`  ${spec.id} r${o.round}: stop ${stopMs} ms, check ${Date.now() - verifyAt} ms: ${check.count} windows emitted, ${check.correctWindows}/${check.windows} exactly once with the true count`);
      return {
        id: spec.id, round: o.round, records: o.records, recordsPerSec: o.records / seconds,
        outputCount: check.count, expectedOutput: check.windows, abortedOutput: check.aborted, keys, ...base, ...verdict(check.ok, check.reason),
      };
    }
    if (counting) {
      const verifyAt = Date.now();
      const check = await verifyCounts(o.kafka, output, o.records, keys);
      o.log(`  ${spec.id} r${o.round}: stop ${stopMs} ms, check ${Date.now() - verifyAt} ms: ${check.count} count updates, ${check.correctKeys}/${check.keys} keys correct`);
      return {
        id: spec.id, round: o.round, records: o.records, recordsPerSec: o.records / seconds,
        outputCount: check.count, abortedOutput: check.aborted, keys: check.keys, ...base, ...verdict(check.ok, check.reason),
      };
    }
    const expected = expectedOutputs(o.records);
    const verifyAt = Date.now();
    const check = await verifyOutput(o.kafka, output, o.records, expected);
    o.log(`  ${spec.id} r${o.round}: stop ${stopMs} ms, check ${Date.now() - verifyAt} ms`);
    const result: RunResult = {
      id: spec.id, round: o.round, records: o.records, recordsPerSec: o.records / seconds,
      latencyP50Ms: quantile(check.latenciesMs, 0.5), latencyP99Ms: quantile(check.latenciesMs, 0.99),
      outputCount: check.count, expectedOutput: expected, abortedOutput: check.aborted, ...base,
      ...verdict(check.ok, check.reason),
    };
    return result;
  } catch (err) {
    return fail(err instanceof Error ? err.message : String(err));
  } finally {
    if (!o.keepTopics) {
      // In the background: the next contender need not wait for it (see awaitCleanups).
      // The app's own internal topics (changelogs) start with its application id `${o.name}-`.
      pendingCleanups.push(deleteTopics(o.kafka, [input, output]).then(() => (counting ? deleteTopicsWithPrefix(o.kafka, `${o.name}-`) : undefined))
        .then(() => deleteGroups(o.kafka, [ctx.group])));
    }
    if (stateDir) rmSync(stateDir, { recursive: true, force: true });
  }
}

/** A completed run's check: the output check's verdict, failed (the regression leading the reason) when committed offsets went backwards. */
export function checkVerdict(ok: boolean, reason: string | undefined, regression: string | undefined): Pick<RunResult, 'ok' | 'reason'> {
  const reasons = [regression, reason].filter((r): r is string => r !== undefined);
  return { ok: ok && regression === undefined, ...(reasons.length > 0 ? { reason: reasons.join('; ') } : {}) };
}

/**
 * Why a contender did not complete: it exited on its own before the bound, it
 * ran past the bound (and was stopped), or (`stoppedEarly`) it was stopped
 * {@link REGRESSION_GRACE_MS} after its committed offsets went backwards;
 * `regression` (offset-watch.ts regressionReason) leads when there was one.
 */
export function incompleteReason(
  exitedBeforeStop: boolean, exitCode: number | null | undefined, timeoutMs: number, regression?: string, stoppedEarly = false,
): string {
  const why = exitedBeforeStop ? `child exited early (code ${exitCode})`
    : stoppedEarly ? `stopped ${REGRESSION_GRACE_MS} ms after it, incomplete` : `timeout after ${timeoutMs} ms (stopped)`;
  return regression === undefined ? why : `${regression}; ${why}`;
}
