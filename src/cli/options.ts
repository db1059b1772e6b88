/**
 * Options of `sluice run`: command-line flags first, then environment
 * variables, then the app module's own `config`. Every problem is a one-line
 * {@link ConfigError} naming the flag or variable to change. A flag that sets
 * a config key (`--application-id`, `--processing-guarantee`,
 * `--commit-interval-ms`, `--group-instance-id`) is checked by the runtime's
 * own rule for that key (`checkConfigValue`, src/runtime/config-values.ts):
 * the same values pass and the same error text names the key, followed by
 * the flag or variable that set it.
 */
import { ConfigError } from '../errors.js';
import { checkBrokerList } from '../runtime/bootstrap-servers.js';
import { checkConfigValue, type ProcessingGuaranteeName, type SingleValueKey } from '../runtime/config-values.js';
import type { HttpSecurityOptions } from '../internal/http-guard.js';
import { serverSecurity } from './server-security.js';

/** Raw flag values as commander hands them over. */
export interface RunFlags {
  bootstrapServers?: string;
  applicationId?: string;
  processingGuarantee?: string;
  commitIntervalMs?: string;
  logLevel?: string;
  embedded?: boolean;
  metricsPort?: string;
  metricsHost?: string;
  uiPort?: string;
  uiHost?: string;
  progress?: boolean;
  closeTimeoutMs?: string;
  groupInstanceId?: string;
  queryPort?: string;
  queryHost?: string;
  queryAdvertisedHost?: string;
  queryTlsCert?: string;
  queryTlsKey?: string;
  queryTlsCa?: string;
  queryTokenFile?: string;
  uiTlsCert?: string;
  uiTlsKey?: string;
  uiTokenFile?: string;
  uiAllowedHost?: string[];
  metricsTlsCert?: string;
  metricsTlsKey?: string;
  metricsTokenFile?: string;
  config?: string;
  stateDir?: string;
}

/** The resolved options of one `sluice run`. */
export interface RunOptions {
  modulePath: string;
  /** Brokers from `--bootstrap-servers`, `SLUICE_BOOTSTRAP_SERVERS` or `KAFKA_BROKERS`. */
  bootstrapServers: string[] | undefined;
  applicationId: string | undefined;
  /** As given (`exactly_once_v2` included); the runtime resolves the alias. */
  processingGuarantee: ProcessingGuaranteeName | undefined;
  commitIntervalMs: number | undefined;
  logLevel: string;
  embedded: boolean;
  metricsPort: number | undefined;
  metricsHost: string;
  /** Serve the live UI on this port (`--ui-port`, `SLUICE_UI_PORT`). */
  uiPort: number | undefined;
  /** Interface of the live UI (`--ui-host`, `SLUICE_UI_HOST`), default 127.0.0.1. */
  uiHost: string;
  /** Show the live progress line (only ever on a TTY). */
  progress: boolean;
  /** How long the worker waits for `app.close()` before it exits anyway (non-zero). Default 30000. */
  closeTimeoutMs: number;
  /** Static membership id of this worker (`--group-instance-id`, `SLUICE_GROUP_INSTANCE_ID`): overrides `config.groupInstanceId`. */
  groupInstanceId: string | undefined;
  /** Serve the query API on this port (`--query-port`, `SLUICE_QUERY_PORT`). */
  queryPort: number | undefined;
  /** Interface of the query API (`--query-host`, `SLUICE_QUERY_HOST`), default 127.0.0.1 (local only); other instances need 0.0.0.0 or a concrete address. */
  queryHost: string;
  /** Host of the default `applicationServer` (`--query-advertised-host`, `SLUICE_QUERY_ADVERTISED_HOST`); undefined: `--query-host`, or `os.hostname()` when that is 0.0.0.0 / ::. */
  queryAdvertisedHost: string | undefined;
  /** TLS and token of the query API (`--query-tls-cert/-key/-ca`, `SLUICE_QUERY_TOKEN` or `--query-token-file`). */
  querySecurity: HttpSecurityOptions;
  /** TLS and token of the live UI (`--ui-tls-cert/-key`, `SLUICE_UI_TOKEN` or `--ui-token-file`). */
  uiSecurity: HttpSecurityOptions;
  /** Host names the live UI answers to besides its address and localhost (`--ui-allowed-host`, `SLUICE_UI_ALLOWED_HOSTS`). */
  uiAllowedHosts: string[];
  /** TLS and token of the metrics endpoint (`--metrics-tls-cert/-key`, `SLUICE_METRICS_TOKEN` or `--metrics-token-file`). */
  metricsSecurity: HttpSecurityOptions;
  /** A Kafka Streams properties file (`--config`, `SLUICE_CONFIG`): over the module's config, under flags and environment. */
  configFile: string | undefined;
  /** Root of the state directories (`--state-dir`, `SLUICE_STATE_DIR`): overrides `state.dir` and `config.stateDir`. */
  stateDir: string | undefined;
}

