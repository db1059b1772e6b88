/**
 * The `sluice reset` command line: resolves its flags (and a `--config`
 * properties file for the application id, the brokers and the ssl/sasl
 * settings of a secured cluster), connects, and runs {@link resetApplication}.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createKafkaCluster } from '../cluster/kafkajs/index.js';
import { checkSasl, checkSsl } from '../cluster/kafkajs/connection-security.js';
import { ConfigError } from '../errors.js';
import type { KafkaStreamsConfig } from '../runtime/config.js';
import { loadConfigFile, mergeFileConfig } from './config-file.js';
import { createCliLogger } from './logger.js';
import { parseBrokers } from './options.js';
import { resetApplication, type ResetOptions } from './reset-command.js';
import { parseDateTime, parseIsoDuration, parseResetPlan, type ResetTarget } from './reset-plan.js';

/** The flags of `sluice reset` as commander parses them. */
export interface ResetFlags {
  applicationId?: string;
  bootstrapServers?: string;
  inputTopics?: string;
  toEarliest?: boolean;
  toLatest?: boolean;
  toOffset?: string;
  shiftBy?: string;
  toDatetime?: string;
  byDuration?: string;
  fromFile?: string;
  dryRun?: boolean;
  stateDir?: string;
  config?: string;
}

const integer = (value: string, flag: string): number => {
  if (!/^-?\d+$/.test(value.trim())) throw new ConfigError(`${flag} must be an integer, got '${value}'`);
  return Number(value);
};

/** The reset position from the flags: exactly one of them, default `--to-earliest` (as Kafka's tool). */
export function resetTargetOf(flags: ResetFlags, cwd: string, now: number): ResetTarget {
  const given = (['toEarliest', 'toLatest', 'toOffset', 'shiftBy', 'toDatetime', 'byDuration', 'fromFile'] as const).filter((k) => flags[k] !== undefined && flags[k] !== false);
  if (given.length > 1) {
    const names = given.map((k) => `--${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`);
    throw new ConfigError(`${names.join(' and ')} exclude each other: pass one of --to-earliest, --to-latest, --to-offset, --shift-by, --to-datetime, --by-duration, --from-file`);
  }
  if (flags.toLatest) return { kind: 'latest' };
  if (flags.toOffset !== undefined) {
    const offset = integer(flags.toOffset, '--to-offset');
    if (offset < 0) throw new ConfigError(`--to-offset must be 0 or more, got ${offset}`);
    return { kind: 'offset', offset };
  }
  if (flags.shiftBy !== undefined) return { kind: 'shift', by: integer(flags.shiftBy, '--shift-by') };
  if (flags.toDatetime !== undefined) return { kind: 'datetime', timestamp: parseDateTime(flags.toDatetime) };
  if (flags.byDuration !== undefined) return { kind: 'datetime', timestamp: now - parseIsoDuration(flags.byDuration) };
  if (flags.fromFile !== undefined) return { kind: 'plan', offsets: parseResetPlan(readFileSync(resolve(cwd, flags.fromFile), 'utf8')) };
  return { kind: 'earliest' };
}

/** Runs `sluice reset`; resolves with the exit code (failures throw, and the CLI prints one `sluice:` line). */
export async function runReset(flags: ResetFlags, io: { stdout: NodeJS.WritableStream; env: Record<string, string | undefined>; cwd: string }): Promise<number> {
  // 1. The config file (application id, brokers, ssl/sasl), under the flags.
  const file = flags.config === undefined ? undefined : loadConfigFile(flags.config, io.env, io.cwd);
  const config: Partial<KafkaStreamsConfig> = mergeFileConfig({}, file);
  const applicationId = flags.applicationId ?? config.applicationId;
  if (!applicationId) throw new ConfigError('No application id: pass --application-id <id> (the consumer group of the app), or application.id in --config');
  const brokersText = flags.bootstrapServers ?? io.env.KAFKA_BROKERS;
  const brokers = brokersText !== undefined ? parseBrokers(brokersText) : (config.bootstrapServers as string[] | string | undefined);
  if (brokers === undefined || brokers.length === 0) throw new ConfigError('No Kafka to reset on: pass --bootstrap-servers host:port (or set KAFKA_BROKERS), or bootstrap.servers in --config');
  // 2. The reset itself.
  const options: ResetOptions = {
    applicationId,
    inputTopics: (flags.inputTopics ?? '').split(',').map((t) => t.trim()).filter((t) => t !== ''),
    target: resetTargetOf(flags, io.cwd, Date.now()),
    dryRun: flags.dryRun === true,
    stateDir: flags.stateDir,
  };
  const logger = createCliLogger('warn', { destination: io.stdout });
  const cluster = createKafkaCluster({ bootstrapServers: typeof brokers === 'string' ? brokers.split(',') : brokers, logger, ssl: checkSsl(config.ssl), sasl: checkSasl(config.sasl) });
  const admin = cluster.admin();
  try {
    await resetApplication(options, admin, (line) => void io.stdout.write(`${line}\n`));
  } finally {
    await admin.close().catch(() => undefined);
  }
  return 0;
}
