/** The contenders of a benchmark run and how each is started. */
import { join } from 'node:path';
import { SCALING_IDS, scalingLabel, parseScalingId, type ScalingId } from './scaling.js';
import { sluiceEosUi } from './ui-contender.js';

/** Identifier of a contender, in the order of a round. */
export type ContenderId =
  | 'broker' | 'java-eos' | 'sluice-eos' | 'sluice-alos' | 'kafkajs'
  | 'kafkats-eos' | 'kafkats-alos' | 'sluice-eos-ui'
  | 'java-count' | 'sluice-count'
  | 'java-windowed-count' | 'sluice-windowed-count'
  | 'java-restore' | 'sluice-restore-memory' | 'sluice-restore-persistent'
  | 'java-versioned-join' | 'sluice-versioned-join'
  | ScalingId
  | 'sluice-async' | 'sluice-async-sequential' | 'kafkajs-async';

/**
 * What a contender runs: the stateless pipeline (issue #6/#9), count per key
 * (issue #15), restoring a store from its changelog (issue #15) or a
 * suppressed count per key and 1-minute tumbling window (issue 17, windowed-workload.ts), or
 * a stream–table join over a versioned table (issue 30, versioned-join-workload.ts), or
 * the stateless exactly-once pipeline on 1, 2 and 4 instances, processes or stream threads (issue 32, scaling.ts); `async`:
 * an enrichment calling a 20 ms service per record (issue 33, bench/async-enrichment.ts, run-async.ts).
 */
export type Workload = 'pipeline' | 'count' | 'restore' | 'windowed' | 'versioned-join' | 'scaling' | 'async';

/** Every workload, in the order of a round. */
export const WORKLOADS: readonly Workload[] = ['pipeline', 'count', 'restore', 'windowed', 'versioned-join', 'scaling', 'async'];

/** Contenders of each workload, in the order of a round (`broker` is the broker limit, run by run-broker.ts). */
export const WORKLOAD_CONTENDERS: Record<Workload, ContenderId[]> = {
  pipeline: ['broker', 'java-eos', 'sluice-eos', 'sluice-alos', 'kafkajs', 'kafkats-eos', 'kafkats-alos', 'sluice-eos-ui'],
  count: ['java-count', 'sluice-count'],
  restore: ['java-restore', 'sluice-restore-memory', 'sluice-restore-persistent'],
  windowed: ['java-windowed-count', 'sluice-windowed-count'],
  'versioned-join': ['java-versioned-join', 'sluice-versioned-join'],
  scaling: [...SCALING_IDS],
  async: ['sluice-async', 'sluice-async-sequential', 'kafkajs-async'],
};

/** The Java Kafka Streams contender each row is compared with ("vs Java KS"); the async workload has none. */
export const JAVA_REFERENCE: Partial<Record<Workload, ContenderId>> = { pipeline: 'java-eos', count: 'java-count', restore: 'java-restore', windowed: 'java-windowed-count', 'versioned-join': 'java-versioned-join', scaling: 'java-eos-t1' };

/** True for the contenders that need bench/java. */
export function isJava(id: ContenderId): boolean {
  return id === 'broker' || id.startsWith('java-');
}

/** Everything a contender's command line may need. */
export interface LaunchContext {
  brokers: string[];
  group: string;
  input: string;
  output: string;
  benchDir: string;
  /** Classpath of bench/java (compare mode only). */
  javaClasspath?: string;
  /** Root of the tsc-compiled contenders (compile.ts); absent: run the .ts files through tsx. */
  compiledDir?: string;
  /** File for a V8 CPU profile (steady state) of this contender (`--profile`, `--profile-all`). */
  profileFile?: string;
  /** A fresh, empty state directory for this run (stateful workloads). */
  stateDir?: string;
  /** Keys whose stored values a restore contender reports (`k0,k5,...`). */
  sampleKeys?: string[];
}

/** How a contender is launched. */
export interface ContenderSpec {
  id: ContenderId;
  label: string;
  workload: Workload;
  /**
   * When the run is complete: `committed` = every input offset committed (the
   * exactly-once contenders: output is visible only then); `output` = every
   * expected output record appended (at-least-once: output is visible as soon as
   * it is written, the offset commit may lag by the commit interval);
   * `restored` = the child reported the end of every changelog partition's restoration (run-restore.ts).
   */
  completion: 'committed' | 'output' | 'restored';
  /** Processes started with `launch` for one run, all in the run's group (scaling workload; default 1). */
  instances?: number;
  launch(ctx: LaunchContext): Launch;
}

/** A command line and extra environment. */
export interface Launch {
  command: string;
  args: string[];
  env?: Record<string, string>;
}