/** Environment variables read by `sluice run`, in order of precedence per option. */
export const RUN_ENV = {
  bootstrapServers: ['SLUICE_BOOTSTRAP_SERVERS', 'KAFKA_BROKERS'],
  applicationId: ['SLUICE_APPLICATION_ID'],
  processingGuarantee: ['SLUICE_PROCESSING_GUARANTEE'],
  commitIntervalMs: ['SLUICE_COMMIT_INTERVAL_MS'],
  logLevel: ['SLUICE_LOG_LEVEL', 'LOG_LEVEL'],
  embedded: ['SLUICE_EMBEDDED'],
  metricsPort: ['SLUICE_METRICS_PORT'],
  uiPort: ['SLUICE_UI_PORT'],
  uiHost: ['SLUICE_UI_HOST'],
  closeTimeoutMs: ['SLUICE_CLOSE_TIMEOUT_MS'],
  groupInstanceId: ['SLUICE_GROUP_INSTANCE_ID'],
  queryPort: ['SLUICE_QUERY_PORT'],
  queryHost: ['SLUICE_QUERY_HOST'],
  queryAdvertisedHost: ['SLUICE_QUERY_ADVERTISED_HOST'],
  uiAllowedHosts: ['SLUICE_UI_ALLOWED_HOSTS'],
  configFile: ['SLUICE_CONFIG'],
  stateDir: ['SLUICE_STATE_DIR'],
} as const;

/** Default of `--close-timeout-ms`: about a Kubernetes termination grace period. */
export const DEFAULT_CLOSE_TIMEOUT_MS = 30_000;

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

type Env = Record<string, string | undefined>;

function pick(flag: string | undefined, names: readonly string[], env: Env): { value: string; source: string } | undefined {
  if (flag !== undefined) return { value: flag, source: '' };
  for (const name of names) {
    const v = env[name];
    if (v !== undefined && v.trim() !== '') return { value: v.trim(), source: name };
  }
  return undefined;
}

function where(flag: string, source: string): string {
  return source ? `${source} (or ${flag})` : flag;
}

/**
 * A flag's value checked by the runtime's rule for config key `key`: the runtime's
 * {@link ConfigError} text, then where the value came from. Returns the value as the config takes it.
 */
function configValue<T>(key: SingleValueKey, raw: { value: string; source: string } | undefined, flag: string, parse: (text: string) => T): T | undefined {
  if (!raw) return undefined;
  const value = parse(raw.value);
  try {
    checkConfigValue(key, value);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    throw new ConfigError(`${error.message} (set by ${where(flag, raw.source)})`, { cause: error });
  }
  return value;
}

/** A whole number as text becomes the number; anything else stays text (the check names it as given). */
function numberOrText(text: string): number | string {
  return /^\s*-?\d+\s*$/.test(text) ? Number(text) : text;
}

function intOf(raw: { value: string; source: string } | undefined, flag: string, min: number, max: number): number | undefined {
  if (!raw) return undefined;
  const n = Number(raw.value);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new ConfigError(`${where(flag, raw.source)} must be an integer from ${min} to ${max}, got '${raw.value}'`);
  }
  return n;
}

/** An interface or host name of flag `flag` (default `fallback`); a value with a port or spaces is refused. */
function hostOf(raw: { value: string; source: string } | undefined, flag: string, portFlag: string, fallback: string): string;
function hostOf(raw: { value: string; source: string } | undefined, flag: string, portFlag: string): string | undefined;
function hostOf(raw: { value: string; source: string } | undefined, flag: string, portFlag: string, fallback?: string): string | undefined {
  if (!raw) return fallback;
  const value = raw.value.trim();
  if (value === '' || /\s/.test(value) || (/:\d+$/.test(value) && !value.includes('::'))) {
    throw new ConfigError(`${where(flag, raw.source)} must be an interface name or address without a port (e.g. 127.0.0.1 or 0.0.0.0), got '${raw.value}'; the port goes to ${portFlag}`);
  }
  return value;
}

function nonEmpty(raw: { value: string; source: string } | undefined, flag: string, what: string): string | undefined {
  if (!raw) return undefined;
  if (raw.value.trim() === '') throw new ConfigError(`${where(flag, raw.source)} must be ${what}, got an empty value`);
  return raw.value;
}

