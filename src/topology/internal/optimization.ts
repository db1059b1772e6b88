/**
 * `topologyOptimization` of `StreamsBuilder.build(props)` (Kafka's
 * `topology.optimization`, `StreamsConfig.TOPOLOGY_OPTIMIZATION_CONFIG`):
 * `'none'` (the default), `'all'`, or a list of Kafka's optimization names.
 * sluice implements `reuse.ktable.source.topics` (the store of a
 * `builder.table` source uses the source topic as its changelog); `'all'`
 * turns it on. Kafka's other names are refused until sluice implements them,
 * so that a topology never silently differs from what its props ask for.
 */
import { IllegalArgumentError } from '../../errors.js';

/** Kafka's `StreamsConfig.REUSE_KTABLE_SOURCE_TOPICS`. */
export const REUSE_KTABLE_SOURCE_TOPICS = 'reuse.ktable.source.topics';

/** What `topologyOptimization` accepts: `'all'`, `'none'`, or optimization names (an array or Kafka's comma-separated string). */
export type TopologyOptimization = 'all' | 'none' | typeof REUSE_KTABLE_SOURCE_TOPICS | string | readonly string[];

const NOT_YET = new Set(['merge.repartition.topics', 'single.store.self.join']);

/** The optimizations `value` turns on (a set of Kafka's names); throws an IllegalArgumentError naming the fix. */
export function parseTopologyOptimization(value: TopologyOptimization | undefined): Set<string> {
  if (value === undefined) return new Set();
  const names = (typeof value === 'string' ? value.split(',') : Array.isArray(value) ? [...(value as readonly unknown[])] : [value]).map((n) => (typeof n === 'string' ? n.trim() : n));
  if (names.some((n) => typeof n !== 'string' || n === '')) {
    throw new IllegalArgumentError(`topologyOptimization must be 'all', 'none' or a list of optimization names; got ${JSON.stringify(value)}`);
  }
  const list = names as string[];
  if (list.length > 1 && (list.includes('all') || list.includes('none'))) {
    throw new IllegalArgumentError(`topologyOptimization: 'all' and 'none' cannot be combined with other values; got ${JSON.stringify(value)}`);
  }
  if (list[0] === 'none') return new Set();
  if (list[0] === 'all') return new Set([REUSE_KTABLE_SOURCE_TOPICS]);
  for (const name of list) {
    if (NOT_YET.has(name)) throw new IllegalArgumentError(`topologyOptimization '${name}' is not implemented by sluice yet; use '${REUSE_KTABLE_SOURCE_TOPICS}' (or 'all', which is that optimization today)`);
    if (name !== REUSE_KTABLE_SOURCE_TOPICS) {
      throw new IllegalArgumentError(`Unknown topologyOptimization '${name}'; use 'all', 'none' or '${REUSE_KTABLE_SOURCE_TOPICS}'`);
    }
  }
  return new Set(list);
}
