/** The checked replacement for a non-null assertion (`x!`), which lint forbids in src/. */
import { StreamsError } from '../errors.js';

/**
 * Returns `value`, or throws a fatal `StreamsError` (code `INTERNAL_INVARIANT`)
 * naming `what` when it is `undefined`: a broken internal invariant (a map
 * entry that must exist, a field set by an earlier step), never a user error.
 */
export function defined<T>(value: T | undefined, what: string): T {
  if (value === undefined) {
    throw new StreamsError(`sluice internal invariant broken: ${what} is missing (please report this)`, { code: 'INTERNAL_INVARIANT', kind: 'fatal' });
  }
  return value;
}