/** Parses `host:port,host:port` (ports 1..65535), with the validator the `KafkaStreams` config uses. */
export function parseBrokers(value: string, what = '--bootstrap-servers'): string[] {
  const checked = checkBrokerList(value);
  if ('brokers' in checked) return checked.brokers;
  if (value.split(',').every((s) => s.trim() === '')) throw new ConfigError(`${what} must name at least one broker as host:port`);
  throw new ConfigError(`${what} must be a comma-separated list of host:port, got '${value}': ${checked.problem}`);
}

/** Resolves the flags of `sluice run <module>` against the environment. */
export function resolveRunOptions(modulePath: string, flags: RunFlags, env: Env = process.env, cwd = process.cwd()): RunOptions {
  const brokers = pick(flags.bootstrapServers, RUN_ENV.bootstrapServers, env);
  const guarantee = configValue('processingGuarantee', pick(flags.processingGuarantee, RUN_ENV.processingGuarantee, env), '--processing-guarantee', (text) => text as ProcessingGuaranteeName);
  const level = pick(flags.logLevel, RUN_ENV.logLevel, env);
  if (level && !LEVELS.includes(level.value)) {
    throw new ConfigError(`${where('--log-level', level.source)} must be one of ${LEVELS.join(', ')}, got '${level.value}'`);
  }
  const embeddedEnv = pick(undefined, RUN_ENV.embedded, env);
  const embedded = flags.embedded === true || (embeddedEnv !== undefined && !['0', 'false', 'no'].includes(embeddedEnv.value));
  const bootstrapServers = brokers ? parseBrokers(brokers.value, where('--bootstrap-servers', brokers.source)) : undefined;
  if (embedded && flags.bootstrapServers !== undefined) {
    throw new ConfigError('--embedded and --bootstrap-servers exclude each other: pass one of them');
  }
  const applicationId = configValue('applicationId', pick(flags.applicationId, RUN_ENV.applicationId, env), '--application-id', (text) => text);
  const groupInstanceId = configValue('groupInstanceId', pick(flags.groupInstanceId, RUN_ENV.groupInstanceId, env), '--group-instance-id', (text) => text);
  return {
    modulePath,
    bootstrapServers: embedded ? undefined : bootstrapServers,
    applicationId,
    processingGuarantee: guarantee,
    commitIntervalMs: configValue('commitIntervalMs', pick(flags.commitIntervalMs, RUN_ENV.commitIntervalMs, env), '--commit-interval-ms', numberOrText) as number | undefined,
    logLevel: level?.value ?? 'info',
    embedded,
    metricsPort: intOf(pick(flags.metricsPort, RUN_ENV.metricsPort, env), '--metrics-port', 0, 65_535),
    metricsHost: flags.metricsHost ?? '0.0.0.0',
    uiPort: intOf(pick(flags.uiPort, RUN_ENV.uiPort, env), '--ui-port', 0, 65_535),
    uiHost: hostOf(pick(flags.uiHost, RUN_ENV.uiHost, env), '--ui-host', '--ui-port', '127.0.0.1'),
    progress: flags.progress !== false,
    closeTimeoutMs:
      intOf(pick(flags.closeTimeoutMs, RUN_ENV.closeTimeoutMs, env), '--close-timeout-ms', 1, 3_600_000) ?? DEFAULT_CLOSE_TIMEOUT_MS,
    groupInstanceId,
    // the query port is advertised to the group: 0 (any port) cannot be
    queryPort: intOf(pick(flags.queryPort, RUN_ENV.queryPort, env), '--query-port', 1, 65_535),
    queryHost: hostOf(pick(flags.queryHost, RUN_ENV.queryHost, env), '--query-host', '--query-port', '127.0.0.1'),
    queryAdvertisedHost: hostOf(pick(flags.queryAdvertisedHost, RUN_ENV.queryAdvertisedHost, env), '--query-advertised-host', '--query-port'),
    querySecurity: serverSecurity('query', flags, env, cwd),
    uiSecurity: serverSecurity('ui', flags, env, cwd),
    uiAllowedHosts: flags.uiAllowedHost ?? (env.SLUICE_UI_ALLOWED_HOSTS ?? '').split(',').map((h) => h.trim()).filter((h) => h !== ''),
    metricsSecurity: serverSecurity('metrics', flags, env, cwd),
    configFile: nonEmpty(pick(flags.config, RUN_ENV.configFile, env), '--config', 'the path of a Java-style .properties file'),
    stateDir: nonEmpty(pick(flags.stateDir, RUN_ENV.stateDir, env), '--state-dir', 'a directory path'),
  };
}
