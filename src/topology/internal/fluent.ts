/**
 * The machinery of the fluent option objects (`Consumed.with(k, v).withName('src')`,
 * `Materialized.as('s').withLoggingDisabled()`): each is a frozen object
 * whose fields are own enumerable properties (so it reads, spreads and
 * compares as the plain option object `{ keySerde, valueSerde }`) and whose
 * setters live on a shared prototype and return a new object.
 */
import type { Serde } from '../../serdes/serde.js';
import { requireNonNull, validateName } from './checks.js';
import type { Unset } from '../unset.js';

/** The optional serde field of a side: `never` while unset, so the option fits any type there. */
export type SerdeOf<T> = [T] extends [Unset] ? never : Serde<T>;

/** `fields` (undefined ones left out) as a frozen object with `proto`'s setters. */
export function fluent<T>(proto: object, fields: object): T {
  const target = Object.create(proto) as Record<string, unknown>;
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) target[key] = value;
  return Object.freeze(target) as T;
}

/** A copy of the fluent object `self` with `changes` applied (a field changed to `undefined` is removed). */
export function withChanges<T>(self: object, changes: object): T {
  return fluent<T>(Object.getPrototypeOf(self) as object, { ...self, ...changes });
}

/** The serde and name setters every fluent option shares (each checks its argument at the call). */
export const serdeSetters = {
  withKeySerde(this: object, keySerde: Serde<unknown>) {
    return withChanges(this, { keySerde: requireNonNull(keySerde, 'keySerde') });
  },
  withValueSerde(this: object, valueSerde: Serde<unknown>) {
    return withChanges(this, { valueSerde: requireNonNull(valueSerde, 'valueSerde') });
  },
  withName(this: object, name: string) {
    return withChanges(this, { name: validateName(requireNonNull(name, 'name')) });
  },
};
