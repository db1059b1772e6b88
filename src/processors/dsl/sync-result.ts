/**
 * DSL functions (mappers, predicates, aggregators) run synchronously: a
 * promise they return would flow on as a value (a Promise serialized as `{}`,
 * a predicate that is always true). This turns that into a clear processing
 * error instead, and keeps the promise's own rejection from going unhandled.
 */
import { TopologyError } from '../../errors.js';
import { ignoreRejection, isThenable } from '../internal/pending.js';

/** Returns `value`, or throws a TopologyError naming `operation` when it is a promise. */
export function syncResult<T>(operation: string, role: string, value: T): T {
  if (!isThenable(value)) return value;
  ignoreRejection(value);
  throw new TopologyError(
    `${operation}(): the ${role} returned a Promise, but DSL functions run synchronously (the Promise would be used as the result). ` +
      'Do async work in a processor instead: stream.process(() => ({ async process(record) { ... } })), which the task awaits.',
  );
}
