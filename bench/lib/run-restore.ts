/**
 * The restore workload (issue #15 "restore throughput"). Once per round
 * ({@link prepareRestore}):
 * 1. fresh topics: an empty 8-partition input and the store's changelog
 *    `<applicationId>-restore-store-changelog` (compacted, 8 partitions);
 * 2. the changelog is filled with `records` records over `keys` keys in
 *    committed transactions (changelog-loader.ts), as an exactly-once app
 *    leaves it; the input stays empty and no offsets are committed, so an
 *    instance has nothing to process, only to restore.
 * Then each restore contender of the round in turn, one after the other on
 * the same application id and changelog ({@link runRestore}):
 * 3. the contender starts with a fresh, empty state directory, restores every
 *    changelog partition from the beginning and reports each partition's
 *    start and end through its global StateRestoreListener, then (RUNNING)
 *    reads the store back: its entry count and the values of sample keys;
 * 4. records/s = records restored / (last onRestoreEnd − first onRestoreStart);
 * 5. check: the restored total is exactly `records` (a contender that wrote
 *    into the changelog would fail the next one's check too), all 8 partitions
 *    ended, the store holds every key, and each sample key holds its last write;
 * 6. stop, wait until the group is empty (the next contender joins it),
 *    remove the state directory.
 * After the round ({@link cleanupRestore}) the topics and the group are deleted.
 * (Writing the changelog once per round and not once per contender saves a
 * 1,000,000-record transactional load per contender.)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kafka as KafkaClient } from 'kafkajs';
import { childFailure, childNotes, spawnChild, type BenchEvent } from './child.js';
import { createChangelogTopic, loadChangelog } from './changelog-loader.js';
import type { ContenderSpec, LaunchContext } from './contenders.js';
import { createRunTopics, deleteGroups, deleteTopicsWithPrefix, withAdmin } from './kafka.js';
import type { RunResult } from './result.js';
import { changelogValue, checkKeys, keysPresent, lastWriteOf, RESTORE_STORE, sampleKeys } from './stateful-workload.js';
import { PARTITIONS } from './workload.js';

const pendingCleanups: Promise<void>[] = [];

/** Resolves once every background topic/group deletion of restore runs has finished. */
export async function awaitRestoreCleanups(): Promise<void> {
  await Promise.all(pendingCleanups.splice(0));
}

/** The topics of one round's restore workload, written by {@link prepareRestore}. */
export interface PreparedRestore {
  /** Application id (and group) of every restore contender of the round; also the topics' prefix. */
  appId: string;
  input: string;
  changelog: string;
  records: number;
  keys: number;
  loadMs: number;
}

/** Steps 1-2: creates the round's input and changelog topics and writes the changelog. */
export async function prepareRestore(kafka: KafkaClient, appId: string, records: number, keys: number, log: (line: string) => void): Promise<PreparedRestore> {
  checkKeys(keys);
  const input = `${appId}-in`;
  const changelog = `${appId}-${RESTORE_STORE}-changelog`;
  await createRunTopics(kafka, input, undefined);
  await createChangelogTopic(kafka, changelog);
  const loadMs = await loadChangelog(kafka, changelog, records, keys);
  log(`  restore: wrote a ${records}-record changelog (${keys} keys) in ${loadMs} ms (${changelog})`);
  return { appId, input, changelog, records, keys, loadMs };
}

/** After the round: deletes the round's topics and group (in the background, see {@link awaitRestoreCleanups}). */
export function cleanupRestore(kafka: KafkaClient, appId: string): void {
  pendingCleanups.push(deleteTopicsWithPrefix(kafka, `${appId}-`).then(() => deleteGroups(kafka, [appId])));
}

/** Waits until `group` has no members (at most `timeoutMs`): a contender that left is gone before the next one joins. */
async function waitGroupEmpty(kafka: KafkaClient, group: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  await withAdmin(kafka, async (admin) => {
    while (Date.now() < deadline) {
      const state = (await admin.describeGroups([group]).catch(() => undefined))?.groups[0]?.state;
      if (state === undefined || state === 'Empty' || state === 'Dead') return;
      await new Promise((r) => setTimeout(r, 200));
    }
  }).catch(() => undefined);
}

/** Options of one restore run. */
export interface RestoreRunOptions {
  kafka: KafkaClient;
  base: Omit<LaunchContext, 'group' | 'input' | 'output'>;
  /** The round's topics ({@link prepareRestore}). */
  prepared: PreparedRestore;
  /** Unique name of this run (its state directory's prefix). */
  name: string;
  round: number;
  log: (line: string) => void;
  /** Bound on the restore phase (ms, from spawn). */
  timeoutMs: number;
}