function nodeChild(ctx: LaunchContext, file: string, extra: string[]): Launch {
  return {
    command: process.execPath,
    args: [...(ctx.compiledDir
      ? [join(ctx.compiledDir, 'bench', 'contenders', file.replace(/\.ts$/, '.js'))]
      : ['--import', 'tsx', join(ctx.benchDir, 'contenders', file)]),
      '--brokers', ctx.brokers.join(','), '--group', ctx.group, '--input', ctx.input, '--output', ctx.output,
      ...(ctx.stateDir ? ['--state-dir', ctx.stateDir] : []), ...(ctx.sampleKeys ? ['--samples', ctx.sampleKeys.join(',')] : []), ...extra],
    ...(ctx.profileFile ? { env: { BENCH_CPU_PROFILE: ctx.profileFile } } : {}),
  };
}

/** The Java Kafka Streams pipeline; `threads`: its `num.stream.threads` (default 1). */
function javaPipeline(ctx: LaunchContext, threads?: number): Launch {
  if (!ctx.javaClasspath) throw new Error('bench/java is not built');
  return {
    command: 'java',
    args: ['-cp', ctx.javaClasspath, 'dev.sluice.bench.KafkaStreamsBench', ctx.brokers.join(','), ctx.group, ctx.input, ctx.output,
      ...(threads === undefined ? [] : [String(threads)])],
  };
}

/**
 * A scaling row: N sluice exactly_once processes in one group, one sluice
 * process with N stream threads (`--threads N`: worker threads), or one JVM
 * with N stream threads.
 */
function scalingContender(id: ScalingId): ContenderSpec {
  const { family, instances } = parseScalingId(id) ?? { family: 'sluice', instances: 1 };
  const row = { id, label: scalingLabel(id), workload: 'scaling', completion: 'committed' } as const;
  if (family === 'java') return { ...row, launch: (ctx) => javaPipeline(ctx, instances) };
  if (family === 'sluice-threads') {
    return { ...row, launch: (ctx) => nodeChild(ctx, 'sluice-app.ts', ['--guarantee', 'exactly_once', '--threads', String(instances)]) };
  }
  return { ...row, instances, launch: (ctx) => nodeChild(ctx, 'sluice-app.ts', ['--guarantee', 'exactly_once']) };
}

/**
 * The async workload's contenders run bench/async-enrichment.ts (through tsx, whatever
 * --compiled says) with `--only <its name there>`; run-async.ts reads its JSON line.
 */
function asyncChild(ctx: LaunchContext, only: string): Launch {
  return { command: process.execPath, args: ['--import', 'tsx', join(ctx.benchDir, 'async-enrichment.ts'), '--brokers', ctx.brokers.join(','), '--only', only, '--json'] };
}

/** The async workload's contenders (issue 33). */
const ASYNC_CONTENDERS: Record<'sluice-async' | 'sluice-async-sequential' | 'kafkajs-async', ContenderSpec> = {
  'sluice-async': {
    id: 'sluice-async', label: 'sluice mapValuesAsync (concurrency 64), exactly_once', workload: 'async', completion: 'committed',
    launch: (ctx) => asyncChild(ctx, 'sluice-async'),
  },
  'sluice-async-sequential': {
    id: 'sluice-async-sequential', label: 'sluice process() awaiting each call, exactly_once', workload: 'async', completion: 'committed',
    launch: (ctx) => asyncChild(ctx, 'sluice-sequential'),
  },
  'kafkajs-async': {
    id: 'kafkajs-async', label: 'plain kafkajs EOS loop, Promise.all per batch', workload: 'async', completion: 'committed',
    launch: (ctx) => asyncChild(ctx, 'kafkajs-promise-all'),
  },
};

