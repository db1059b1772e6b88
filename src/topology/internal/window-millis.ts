/**
 * Kafka's `ApiUtils.validateMillisecondDuration` / `validateMillisecondInstant`
 * for windows taking milliseconds (Kafka takes `Duration`s / `Instant`s):
 * `Invalid value for parameter "<name>" (value was: <v>). It shouldn't be null.`
 */
import { IllegalArgumentError } from '../../errors.js';

/** `value` as a whole number of milliseconds, or an IllegalArgumentError naming `name`. */
export function windowMillis(value: unknown, name: string): number {
  const prefix = `Invalid value for parameter "${name}" (value was: ${String(value)}). `;
  if (value === null || value === undefined) throw new IllegalArgumentError(`${prefix}It shouldn't be null.`);
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw new IllegalArgumentError(`${prefix}It can't be converted to milliseconds.`);
  return value;
}
