/**
 * Suppression of table updates (Kafka's `Suppressed` and
 * `Suppressed.BufferConfig`): `Suppressed.untilTimeLimit(1_000,
 * BufferConfig.maxRecords(1_000).emitEarlyWhenFull()).withName('hold')`.
 * Durations are milliseconds. Every object is immutable; each setter returns
 * a new one.
 */
import { IllegalArgumentError } from '../errors.js';
import { requireNonNull, validateName } from './internal/checks.js';
import { fluent, withChanges } from './internal/fluent.js';

/** What a full buffer does: evict its oldest entries downstream early, or fail the task. */
export type BufferFullStrategy = 'emitEarly' | 'shutDown';

/**
 * How large the suppression buffer may grow, and what happens when it is
 * full (Kafka's `EagerBufferConfig` / `StrictBufferConfig`). A bound of
 * `Infinity` is no bound. The buffer is kept in memory and logged to its
 * changelog topic (unless `withLoggingDisabled()`), so held updates survive a
 * restart.
 */
export interface BufferConfig {
  /** The most records held (`Infinity`: no bound). */
  readonly maxRecords: number;
  /** The most bytes held, as Kafka estimates them (key, values, buffer time, record context). */
  readonly maxBytes: number;
  /** `emitEarly` (maxRecords/maxBytes) or `shutDown` (unbounded, or after `shutDownWhenFull()`). */
  readonly whenFull: BufferFullStrategy;
  /** True (the default) when the buffer is logged to `<applicationId>-<store>-changelog`. */
  readonly loggingEnabled: boolean;
  /** Extra topic configs of the changelog topic. */
  readonly logConfig: Readonly<Record<string, string>>;
  /** The same buffer holding at most `recordLimit` records. */
  withMaxRecords(recordLimit: number): BufferConfig;
  /** The same buffer holding at most `byteLimit` bytes. */
  withMaxBytes(byteLimit: number): BufferConfig;
  /** No bound at all (then it never fills; strategy shutDown, as Kafka). */
  withNoBound(): BufferConfig;
  /** A full buffer fails the task (Kafka's `StrictBufferConfig`): results are never emitted early. */
  shutDownWhenFull(): BufferConfig;
  /** A full buffer emits its oldest records early (Kafka's `EagerBufferConfig`). */
  emitEarlyWhenFull(): BufferConfig;
  /** The buffer is not logged (held updates are lost at a restart). */
  withLoggingDisabled(): BufferConfig;
  /** The buffer is logged, its changelog topic created with `config`. */
  withLoggingEnabled(config: Record<string, string>): BufferConfig;
}

/** Throws unless `limit` is a non-negative integer (or Infinity); returns it. */
function checkLimit(limit: unknown, what: string): number {
  if (typeof limit !== 'number' || Number.isNaN(limit) || limit < 0 || (!Number.isInteger(limit) && limit !== Infinity)) {
    throw new IllegalArgumentError(`BufferConfig: ${what} must be a non-negative integer (or Infinity for no bound); got ${String(limit)}`);
  }
  return limit;
}

const bufferSetters = {
  withMaxRecords(this: BufferConfig, recordLimit: number) {
    return withChanges<BufferConfig>(this, { maxRecords: checkLimit(recordLimit, 'recordLimit') });
  },
  withMaxBytes(this: BufferConfig, byteLimit: number) {
    return withChanges<BufferConfig>(this, { maxBytes: checkLimit(byteLimit, 'byteLimit') });
  },
  withNoBound(this: BufferConfig) {
    return withChanges<BufferConfig>(this, { maxRecords: Infinity, maxBytes: Infinity, whenFull: 'shutDown' });
  },
  shutDownWhenFull(this: BufferConfig) {
    return withChanges<BufferConfig>(this, { whenFull: 'shutDown' });
  },
  emitEarlyWhenFull(this: BufferConfig) {
    return withChanges<BufferConfig>(this, { whenFull: 'emitEarly' });
  },
  withLoggingDisabled(this: BufferConfig) {
    return withChanges<BufferConfig>(this, { loggingEnabled: false, logConfig: {} });
  },
  withLoggingEnabled(this: BufferConfig, config: Record<string, string>) {
    return withChanges<BufferConfig>(this, { loggingEnabled: true, logConfig: Object.freeze({ ...requireNonNull(config, 'config') }) });
  },
};

function bufferConfig(maxRecords: number, maxBytes: number, whenFull: BufferFullStrategy): BufferConfig {
  return fluent<BufferConfig>(bufferSetters, { maxRecords, maxBytes, whenFull, loggingEnabled: true, logConfig: Object.freeze({}) });
}