/** All contenders (the broker limit is run by run-broker.ts). */
export const CONTENDERS: Record<Exclude<ContenderId, 'broker'>, ContenderSpec> = {
  ...ASYNC_CONTENDERS,
  'java-eos': {
    id: 'java-eos',
    label: 'Java Kafka Streams EOS v2',
    workload: 'pipeline',
    completion: 'committed',
    launch: (ctx) => javaPipeline(ctx),
  },
  'sluice-eos': {
    id: 'sluice-eos',
    label: 'sluice exactly_once',
    workload: 'pipeline',
    completion: 'committed',
    launch: (ctx) => nodeChild(ctx, 'sluice-app.ts', ['--guarantee', 'exactly_once']),
  },
  'sluice-alos': {
    id: 'sluice-alos',
    label: 'sluice at_least_once',
    workload: 'pipeline',
    completion: 'output',
    launch: (ctx) => nodeChild(ctx, 'sluice-app.ts', ['--guarantee', 'at_least_once']),
  },
  // Issue 20: sluice-eos with the live UI served and a headless chromium attached (bench/lib/ui-contender.ts).
  'sluice-eos-ui': sluiceEosUi(() => CONTENDERS['sluice-eos']),
  kafkajs: {
    id: 'kafkajs',
    label: 'plain kafkajs EOS loop',
    workload: 'pipeline',
    completion: 'committed',
    launch: (ctx) => nodeChild(ctx, 'kafkajs-loop.ts', []),
  },
  'kafkats-eos': {
    id: 'kafkats-eos',
    label: '@kafkats/flow exactly_once',
    workload: 'pipeline',
    completion: 'committed',
    launch: (ctx) => nodeChild(ctx, 'kafkats-flow.ts', ['--guarantee', 'exactly_once']),
  },
  'kafkats-alos': {
    id: 'kafkats-alos',
    label: '@kafkats/flow at_least_once',
    workload: 'pipeline',
    completion: 'output',
    launch: (ctx) => nodeChild(ctx, 'kafkats-flow.ts', ['--guarantee', 'at_least_once']),
  },
  'java-count': {
    id: 'java-count',
    label: 'Java Kafka Streams EOS v2 count',
    workload: 'count',
    completion: 'committed',
    launch: (ctx) => javaState(ctx, 'count', ctx.output),
  },
  'sluice-count': {
    id: 'sluice-count',
    label: 'sluice exactly_once count',
    workload: 'count',
    completion: 'committed',
    launch: (ctx) => nodeChild(ctx, 'sluice-count.ts', []),
  },
  'java-windowed-count': {
    id: 'java-windowed-count',
    label: 'Java Kafka Streams EOS v2 windowed count',
    workload: 'windowed',
    completion: 'committed',
    launch: (ctx) => javaState(ctx, 'windowed', ctx.output),
  },
  'sluice-windowed-count': {
    id: 'sluice-windowed-count',
    label: 'sluice exactly_once windowed count',
    workload: 'windowed',
    completion: 'committed',
    launch: (ctx) => nodeChild(ctx, 'sluice-windowed-count.ts', []),
  },
  'java-versioned-join': {
    id: 'java-versioned-join',
    label: 'Java Kafka Streams EOS v2 versioned-table join',
    workload: 'versioned-join',
    completion: 'committed',
    launch: (ctx) => javaState(ctx, 'versioned-join', ctx.output),
  },
  'sluice-versioned-join': {
    id: 'sluice-versioned-join',
    label: 'sluice exactly_once versioned-table join',
    workload: 'versioned-join',
    completion: 'committed',
    launch: (ctx) => nodeChild(ctx, 'sluice-versioned-join.ts', []),
  },
  'java-restore': {
    id: 'java-restore',
    label: 'restore Java Kafka Streams RocksDB',
    workload: 'restore',
    completion: 'restored',
    launch: (ctx) => javaState(ctx, 'restore', (ctx.sampleKeys ?? []).join(',')),
  },
  'sluice-restore-memory': {
    id: 'sluice-restore-memory',
    label: 'restore sluice in-memory',
    workload: 'restore',
    completion: 'restored',
    launch: (ctx) => nodeChild(ctx, 'sluice-restore.ts', ['--store', 'in-memory']),
  },
  'sluice-restore-persistent': {
    id: 'sluice-restore-persistent',
    label: 'restore sluice persistent',
    workload: 'restore',
    completion: 'restored',
    launch: (ctx) => nodeChild(ctx, 'sluice-restore.ts', ['--store', 'persistent']),
  },
  ...(Object.fromEntries(SCALING_IDS.map((id) => [id, scalingContender(id)])) as Record<ScalingId, ContenderSpec>),
};

/** bench/java's KafkaStreamsStateBench: `mode bootstrap applicationId input output|samples stateDir`. */
function javaState(ctx: LaunchContext, mode: 'count' | 'restore' | 'windowed' | 'versioned-join', last: string): Launch {
  if (!ctx.javaClasspath) throw new Error('bench/java is not built');
  if (!ctx.stateDir) throw new Error(`the Java ${mode} contender needs a state directory`);
  return {
    command: 'java',
    args: ['-cp', ctx.javaClasspath, 'dev.sluice.bench.KafkaStreamsStateBench', mode, ctx.brokers.join(','), ctx.group, ctx.input, last || '-', ctx.stateDir],
  };
}


/** Labels of every row id, the broker rows included. */
export const LABELS: Record<string, string> = {
  'broker-produce': 'broker limit: ProducerPerformance',
  'broker-consume': 'broker limit: ConsumerPerformance',
  ...Object.fromEntries(Object.values(CONTENDERS).map((c) => [c.id, c.label])),
};
