/** The contenders of a benchmark run and how each is started. */
import { join } from 'node:path';

/** Identifier of a contender, in the order of a round. */
export type ContenderId = 'broker' | 'java-eos' | 'sluice-eos' | 'sluice-alos' | 'kafkajs';

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
}

/** How a contender is launched. */
export interface ContenderSpec {
  id: ContenderId;
  label: string;
  /**
   * When the run is complete: `committed` = every input offset committed (the
   * exactly-once contenders: output is visible only then); `output` = every
   * expected output record appended (at-least-once: output is visible as soon as
   * it is written, the offset commit may lag by the commit interval).
   */
  completion: 'committed' | 'output';
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
      '--brokers', ctx.brokers.join(','), '--group', ctx.group, '--input', ctx.input, '--output', ctx.output, ...extra],
    ...(ctx.profileFile ? { env: { BENCH_CPU_PROFILE: ctx.profileFile } } : {}),
  };
}

/** All pipeline contenders (the broker limit is run by run-broker.ts). */
export const CONTENDERS: Record<Exclude<ContenderId, 'broker'>, ContenderSpec> = {
  'java-eos': {
    id: 'java-eos',
    label: 'Java Kafka Streams EOS v2',
    completion: 'committed',
    launch: (ctx) => {
      if (!ctx.javaClasspath) throw new Error('bench/java is not built');
      return {
        command: 'java',
        args: ['-cp', ctx.javaClasspath, 'dev.sluice.bench.KafkaStreamsBench', ctx.brokers.join(','), ctx.group, ctx.input, ctx.output],
      };
    },
  },
  'sluice-eos': {
    id: 'sluice-eos',
    label: 'sluice exactly_once',
    completion: 'committed',
    launch: (ctx) => nodeChild(ctx, 'sluice-app.ts', ['--guarantee', 'exactly_once']),
  },
  'sluice-alos': {
    id: 'sluice-alos',
    label: 'sluice at_least_once',
    completion: 'output',
    launch: (ctx) => nodeChild(ctx, 'sluice-app.ts', ['--guarantee', 'at_least_once']),
  },
  kafkajs: {
    id: 'kafkajs',
    label: 'plain kafkajs EOS loop',
    completion: 'committed',
    launch: (ctx) => nodeChild(ctx, 'kafkajs-loop.ts', []),
  },
};

/** Labels of every row id, the broker rows included. */
export const LABELS: Record<string, string> = {
  'broker-produce': 'broker limit: ProducerPerformance',
  'broker-consume': 'broker limit: ConsumerPerformance',
  ...Object.fromEntries(Object.values(CONTENDERS).map((c) => [c.id, c.label])),
};
