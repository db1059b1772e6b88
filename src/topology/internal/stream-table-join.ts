/**
 * KStream–KTable joins. TODO(issue 16, stream-table joins).
 */
import { TopologyError } from '../../errors.js';
import type { KStream } from '../kstream.js';
import type { KTable } from '../ktable.js';

/** `stream.join/leftJoin(table, joiner, joined?)`; args as the KStream overloads take them. */
export function streamTableJoin<K, V>(_stream: KStream<K, V>, kind: 'inner' | 'left', _table: KTable<K, unknown>, _args: unknown[]): KStream<K, unknown> {
  throw new TopologyError(`KStream-KTable ${kind} join is not implemented yet`);
}
