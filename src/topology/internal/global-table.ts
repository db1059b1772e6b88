/**
 * `StreamsBuilder.globalTable`. TODO(issue 16, global tables).
 */
import { TopologyError } from '../../errors.js';
import type { GlobalKTable } from '../global-ktable.js';
import type { BuilderContext } from './builder-context.js';
import type { Consumed, Materialized } from '../options.js';

/** Adds a global table reading `topic`. */
export function addGlobalTable<K, V>(_ctx: BuilderContext, _topic: string, _consumed: Consumed<K, V>, _materialized: Materialized<K, V>): GlobalKTable<K, V> {
  throw new TopologyError('StreamsBuilder.globalTable is not implemented yet');
}
