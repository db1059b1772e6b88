/**
 * `KTable.groupBy`: the re-keying node and its repartition topic.
 * TODO(issue 16, table grouping).
 */
import { TopologyError } from '../../errors.js';
import type { KeyValue } from '../../processors/key-value.js';
import type { KGroupedTable } from '../kgrouped-table.js';
import type { KTable } from '../ktable.js';
import type { Grouped } from '../options.js';

/** Groups `table` by `selector`. */
export function groupTable<K, V, KR, VR>(_table: KTable<K, V>, _selector: (key: K, value: V) => KeyValue<KR, VR>, _grouped: Grouped<KR, VR>): KGroupedTable<KR, VR> {
  throw new TopologyError('KTable.groupBy is not implemented yet');
}
