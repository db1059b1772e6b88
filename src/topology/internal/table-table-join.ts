/**
 * KTable–KTable joins on the key and by foreign key.
 * TODO(issue 16, table-table joins).
 */
import { TopologyError } from '../../errors.js';
import type { KTable } from '../ktable.js';

/** Which rows a join keeps. */
export type TableJoinKind = 'inner' | 'left' | 'outer';

/** `table.join/leftJoin/outerJoin(other, ...args)`: args as the KTable overloads take them. */
export function tableJoin<K, V>(_table: KTable<K, V>, kind: TableJoinKind, _other: KTable<unknown, unknown>, _args: unknown[]): KTable<K, unknown> {
  throw new TopologyError(`KTable ${kind} join is not implemented yet`);
}
