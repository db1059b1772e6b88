/**
 * `KTable.suppress`. TODO(issue 16, suppression).
 */
import { TopologyError } from '../../errors.js';
import type { KTable } from '../ktable.js';
import type { Suppressed } from '../suppressed.js';

/** Adds the suppression node after `table`. */
export function suppressTable<K, V>(_table: KTable<K, V>, _suppressed: Suppressed<K>): KTable<K, V> {
  throw new TopologyError('KTable.suppress is not implemented yet');
}
