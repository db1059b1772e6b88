/**
 * sluice benchmarks (issue #6 item 6, issue #9). See docs/benchmarks.md.
 *
 *   npm run bench [-- --records N] [--rounds R] [--only a,b] [--profile | --profile-all]
 *   npm run bench -- --compare [--records N] [--rounds R]
 *   npm run bench -- --compare --records 500000,2000000   (pipeline at both sizes: peak RSS side by side)
 *   npm run bench -- --workload count|restore|windowed|versioned-join|scaling|async|pipeline,count,... [--keys K] [--restore-records N] [--restore-keys K]
 *   --tsx: run the Node contenders through tsx instead of compiling them with tsc first
 *   --compiled DIR: run the Node contenders of an already compiled tree (a copy of bench/.build made before a change: A/B runs)
 *
 * Default: the stateless pipeline on sluice exactly_once, sluice
 * at_least_once, a plain kafkajs exactly-once loop and @kafkats/flow
 * (exactly_once, at_least_once), 500,000 records, 1 round; then issue 18's
 * goal lines. --compare adds the broker limit (ProducerPerformance /
 * ConsumerPerformance), Java Kafka Streams (EOS v2) and the stateful
 * workloads (count per key; restore throughput; windowed count; versioned-table join) and the
 * scaling rows (sluice exactly_once on 1, 2, 4 processes and on 2, 4 stream threads in one process; Java with 1, 2, 4 stream threads), 3 rounds. Every run uses
 * fresh topics and its own child process; its output is verified
 * (read_committed, complete, duplicate-free; counts exact; every window once; restore complete)
 * before it counts.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ensureBroker } from './lib/broker.js';
import { CONTENDERS, isJava, WORKLOAD_CONTENDERS, WORKLOADS, type ContenderId, type Workload } from './lib/contenders.js';
import { formatSelfTimes, topSelfTimes } from './lib/cpuprofile.js';
import { compileContenders } from './lib/compile.js';
import { buildJavaBench, DEFAULT_JAVA_KAFKA_VERSION } from './lib/java.js';
import { deleteAllWithPrefix, kafkaClient } from './lib/kafka.js';
import { LEGEND, writeJson } from './lib/report.js';
import type { RunResult } from './lib/result.js';
import { runBrokerLimit } from './lib/run-broker.js';
import { awaitCleanups, runPipeline } from './lib/run-pipeline.js';
import { awaitVersionedJoinCleanups, runVersionedJoin } from './lib/run-versioned-join.js';
import { runAsyncWorkload } from './lib/run-async.js';
import { awaitRestoreCleanups, cleanupRestore, prepareRestore, runRestore, type PreparedRestore } from './lib/run-restore.js';
import { summarise } from './lib/summary.js';
import { checkKeys, COUNT_KEYS, RESTORE_KEYS, RESTORE_RECORDS } from './lib/stateful-workload.js';

const benchDir = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(benchDir, '..');
const log = (line: string): void => void process.stderr.write(`${line}\n`);

function options() {
  const { values } = parseArgs({
    options: {
      records: { type: 'string', default: '500000' },
      compare: { type: 'boolean', default: false },
      rounds: { type: 'string' },
      only: { type: 'string' },
      profile: { type: 'boolean', default: false },
      'profile-all': { type: 'boolean', default: false },
      'timeout-s': { type: 'string' },
      tsx: { type: 'boolean', default: false },
      compiled: { type: 'string' },
      workload: { type: 'string' },
      keys: { type: 'string', default: String(COUNT_KEYS) },
      'restore-records': { type: 'string', default: String(RESTORE_RECORDS) },
      'restore-keys': { type: 'string', default: String(RESTORE_KEYS) },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log('usage: npm run bench -- [--records N|N1,N2,...] [--compare] [--rounds R] [--workload pipeline,count,restore,windowed,versioned-join,scaling,async] [--only <ids>] [--keys K] ' +
      '[--restore-records N] [--restore-keys K] [--profile|--profile-all] [--timeout-s S] [--tsx | --compiled DIR]\n' +
      `contender ids: ${WORKLOADS.map((w) => `${w}: ${WORKLOAD_CONTENDERS[w].join(',')}`).join('; ')}`);
    process.exit(0);
  }
  // --records N or N1,N2,...: the pipeline contenders run at every size (peak RSS side by side, issue 18); the first is the main one.
  const recordSizes = values.records.split(',').map((n) => Number(n.trim()));
  const records = recordSizes[0] ?? Number.NaN;
  const rounds = Number(values.rounds ?? (values.compare ? 3 : 1));
  const keys = Number(values.keys);
  const restoreRecords = Number(values['restore-records']);
  const restoreKeys = Number(values['restore-keys']);
  if (recordSizes.some((n) => !Number.isInteger(n) || n < 10 || n > 10_000_000)) throw new Error(`--records: N or N1,N2,... each 10..10000000, got ${values.records}`);
  if (new Set(recordSizes).size !== recordSizes.length) throw new Error(`--records: every size once, got ${values.records}`);
  if (!Number.isInteger(rounds) || rounds < 1 || rounds > 20) throw new Error(`--rounds: 1..20, got ${values.rounds}`);
  if (!Number.isInteger(restoreRecords) || restoreRecords < 10 || restoreRecords > 10_000_000) throw new Error(`--restore-records: 10..10000000, got ${values['restore-records']}`);
  checkKeys(keys);
  checkKeys(restoreKeys);
  // --workload picks the workloads; without it: the pipeline, and with --compare every workload.
  const workloads = (values.workload ? values.workload.split(',').map((w) => w.trim()) : values.compare ? [...WORKLOADS] : ['pipeline']) as Workload[];
  const badWorkloads = workloads.filter((w) => !WORKLOADS.includes(w));
  if (badWorkloads.length > 0) throw new Error(`--workload: unknown workload(s) ${badWorkloads.join(', ')}; known: ${WORKLOADS.join(', ')}`);
  // The pipeline's JVM rows (broker limit, Java KS) need --compare; the stateful workloads always run side by side with Java.
  const defaultOrder = WORKLOADS.filter((w) => workloads.includes(w))
    .flatMap((w) => WORKLOAD_CONTENDERS[w].filter((c) => w !== 'pipeline' || values.compare || !isJava(c)));
  const only = values.only ? values.only.split(',').map((s) => s.trim()) : undefined;
  const known: string[] = WORKLOADS.flatMap((w) => WORKLOAD_CONTENDERS[w]);
  const unknown = only?.filter((id) => !known.includes(id)) ?? [];
  if (unknown.length > 0) throw new Error(`--only: unknown contender(s) ${unknown.join(', ')}; known: ${known.join(', ')}`);
  // --only picks from every workload (in round order), whatever --workload says.
  const contenders = only ? (known as ContenderId[]).filter((c) => only.includes(c)) : defaultOrder;
  // Each processing phase is bounded: at least 1,000 records/s or the run fails (per size).
  const timeoutFor = (n: number): number => (values['timeout-s'] ? Number(values['timeout-s']) * 1000 : 60_000 + n);
  const timeoutMs = timeoutFor(records);
  const restoreTimeoutMs = values['timeout-s'] ? Number(values['timeout-s']) * 1000 : 60_000 + restoreRecords;
  return {
    records, recordSizes, timeoutFor, rounds, keys, restoreRecords, restoreKeys, compare: values.compare, contenders,
    profile: values['profile-all'] ? 'all' : values.profile ? 'sluice-eos' : undefined, timeoutMs, restoreTimeoutMs, tsx: values.tsx, compiled: values.compiled,
  };
}

function versionOf(cmd: string, args: string[]): string {
  // `java -version` prints on stderr.
  const r = spawnSync(cmd, args, { encoding: 'utf8' });
  return `${r.stdout ?? ''}${r.stderr ?? ''}`.split('\n')[0]?.trim() || 'unknown';
}

async function main(): Promise<void> {
  const o = options();
  const started = Date.now();
  const broker = await ensureBroker(repoRoot, log);
  const kafka = kafkaClient(broker.brokers);
  const javaVersion = broker.version ?? DEFAULT_JAVA_KAFKA_VERSION;
  let needsJava = o.contenders.some(isJava);
  let javaClasspath: string | undefined;
  const skipped: string[] = [];
  if (needsJava) {
    try {
      javaClasspath = buildJavaBench(benchDir, javaVersion, log);
    } catch (err) {
      // Without java/mvn the JVM contenders are skipped (and said so), the others still run.
      const why = err instanceof Error ? err.message : String(err);
      skipped.push(`SKIPPED broker limit and Java Kafka Streams: ${why}`);
      log(skipped[0] ?? '');
      o.contenders = o.contenders.filter((c) => !isJava(c));
      needsJava = false;
    }
  }
  const needsNode = o.contenders.some((c) => !isJava(c));
  const compiledDir = needsNode && !o.tsx ? (o.compiled !== undefined ? resolve(o.compiled) : compileContenders(repoRoot, log)) : undefined;
  const runId = `sluice-bench-${Date.now().toString(36)}`;
  // --profile: sluice exactly_once, round 1; --profile-all: every Node contender, round 1.
  const profileDir = join(benchDir, 'results', 'profiles');
  const profileFiles = new Map<string, string>();
  for (const id of o.contenders) {
    if (id === 'sluice-eos' ? o.profile !== undefined : o.profile === 'all' && !isJava(id)) {
      profileFiles.set(id, join(profileDir, `${runId}-${id}.cpuprofile`));
    }
  }
  if (profileFiles.size > 0) mkdirSync(profileDir, { recursive: true });
  log(`bench ${runId}: ${o.recordSizes.join(' and ')} records (count: ${o.keys} keys; restore: ${o.restoreRecords} records, ${o.restoreKeys} keys), ${o.rounds} round(s), ` +
    `contenders ${o.contenders.join(', ')}; broker ${broker.brokers.join(',')} (Kafka ${broker.version ?? '?'})`);

  const results: RunResult[] = [];
  // Written after every run, so an interrupted run still leaves its figures (render-results.ts reads it).
  const partial = join(benchDir, 'results', `${runId}.partial.json`);
  const savePartial = (): void => {
    mkdirSync(dirname(partial), { recursive: true });
    writeFileSync(partial, `${JSON.stringify({ meta: { runId, records: o.records, recordSizes: o.recordSizes, rounds: o.rounds, restoreRecords: o.restoreRecords, partial: true }, results }, null, 2)}\n`);
  };
  for (let round = 1; round <= o.rounds; round++) {
    log(`round ${round}/${o.rounds}`);
    // The restore contenders of a round share one changelog, written before the first of them (run-restore.ts).
    let restore: PreparedRestore | Error | undefined;
    for (const id of o.contenders) {
      const name = `${runId}-${id}-r${round}`;
      if (id === 'broker') {
        results.push(...(await runBrokerLimit({ kafka, brokers: broker.brokers, javaClasspath: javaClasspath ?? '', name, round, records: o.records, timeoutMs: o.timeoutMs, log })));
        savePartial();
      } else {
        const base = { brokers: broker.brokers, benchDir, ...(compiledDir ? { compiledDir } : {}), ...(javaClasspath ? { javaClasspath } : {}), ...(profileFiles.has(id) && round === 1 ? { profileFile: profileFiles.get(id) } : {}) };
        const spec = CONTENDERS[id];
        if (spec.workload === 'restore') {
          restore ??= await prepareRestore(kafka, `${runId}-restore-r${round}`, o.restoreRecords, o.restoreKeys, log).catch((err: unknown) => (err instanceof Error ? err : new Error(String(err))));
          results.push(restore instanceof Error
            ? { id, round, records: o.restoreRecords, ok: false, reason: `writing the changelog failed: ${restore.message}`, recordsPerSec: 0, seconds: 0, maxRssKb: 0, cpuSeconds: 0, usageSource: 'none' }
            : await runRestore(spec, { kafka, base, prepared: restore, name, round, timeoutMs: o.restoreTimeoutMs, log }));
        } else if (spec.workload === 'pipeline') {
          // Every --records size; the runs at the extra sizes are named -n<size>.
          for (const records of o.recordSizes) {
            const main = records === o.records;
            // A contender that failed at the main size in this round is not run at the others (kafkats-eos would sit out a 2,060 s bound at 2,000,000).
            const failedMain = results.find((r) => r.id === id && r.round === round && r.records === o.records && !r.ok);
            if (!main && failedMain) {
              log(`  ${id} r${round}: skipped at ${records} records (failed at ${o.records} in this round)`);
              results.push({ id, round, records, ok: false, reason: `not run: failed at ${o.records} records in this round`, recordsPerSec: 0, seconds: 0, maxRssKb: 0, cpuSeconds: 0, usageSource: 'none' });
              continue;
            }
            // The CPU profile is of the main size only.
            const { profileFile: _profile, ...unprofiled } = base;
            results.push(await runPipeline(spec, { kafka, base: main ? base : unprofiled, name: main ? name : `${name}-n${records}`, round, records, keys: o.keys, timeoutMs: o.timeoutFor(records), log, ...(broker.pid !== undefined ? { brokerPid: broker.pid } : {}) }));
            savePartial();
          }
        } else if (spec.workload === 'async') {
          results.push(runAsyncWorkload(spec, { base, round, timeoutMs: o.timeoutMs, log }));
        } else if (spec.workload === 'versioned-join') {
          results.push(await runVersionedJoin(spec, { kafka, base, name, round, records: o.records, keys: o.keys, timeoutMs: o.timeoutMs, log }));
        } else {
          results.push(await runPipeline(spec, { kafka, base, name, round, records: o.records, keys: o.keys, timeoutMs: o.timeoutMs, log, ...(broker.pid !== undefined ? { brokerPid: broker.pid } : {}) }));
        }
        savePartial();
      }
    }
    if (restore !== undefined) cleanupRestore(kafka, `${runId}-restore-r${round}`);
  }

  await awaitCleanups();
  await awaitRestoreCleanups();
  await awaitVersionedJoinCleanups();
  const summary = summarise(results, o.recordSizes);
  const rows = summary.rows;
  const meta = {
    date: new Date().toISOString(), skipped, runId, gitCommit: versionOf('git', ['-C', repoRoot, 'rev-parse', '--short', 'HEAD']), nodeContenders: compiledDir ? 'tsc-compiled JavaScript' : 'tsx', records: o.records, recordSizes: o.recordSizes, rounds: o.rounds,
    countKeys: o.keys, restoreRecords: o.restoreRecords, restoreKeys: o.restoreKeys, compare: o.compare, elapsedSeconds: (Date.now() - started) / 1000,
    machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model, memoryGiB: Math.round(totalmem() / 2 ** 30) },
    versions: {
      node: process.version,
      kafkajs: (JSON.parse(readFileSync(join(repoRoot, 'node_modules', 'kafkajs', 'package.json'), 'utf8')) as { version: string }).version,
      kafkaBroker: broker.version ?? 'unknown',
      kafkaStreams: needsJava ? javaVersion : undefined,
      java: needsJava ? versionOf('java', ['-version']) : undefined,
    },
  };
  const file = writeJson(benchDir, { meta, rows, rssBySize: summary.rss, goals: summary.goals, results });
  rmSync(partial, { force: true });
  console.log(`\n${o.records} records x ${o.rounds} round(s)${o.recordSizes.length > 1 ? ` (pipeline also at ${o.recordSizes.slice(1).join(', ')}: peak RSS table)` : ''}, ` +
    `${meta.machine.cpus} CPUs, Node ${process.version}, Kafka ${meta.versions.kafkaBroker}\n`);
  console.log(summary.text);
  console.log(`\n${LEGEND}`);
  for (const line of skipped) console.log(`\n${line}`);
  for (const r of results.filter((x) => !x.ok)) console.log(`\nFAILED ${r.id} round ${r.round}${o.recordSizes.length > 1 ? ` (${r.records} records)` : ''}: ${r.reason ?? ''}`);
  for (const [id, notes] of new Map(results.filter((r) => r.notes).map((r) => [r.id, [...new Set(r.notes)]]))) for (const n of notes) console.log(`\nNOTE ${id}: ${n}`);
  for (const [id, profileFile] of profileFiles) {
    if (!existsSync(profileFile)) continue;
    console.log(`\nCPU profile of ${id}, round 1, steady state (${profileFile}):\n`);
    console.log(formatSelfTimes(topSelfTimes(profileFile, 15)));
  }
  console.log(`\nresults: ${file} (${meta.elapsedSeconds.toFixed(0)} s)`);
  // Groups of children that exited without leaving can only go once their session expired (bounded wait).
  const left = await deleteAllWithPrefix(kafka, runId, 40_000);
  if (left.topics + left.groups > 0) log(`cleanup: ${left.topics} topic(s) and ${left.groups} group(s) named ${runId}-* left on the broker`);
}

main().catch((err: unknown) => {
  console.error(`bench: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
