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
  /** Directory for a V8 CPU profile of sluice exactly_once (`--profile`). */
  profileDir?: string;
}

/** How a contender is launched. */
export interface ContenderSpec {
  id: ContenderId;
  label: string;
  launch(ctx: LaunchContext): { command: string; args: string[] };
}

function nodeChild(ctx: LaunchContext, file: string, extra: string[], profile: boolean): { command: string; args: string[] } {
  const prof = profile && ctx.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${ctx.profileDir}`] : [];
  return {
    command: process.execPath,
    args: [...prof, '--import', 'tsx', join(ctx.benchDir, 'contenders', file),
      '--brokers', ctx.brokers.join(','), '--group', ctx.group, '--input', ctx.input, '--output', ctx.output, ...extra],
  };
}

/** All pipeline contenders (the broker limit is run by run-broker.ts). */
export const CONTENDERS: Record<Exclude<ContenderId, 'broker'>, ContenderSpec> = {
  'java-eos': {
    id: 'java-eos',
    label: 'Java Kafka Streams EOS v2',
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
    launch: (ctx) => nodeChild(ctx, 'sluice-app.ts', ['--guarantee', 'exactly_once'], true),
  },
  'sluice-alos': {
    id: 'sluice-alos',
    label: 'sluice at_least_once',
    launch: (ctx) => nodeChild(ctx, 'sluice-app.ts', ['--guarantee', 'at_least_once'], false),
  },
  kafkajs: {
    id: 'kafkajs',
    label: 'plain kafkajs EOS loop',
    launch: (ctx) => nodeChild(ctx, 'kafkajs-loop.ts', [], false),
  },
};

/** Labels of every row id, the broker rows included. */
export const LABELS: Record<string, string> = {
  'broker-produce': 'broker limit: ProducerPerformance',
  'broker-consume': 'broker limit: ConsumerPerformance',
  ...Object.fromEntries(Object.values(CONTENDERS).map((c) => [c.id, c.label])),
};