/** The figures and the check of a finished restore, from the child's events (pure; unit-tested). */
export function evaluateRestore(events: BenchEvent[], spawnedAt: number, records: number, keys: number): Pick<RunResult, 'ok' | 'reason' | 'recordsPerSec' | 'seconds' | 'startupMs' | 'toRunningMs' | 'restoredRecords' | 'keys'> {
  const starts = events.filter((e) => e.event === 'restore-start');
  const ends = events.filter((e) => e.event === 'restore-end');
  const running = events.find((e) => e.event === 'running');
  const store = events.find((e) => e.event === 'store');
  const restored = ends.reduce((n, e) => n + Number(e['totalRestored'] ?? 0), 0);
  const partitions = new Set(ends.map((e) => Number(e['partition'])));
  const firstStart = Math.min(...starts.map((e) => e.t ?? Number.POSITIVE_INFINITY));
  const lastEnd = Math.max(...ends.map((e) => e.t ?? 0));
  const seconds = Number.isFinite(firstStart) && lastEnd > 0 ? Math.max(0.001, (lastEnd - firstStart) / 1000) : 0;
  const reasons: string[] = [];
  if (starts.length === 0) reasons.push('the restore listener reported no onRestoreStart');
  if (partitions.size !== PARTITIONS) reasons.push(`onRestoreEnd for ${partitions.size} of ${PARTITIONS} changelog partitions`);
  if (restored !== records) reasons.push(`restored ${restored} records, the changelog holds ${records}`);
  const present = keysPresent(records, keys);
  if (!store) reasons.push('the store was not read back');
  else {
    if (Number(store['entries']) !== present) reasons.push(`the store holds ${String(store['entries'])} entries, expected ${present}`);
    const samples = (store['samples'] ?? {}) as Record<string, unknown>;
    for (const j of sampleKeys(records, keys)) {
      const want = changelogValue(lastWriteOf(j, records, keys), keys);
      if (samples[`k${j}`] !== want) reasons.push(`k${j} holds ${JSON.stringify(samples[`k${j}`])}, expected its last write ${want}`);
    }
  }
  return {
    ok: reasons.length === 0, ...(reasons.length > 0 ? { reason: reasons.join(', ') } : {}),
    recordsPerSec: seconds > 0 ? restored / seconds : 0, seconds, restoredRecords: restored, keys: present,
    ...(Number.isFinite(firstStart) ? { startupMs: firstStart - spawnedAt } : {}),
    ...(running?.t !== undefined ? { toRunningMs: running.t - spawnedAt } : {}),
  };
}

/** One restore run of `spec`; never throws for a contender failure (the row is marked failed). */
export async function runRestore(spec: ContenderSpec, o: RestoreRunOptions): Promise<RunResult> {
  const began = Date.now();
  const result = await runRestoreOnce(spec, o);
  result.wallSeconds = (Date.now() - began) / 1000;
  o.log(`  ${spec.id} r${o.round}: ${result.ok ? 'OK' : `FAILED (${result.reason})`} ${Math.round(result.recordsPerSec)} rec/s restored, ` +
    `${result.seconds.toFixed(2)} s restoring, spawn->RUNNING ${result.toRunningMs ?? '-'} ms, RSS ${(result.maxRssKb / 1024).toFixed(0)} MiB, ` +
    `CPU ${result.cpuSeconds.toFixed(2)} s; run wall ${result.wallSeconds.toFixed(1)} s`);
  return result;
}

async function runRestoreOnce(spec: ContenderSpec, o: RestoreRunOptions): Promise<RunResult> {
  const { appId, input, records, keys, loadMs } = o.prepared;
  const stateDir = mkdtempSync(join(tmpdir(), `${o.name}-state-`));
  const ctx: LaunchContext = { ...o.base, group: appId, input, output: '-', stateDir, sampleKeys: sampleKeys(records, keys).map((j) => `k${j}`) };
  const fail = (reason: string, extra: Partial<RunResult> = {}): RunResult => ({
    id: spec.id, round: o.round, records, ok: false, reason, recordsPerSec: 0, seconds: 0,
    maxRssKb: 0, cpuSeconds: 0, usageSource: 'none', loadMs, ...extra,
  });
  try {
    // 3. a fresh instance restores the changelog
    const { command, args, env } = spec.launch(ctx);
    const child = spawnChild(command, args, env);
    let waitError: string | undefined;
    await Promise.race([child.waitFor('store', o.timeoutMs), child.waitFor('error', o.timeoutMs)]).catch((err: unknown) => {
      waitError = err instanceof Error ? err.message : String(err);
    });
    const usage = await child.stop();
    const notes = childNotes(child);
    const base = { loadMs, maxRssKb: usage.maxRssKb, cpuSeconds: usage.cpuSeconds, usageSource: usage.source, ...(notes.length > 0 ? { notes } : {}) };
    const failure = childFailure(child);
    if (failure !== undefined || !child.events.some((e) => e.event === 'store')) {
      return fail(failure ?? waitError ?? 'the contender stopped before reading the store back', base);
    }
    // 4-5. figures and check
    return { id: spec.id, round: o.round, records, ...evaluateRestore(child.events, child.spawnedAt, records, keys), ...base };
  } catch (err) {
    return fail(err instanceof Error ? err.message : String(err));
  } finally {
    // 6. the next contender joins the same group
    await waitGroupEmpty(o.kafka, appId, 40_000);
    rmSync(stateDir, { recursive: true, force: true });
  }
}
