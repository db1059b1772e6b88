/**
 * The Kafka Streams-style convenience keys of {@link KafkaStreamsConfig}:
 * `autoOffsetReset`, `logLevel`, `numStreamThreads`, the
 * `exactly_once_v2` alias of `processingGuarantee`, and the assignor's
 * `applicationServer` and `acceptableRecoveryLag`.
 */
import { isAbsolute } from 'node:path';
import { pathToFileURL } from 'node:url';
import { pino, type Logger } from 'pino';
import { ConfigError } from '../errors.js';
import { parseHostInfo } from '../assignment/host-info.js';
import { DEFAULT_ACCEPTABLE_RECOVERY_LAG } from '../assignment/task-assignor.js';

/** Where a task starts reading a partition that has no committed offset (Kafka's `auto.offset.reset`). */
export type AutoOffsetReset = 'earliest' | 'latest';

/** The level of sluice's own logging when no `logger` is given (pino's levels). */
export type LogLevel = 'silent' | 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/** Accepted values of `logLevel`. */
export const LOG_LEVELS: readonly LogLevel[] = ['silent', 'fatal', 'error', 'warn', 'info', 'debug', 'trace'];

/**
 * The logger of an app:
 * 1. a given `logger` is used as is, or as a child at `logLevel` when that is set too;
 * 2. else a pino logger at `logLevel`, else `LOG_LEVEL` from the environment,
 *    else `silent` under vitest and `warn` otherwise: a library does not print
 *    INFO JSON to stdout unless asked to (the `sluice` CLI passes its own logger).
 */
export function appLogger(logger: Logger | undefined, logLevel: LogLevel | undefined): Logger {
  if (logger !== undefined) return logLevel === undefined ? logger : logger.child({}, { level: logLevel });
  const level = logLevel ?? process.env.LOG_LEVEL ?? (process.env.VITEST ? 'silent' : 'warn');
  return pino({ level, base: { app: 'sluice' } });
}

/** The most stream threads one instance may run (each is a group member with its own clients). */
export const MAX_STREAM_THREADS = 64;

/**
 * `numStreamThreads` (Kafka's `num.stream.threads`, default 1): a whole
 * number from 1 to {@link MAX_STREAM_THREADS}.
 */
export function checkNumStreamThreads(value: unknown): number {
  if (value === undefined) return 1;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_STREAM_THREADS) return value;
  throw new ConfigError(
    `Config 'numStreamThreads' must be a whole number from 1 to ${MAX_STREAM_THREADS}, got ${typeof value === 'string' ? JSON.stringify(value) : String(value)}: ` +
      `it is the number of stream threads of this instance (Kafka's num.stream.threads)`,
  );
}

/**
 * `streamThreadModule`: the module the extra stream threads (2..N) load their
 * topology and config from, as a file URL (`new URL('./app.js',
 * import.meta.url)`) or an absolute path. Returned as a URL string.
 */
export function checkStreamThreadModule(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (value instanceof URL) {
    if (value.protocol === 'file:') return value.href;
  } else if (typeof value === 'string' && value.trim() !== '') {
    if (value.startsWith('file:')) return new URL(value).href;
    if (isAbsolute(value)) return pathToFileURL(value).href;
  }
  throw new ConfigError(
    `Config 'streamThreadModule' must be a file URL (e.g. new URL('./app.js', import.meta.url)) or an absolute path of a module whose default export is defineApp({ topology, config }), ` +
      `got ${typeof value === 'string' ? JSON.stringify(value) : String(value)}`,
  );
}

/**
 * `applicationServer` (Kafka's `application.server`): the `host:port` of the
 * instance's query endpoint, advertised to the group so every instance can
 * tell where a key lives (`app.queryMetadataForKey`).
 */
export function checkApplicationServer(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  const parsed = typeof value === 'string' ? parseHostInfo(value) : `${typeof value === 'object' ? JSON.stringify(value) : String(value)} is not a string`;
  if (typeof parsed === 'string') {
    throw new ConfigError(`Config 'applicationServer' must be 'host:port' of this instance's query endpoint, as the other instances reach it (e.g. 'orders-1.internal:7070'): ${parsed}`);
  }
  return value as string;
}

/** `acceptableRecoveryLag` (Kafka's `acceptable.recovery.lag`): a whole number of records >= 0, default 10000. */
export function checkAcceptableRecoveryLag(value: unknown): number {
  if (value === undefined) return DEFAULT_ACCEPTABLE_RECOVERY_LAG;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new ConfigError(`Config 'acceptableRecoveryLag' must be a whole number of records >= 0 (how far behind the changelog end a member's state may be to count as caught up), got ${String(value)}`);
  }
  return value;
}