/** Helpers for {@link BufferConfig} (Kafka's static `Suppressed.BufferConfig` methods). */
export const BufferConfig = {
  /** At most `recordLimit` records; when full, the oldest are emitted early. */
  maxRecords(recordLimit: number): BufferConfig {
    return bufferConfig(checkLimit(recordLimit, 'recordLimit'), Infinity, 'emitEarly');
  },
  /** At most `byteLimit` bytes; when full, the oldest records are emitted early. */
  maxBytes(byteLimit: number): BufferConfig {
    return bufferConfig(Infinity, checkLimit(byteLimit, 'byteLimit'), 'emitEarly');
  },
  /** No bound: the buffer grows as needed (memory permitting). */
  unbounded(): BufferConfig {
    return bufferConfig(Infinity, Infinity, 'shutDown');
  },
};

/** What `KTable.suppress` holds back. `K` is the table's key type. */
export interface Suppressed<K = unknown> {
  readonly kind: 'untilTimeLimit' | 'untilWindowCloses';
  /** untilTimeLimit: how long (stream time, ms) a key's first held update waits for more updates. */
  readonly timeToWaitForMoreEventsMs?: number;
  readonly bufferConfig: BufferConfig;
  /** Names the processor `<name>` and its buffer store `<name>-store`. */
  readonly name?: string;
  /** Phantom of the key type, contravariant as Java's `Suppressed<? super K>`: a `Suppressed<unknown>` fits any table. */
  readonly keyType?: (key: K) => void;
  /** The same suppression with its processor named `name` (store `<name>-store`). */
  withName(name: string): Suppressed<K>;
}

const suppressedSetters = {
  withName(this: Suppressed, name: string) {
    return withChanges<Suppressed>(this, { name: validateName(requireNonNull(name, 'name')) });
  },
};

function checkBuffer(config: BufferConfig): BufferConfig {
  requireNonNull(config, 'bufferConfig');
  if (typeof config.maxRecords !== 'number' || typeof config.maxBytes !== 'number') {
    throw new IllegalArgumentError('Suppressed: bufferConfig must come from BufferConfig.maxRecords(n), BufferConfig.maxBytes(n) or BufferConfig.unbounded()');
  }
  return config;
}

/** Helpers for {@link Suppressed}. */
export const Suppressed = {
  /**
   * Emits the latest update of a key once stream time reached its first held
   * update's timestamp + `timeToWaitForMoreEventsMs` (0: at once), or earlier
   * when the buffer is full and emits early.
   */
  untilTimeLimit<K = unknown>(timeToWaitForMoreEventsMs: number, bufferConfig: BufferConfig): Suppressed<K> {
    if (typeof timeToWaitForMoreEventsMs !== 'number' || Number.isNaN(timeToWaitForMoreEventsMs) || timeToWaitForMoreEventsMs < 0) {
      throw new IllegalArgumentError(`Suppressed.untilTimeLimit: timeToWaitForMoreEvents must be a non-negative number of milliseconds; got ${String(timeToWaitForMoreEventsMs)}`);
    }
    return fluent<Suppressed<K>>(suppressedSetters, { kind: 'untilTimeLimit', timeToWaitForMoreEventsMs, bufferConfig: checkBuffer(bufferConfig) });
  },
  /**
   * Emits only the final result of each window: a windowed table's update is
   * held until its window closes (stream time ≥ window end + the grace of the
   * windowed aggregation upstream, found when `suppress` is called), then the
   * window's latest value is emitted once; a window whose latest change is a
   * delete emits nothing. The buffer must be strict (Kafka's
   * `StrictBufferConfig`): `BufferConfig.unbounded()`, or a bounded one with
   * `shutDownWhenFull()`, since emitting early would break "final".
   */
  untilWindowCloses<K = unknown>(bufferConfig: BufferConfig): Suppressed<K> {
    const config = checkBuffer(bufferConfig);
    if (config.whenFull !== 'shutDown') {
      throw new IllegalArgumentError(
        'Suppressed.untilWindowCloses needs a strict buffer config, one that never emits early (Kafka\'s StrictBufferConfig): ' +
          'give BufferConfig.unbounded(), or add .shutDownWhenFull() to BufferConfig.maxRecords(n)/maxBytes(n)',
      );
    }
    return fluent<Suppressed<K>>(suppressedSetters, { kind: 'untilWindowCloses', bufferConfig: config });
  },
};
