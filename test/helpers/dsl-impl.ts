/**
 * The implementation behind a public DSL interface, for tests that check
 * internals (Kafka's tests cast to `KTableImpl` the same way): fails the test
 * when the object is not one.
 */
import type { KStream, KTable } from '../../src/topology/dsl-interfaces.js';
import { KStreamImpl } from '../../src/topology/kstream.js';
import { KTableImpl } from '../../src/topology/ktable.js';

export function impl<K, V>(table: KTable<K, V>): KTableImpl<K, V>;
export function impl<K, V>(stream: KStream<K, V>): KStreamImpl<K, V>;
export function impl<K, V>(dsl: KTable<K, V> | KStream<K, V>): KTableImpl<K, V> | KStreamImpl<K, V> {
  if (dsl instanceof KTableImpl || dsl instanceof KStreamImpl) return dsl;
  throw new Error(`not a DSL implementation object: ${String(dsl)}`);
}
