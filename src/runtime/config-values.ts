/**
 * The checks of single config values, shared by `resolveConfig` and every
 * other place that sets one of these keys from its own input (the CLI's
 * flags and environment variables, `src/cli/options.ts`): the same rule and
 * the same {@link ConfigError} text for the same value, wherever it came from.
 */
import { inspect } from 'node:util';
import { ConfigError } from '../errors.js';
import { checkDurations } from './config-durations.js';
import { groupInstanceIdOf } from './config-ha.js';
import { PROCESSING_GUARANTEE_NAMES, type ProcessingGuaranteeName } from './internal/guarantee-profile.js';

export { PROCESSING_GUARANTEE_NAMES, type ProcessingGuaranteeName };

/** A config value as the user wrote it (`NaN`, `Infinity`, `'70000'`), for error messages; JSON would print NaN as null. */
export function showValue(value: unknown): string {
  if (typeof value === 'number' || typeof value === 'bigint' || value === undefined) return String(value);
  if (typeof value === 'string') return JSON.stringify(value);
  return inspect(value, { depth: 1, breakLength: Infinity, maxStringLength: 80 });
}

/** `config[key]`, one of `allowed` (default `fallback`). */
export function oneOf<T extends string>(config: Record<string, unknown>, key: string, allowed: readonly T[], fallback: T): T {
  const value = config[key];
  if (value === undefined) return fallback;
  if (!allowed.includes(value as T)) {
    throw new ConfigError(`Config '${key}' must be one of ${allowed.map((a) => `'${a}'`).join(', ')}, got ${showValue(value)}`);
  }
  return value as T;
}

/** `config[key]`, a positive integer (default `fallback`). */
export function positiveInt(config: Record<string, unknown>, key: string, fallback: number): number;
export function positiveInt(config: Record<string, unknown>, key: string, fallback: undefined): number | undefined;
export function positiveInt(config: Record<string, unknown>, key: string, fallback: number | undefined): number | undefined {
  const value = config[key];
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0) {
    throw new ConfigError(`Config '${key}' must be a positive integer, got ${showValue(value)}`);
  }
  return value;
}

/** The required `applicationId`. */
export function applicationIdOf(config: Record<string, unknown>): string {
  const applicationId = config.applicationId;
  if (typeof applicationId !== 'string' || !/^[A-Za-z0-9._-]+$/.test(applicationId)) {
    throw new ConfigError(
      `Config 'applicationId' is required: a non-empty string of letters, digits, '.', '_' or '-', got ${showValue(applicationId)}`,
    );
  }
  return applicationId;
}

/** `processingGuarantee` as given (default `exactly_once`); the profile resolves the alias. */
export function processingGuaranteeOf(config: Record<string, unknown>): ProcessingGuaranteeName {
  return oneOf(config, 'processingGuarantee', PROCESSING_GUARANTEE_NAMES, 'exactly_once');
}

/** The keys {@link checkConfigValue} checks on their own. */
export type SingleValueKey = 'applicationId' | 'processingGuarantee' | 'commitIntervalMs' | 'groupInstanceId';

const SINGLE_VALUE_CHECKS: Readonly<Record<SingleValueKey, (config: Record<string, unknown>) => unknown>> = {
  applicationId: applicationIdOf,
  processingGuarantee: processingGuaranteeOf,
  commitIntervalMs: (config) => {
    checkDurations(config);
    return positiveInt(config, 'commitIntervalMs', undefined);
  },
  groupInstanceId: (config) => groupInstanceIdOf(config.groupInstanceId),
};

/**
 * Checks `value` of `key` with the rule `resolveConfig` applies to it; throws
 * the same {@link ConfigError} (naming the key) as `resolveConfig` would.
 * The rules that span keys (e.g. `commitIntervalMs` below
 * `transactionTimeoutMs`) are left to `resolveConfig` on the whole config.
 */
export function checkConfigValue(key: SingleValueKey, value: unknown): void {
  SINGLE_VALUE_CHECKS[key]({ [key]: value });
}
