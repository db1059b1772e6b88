/**
 * Options of a foreign-key join (Kafka's `TableJoined`): partitioners of the
 * two tables' topics and the name of the join's nodes and internal topics.
 */
import type { StreamPartitioner } from '../processors/processor.js';

/** See the file comment. */
export interface TableJoined<K, KO> {
  /** Partitioner of this table's topic, if it is not the default. */
  readonly partitioner?: StreamPartitioner<K, unknown>;
  /** Partitioner of the other table's topic, if it is not the default. */
  readonly otherPartitioner?: StreamPartitioner<KO, unknown>;
  /** Base name of the join's processors and internal topics. */
  readonly name?: string;
}

/** Helpers for {@link TableJoined}. */
export const TableJoined = {
  /** With these partitioners. */
  with<K, KO>(partitioner: StreamPartitioner<K, unknown> | undefined, otherPartitioner: StreamPartitioner<KO, unknown> | undefined): TableJoined<K, KO> {
    return { ...(partitioner ? { partitioner } : {}), ...(otherPartitioner ? { otherPartitioner } : {}) };
  },
  /** Named `name`. */
  as<K, KO>(name: string): TableJoined<K, KO> {
    return { name };
  },
};
