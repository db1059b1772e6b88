/**
 * KStream–GlobalKTable joins. TODO(issue 16, global tables).
 */
import { TopologyError } from '../../errors.js';
import type { GlobalKTable } from '../global-ktable.js';
import type { KStream } from '../kstream.js';

/** `stream.join/leftJoin(globalTable, keySelector, joiner, named?)`; args as the KStream overloads take them. */
export function streamGlobalJoin<K, V>(_stream: KStream<K, V>, kind: 'inner' | 'left', _table: GlobalKTable<unknown, unknown>, _args: unknown[]): KStream<K, unknown> {
  throw new TopologyError(`KStream-GlobalKTable ${kind} join is not implemented yet`);
}
