/**
 * Argument checks of the DSL and of `Topology`, made at the call as Kafka
 * Streams makes them: a missing argument fails with Kafka's message
 * ("predicate can't be null"), an illegal name with Kafka's name rules.
 */
import { IllegalArgumentError, TopologyError } from '../../errors.js';

/** Kafka's `Named.MAX_NAME_LENGTH`: names become parts of topic names (at most 249 characters). */
export const MAX_NAME_LENGTH = 249;

const LEGAL_NAME = /^[a-zA-Z0-9._-]+$/;

/**
 * Returns `value`, or throws an IllegalArgumentError "`<argument>` can't be
 * null" (Kafka's `Objects.requireNonNull` message) when it is null or undefined.
 */
export function requireNonNull<T>(value: T, argument: string): NonNullable<T> {
  if (value === null || value === undefined) throw new IllegalArgumentError(`${argument} can't be null`);
  return value as NonNullable<T>;
}

/** Throws when `value` is given but not a function (the DSL's user functions). */
export function requireFunction<T>(value: T, argument: string): T {
  requireNonNull(value, argument);
  if (typeof value !== 'function') throw new IllegalArgumentError(`${argument} must be a function; got ${typeof value}`);
  return value;
}

/**
 * Kafka's `Named.validate`: a name of a processor, store, grouping or
 * repartition topic is 1 to 249 of `[a-zA-Z0-9._-]`, and not `.` or `..`.
 * Throws a TopologyError with Kafka's message.
 */
export function validateName(name: string): string {
  if (typeof name !== 'string') throw new IllegalArgumentError(`name can't be null`);
  if (name === '') throw new TopologyError("Name is illegal, it can't be empty");
  if (name === '.' || name === '..') throw new TopologyError('Name cannot be "." or ".."');
  if (name.length > MAX_NAME_LENGTH) {
    throw new TopologyError(`Name is illegal, it can't be longer than ${MAX_NAME_LENGTH} characters, name: ${name}`);
  }
  if (!LEGAL_NAME.test(name)) {
    throw new TopologyError(`Name "${name}" is illegal, it contains a character other than ASCII alphanumerics, '.', '_' and '-'`);
  }
  return name;
}

/**
 * The files sluice keeps in a task's (and the global) state folder, next to
 * the stores' folders `<taskDir>/<storeName>/` (runtime's state-directory.ts
 * and task-lock-file.ts): the lock file, the checkpoint file and their
 * temporary `<name>.<suffix>` siblings.
 */
const RESERVED_STORE_NAMES = ['.lock', '.checkpoint'];

/**
 * {@link validateName} for a store, plus issue 28 item 13: a store is a
 * folder of the task's state folder, so its name may not be one of sluice's
 * own files there (`Materialized.as('.lock')` failed with EEXIST on every start).
 */
export function validateStoreName(name: string): string {
  validateName(name);
  const clash = RESERVED_STORE_NAMES.find((reserved) => name === reserved || name.startsWith(`${reserved}.`));
  if (clash !== undefined) {
    throw new TopologyError(
      `Store name "${name}" is reserved: sluice keeps its own file '${clash}' (and '${clash}.*') in every task state folder, where each store has its folder named after it; give the store another name`,
    );
  }
  return name;
}