/**
 * KTable–KTable joins on the key and by foreign key.
 * TODO(issue 16, table-table joins).
 */
import { TopologyError } from '../../errors.js';
import type { KTable } from '../ktable.js';
import { foreignKeyJoin } from './foreign-key-join.js';

/** Which rows a join keeps. */
export type TableJoinKind = 'inner' | 'left' | 'outer';

/** `table.join/leftJoin/outerJoin(other, ...args)`: args as the KTable overloads take them. */
export function tableJoin<K, V>(table: KTable<K, V>, kind: TableJoinKind, other: KTable<unknown, unknown>, args: unknown[]): KTable<K, unknown> {
  if (typeof args[1] === 'function' && kind !== 'outer') return foreignKeyJoin(table, kind, other, args);
  throw new TopologyError(`KTable ${kind} join is not implemented yet`);
}
