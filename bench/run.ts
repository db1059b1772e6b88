/**
 * sluice benchmarks (issue #6 item 6, issue #9). See docs/benchmarks.md.
 *
 *   npm run bench [-- --records N] [--rounds R] [--only a,b] [--profile | --profile-all]
 *   npm run bench -- --compare [--records N] [--rounds R]
 *   --tsx: run the Node contenders through tsx instead of compiling them with tsc first
 *
 * Default: sluice exactly_once, sluice at_least_once and a plain kafkajs
 * exactly-once loop, 500,000 records, 1 round. --compare adds the broker limit
 * (ProducerPerformance/ConsumerPerformance) and Java Kafka Streams (EOS v2),
 * 3 rounds. Every run uses fresh topics and its own child process; its output
 * is verified (read_committed, complete, duplicate-free) before it counts.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ensureBroker } from './lib/broker.js';
import { CONTENDERS, type ContenderId } from './lib/contenders.js';
import { formatSelfTimes, topSelfTimes } from './lib/cpuprofile.js';
import { compileContenders } from './lib/compile.js';
import { buildJavaBench, DEFAULT_JAVA_KAFKA_VERSION } from './lib/java.js';
import { deleteAllWithPrefix, kafkaClient } from './lib/kafka.js';
import { aggregate, formatTable, LEGEND, writeJson } from './lib/report.js';
import type { RunResult } from './lib/result.js';
import { runBrokerLimit } from './lib/run-broker.js';
import { awaitCleanups, runPipeline } from './lib/run-pipeline.js';

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
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log('usage: npm run bench -- [--records N] [--compare] [--rounds R] [--only broker,java-eos,sluice-eos,sluice-alos,kafkajs] [--profile|--profile-all] [--timeout-s S] [--tsx]');
    process.exit(0);
  }
  const records = Number(values.records);
  const rounds = Number(values.rounds ?? (values.compare ? 3 : 1));
  if (!Number.isInteger(records) || records < 10 || records > 10_000_000) throw new Error(`--records: 10..10000000, got ${values.records}`);
  if (!Number.isInteger(rounds) || rounds < 1 || rounds > 20) throw new Error(`--rounds: 1..20, got ${values.rounds}`);
  const order: ContenderId[] = values.compare
    ? ['broker', 'java-eos', 'sluice-eos', 'sluice-alos', 'kafkajs']
    : ['sluice-eos', 'sluice-alos', 'kafkajs'];
  const only = values.only ? values.only.split(',').map((s) => s.trim()) : undefined;
  const unknown = only?.filter((id) => !['broker', ...Object.keys(CONTENDERS)].includes(id)) ?? [];
  if (unknown.length > 0) throw new Error(`--only: unknown contender(s) ${unknown.join(', ')}`);
  const contenders = only ? (['broker', 'java-eos', 'sluice-eos', 'sluice-alos', 'kafkajs'] as ContenderId[]).filter((c) => only.includes(c)) : order;
  // Each processing phase is bounded: at least 1,000 records/s or the run fails.
  const timeoutMs = values['timeout-s'] ? Number(values['timeout-s']) * 1000 : 60_000 + records;
  return { records, rounds, compare: values.compare, contenders, profile: values['profile-all'] ? 'all' : values.profile ? 'sluice-eos' : undefined, timeoutMs, tsx: values.tsx };
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
  let needsJava = o.contenders.includes('broker') || o.contenders.includes('java-eos');
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
      o.contenders = o.contenders.filter((c) => c !== 'broker' && c !== 'java-eos');
      needsJava = false;
    }
  }
  const needsNode = o.contenders.some((c) => c.startsWith('sluice') || c === 'kafkajs');
  const compiledDir = needsNode && !o.tsx ? compileContenders(repoRoot, log) : undefined;
  const runId = `sluice-bench-${Date.now().toString(36)}`;
  // --profile: sluice exactly_once, round 1; --profile-all: every Node contender, round 1.
  const profileDir = join(benchDir, 'results', 'profiles');
  const profileFiles = new Map<string, string>();
  for (const id of o.contenders) {
    if (id === 'sluice-eos' ? o.profile !== undefined : o.profile === 'all' && id !== 'broker' && id !== 'java-eos') {
      profileFiles.set(id, join(profileDir, `${runId}-${id}.cpuprofile`));
    }
  }
  if (profileFiles.size > 0) mkdirSync(profileDir, { recursive: true });
  log(`bench ${runId}: ${o.records} records, ${o.rounds} round(s), contenders ${o.contenders.join(', ')}; broker ${broker.brokers.join(',')} (Kafka ${broker.version ?? '?'})`);

  const results: RunResult[] = [];
  // Written after every run, so an interrupted run still leaves its figures (render-results.ts reads it).
  const partial = join(benchDir, 'results', `${runId}.partial.json`);
  const savePartial = (): void => {
    mkdirSync(dirname(partial), { recursive: true });
    writeFileSync(partial, `${JSON.stringify({ meta: { runId, records: o.records, rounds: o.rounds, partial: true }, results }, null, 2)}\n`);
  };
  for (let round = 1; round <= o.rounds; round++) {
    log(`round ${round}/${o.rounds}`);
    for (const id of o.contenders) {
      const name = `${runId}-${id}-r${round}`;
      if (id === 'broker') {
        results.push(...(await runBrokerLimit({ kafka, brokers: broker.brokers, javaClasspath: javaClasspath ?? '', name, round, records: o.records, timeoutMs: o.timeoutMs, log })));
        savePartial();
      } else {
        const base = { brokers: broker.brokers, benchDir, ...(compiledDir ? { compiledDir } : {}), ...(javaClasspath ? { javaClasspath } : {}), ...(profileFiles.has(id) && round === 1 ? { profileFile: profileFiles.get(id) } : {}) };
        results.push(await runPipeline(CONTENDERS[id], { kafka, base, name, round, records: o.records, timeoutMs: o.timeoutMs, log }));
        savePartial();
      }
    }
  }

  await awaitCleanups();
  const rows = aggregate(results);
  const table = formatTable(rows);
  const meta = {
    date: new Date().toISOString(), skipped, runId, gitCommit: versionOf('git', ['-C', repoRoot, 'rev-parse', '--short', 'HEAD']), nodeContenders: compiledDir ? 'tsc-compiled JavaScript' : 'tsx', records: o.records, rounds: o.rounds, compare: o.compare, elapsedSeconds: (Date.now() - started) / 1000,
    machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model, memoryGiB: Math.round(totalmem() / 2 ** 30) },
    versions: {
      node: process.version,
      kafkajs: (JSON.parse(readFileSync(join(repoRoot, 'node_modules', 'kafkajs', 'package.json'), 'utf8')) as { version: string }).version,
      kafkaBroker: broker.version ?? 'unknown',
      kafkaStreams: needsJava ? javaVersion : undefined,
      java: needsJava ? versionOf('java', ['-version']) : undefined,
    },
  };
  const file = writeJson(benchDir, { meta, rows, results });
  rmSync(partial, { force: true });
  console.log(`\n${o.records} records x ${o.rounds} round(s), ${meta.machine.cpus} CPUs, Node ${process.version}, Kafka ${meta.versions.kafkaBroker}\n`);
  console.log(table);
  console.log(`\n${LEGEND}`);
  for (const line of skipped) console.log(`\n${line}`);
  for (const r of results.filter((x) => !x.ok)) console.log(`\nFAILED ${r.id} round ${r.round}: ${r.reason ?? ''}`);
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
