/**
 * KTable–KTable foreign-key joins (Kafka's `KTableImpl.doJoinOnForeignKey`).
 * TODO(issue 16, foreign-key joins): built on branch j-fk, which replaces this body.
 */
import { TopologyError } from '../../errors.js';
import type { KTable } from '../ktable.js';

/** `table.join/leftJoin(other, foreignKeyExtractor, joiner, tableJoined|named|materialized?, materialized?)`: args as the KTable overloads take them. */
export function foreignKeyJoin<K, V>(_table: KTable<K, V>, _kind: 'inner' | 'left', _other: KTable<unknown, unknown>, _args: unknown[]): KTable<K, unknown> {
  throw new TopologyError('foreign-key join is not implemented yet');
}
