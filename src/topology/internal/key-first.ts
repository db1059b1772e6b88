/**
 * Unwraps the two forms of a value mapper / joiner (issue 29 item 1) into the
 * one internal form the processors call, `(value, key)` / `(value1, value2, key)`:
 * a plain function is given the value(s) only; a `ValueMapperWithKey` /
 * `ValueJoinerWithKey` is given the key first. The form is told by the tag
 * object, never by `fn.length`.
 */
import { requireNonNull } from './checks.js';
import { IllegalArgumentError } from '../../errors.js';
import type { ValueMapper, ValueMapperWithKey } from '../value-mappers.js';
import type { ValueJoiner, ValueJoinerWithKey } from '../joiners.js';

/** The internal mapper form: the value, then the key. */
export type InternalMapper<K, V, VR> = (value: V, key: K) => VR;

/** The internal joiner form: the two values, then the key. */
export type InternalJoiner<K, V1, V2, VR> = (value1: V1, value2: V2, key: K) => VR;

/** True for a `ValueMapperWithKey` / `ValueJoinerWithKey` made by `.of(...)` (or of the same shape). */
export function isKeyFirst(value: unknown): value is { readonly keyFirst: (...args: never[]) => unknown } {
  return typeof value === 'object' && value !== null && typeof (value as { keyFirst?: unknown }).keyFirst === 'function';
}

/** True for either form of a user function (a plain function or a key-first tag). */
export function isUserFunction(value: unknown): boolean {
  return typeof value === 'function' || isKeyFirst(value);
}

function requireForm(value: unknown, argument: string, withKey: string): void {
  requireNonNull(value, argument);
  if (!isUserFunction(value)) {
    throw new IllegalArgumentError(`${argument} must be a function or ${withKey}.of((readOnlyKey, ...) => ...); got ${typeof value}`);
  }
}

/** A value mapper in the internal form; throws naming `argument` when it is neither form. */
export function resolveMapper<K, V, VR>(mapper: ValueMapper<V, VR> | ValueMapperWithKey<K, V, VR>, argument: string): InternalMapper<K, V, VR> {
  requireForm(mapper, argument, 'ValueMapperWithKey');
  if (isKeyFirst(mapper)) {
    const keyFirst = (mapper as ValueMapperWithKey<K, V, VR>).keyFirst;
    return (value, key) => keyFirst(key, value);
  }
  const valueOnly = mapper as ValueMapper<V, VR>;
  return (value) => valueOnly(value);
}

/** A joiner in the internal form; throws naming `argument` when it is neither form. */
export function resolveJoiner<K, V1, V2, VR>(joiner: ValueJoiner<V1, V2, VR> | ValueJoinerWithKey<K, V1, V2, VR>, argument = 'joiner'): InternalJoiner<K, V1, V2, VR> {
  requireForm(joiner, argument, 'ValueJoinerWithKey');
  if (isKeyFirst(joiner)) {
    const keyFirst = (joiner as ValueJoinerWithKey<K, V1, V2, VR>).keyFirst;
    return (value1, value2, key) => keyFirst(key, value1, value2);
  }
  const valuesOnly = joiner as ValueJoiner<V1, V2, VR>;
  return (value1, value2) => valuesOnly(value1, value2);
}
