/**
 * Kafka's `GraphGraceSearchUtil.findAndVerifyWindowGrace`: the grace of
 * the windowed computation a table comes from, for
 * `suppress(Suppressed.untilWindowCloses(...))`.
 *
 * The walk, from the suppressed table's node up:
 * 1. a node whose processor supplier is a windowed aggregation
 *    ({@link WindowedAggregateSupplier}) ends the walk with its
 *    `windowCloseDelayMs()` (grace; grace + gap for sessions);
 * 2. any other node (filter, mapValues, a non-windowed aggregation, a
 *    join's processors, ...) is passed through to all its parents, and the
 *    largest of their graces is used (every parent must find one);
 * 3. a source reading a repartition topic continues at the sinks writing
 *    that topic (Kafka's repartition graph node);
 * 4. any other source's parent is Kafka's graph root `root`, which has no
 *    parents: the walk fails with Kafka's message naming the chain walked
 *    (`Got [root->KSTREAM-SOURCE-0000000000->KSTREAM-AGGREGATE-0000000001]`).
 *
 * The chain names processor nodes, where Kafka names its DSL graph nodes:
 * a `builder.table` source shows as its source and KTABLE-SOURCE nodes
 * (Kafka: the KTABLE-SOURCE node only), a repartition as its filter, sink
 * and source nodes (Kafka: one repartition node).
 */
import { TopologyError } from '../../errors.js';
import type { NodeDef } from '../../processors/plan.js';
import { isWindowedAggregateSupplier } from '../../processors/dsl/windowed-contract.js';
import { graphNodesOf, type Topology } from '../topology.js';

/** Kafka's name of the graph root every source hangs off. */
const ROOT = 'root';

function notWindowed(chain: string): TopologyError {
  return new TopologyError(
    `Window close time is only defined for windowed computations. Got [${chain}]. ` +
      'Suppressed.untilWindowCloses(...) needs a windowed table: one of a windowed aggregation (groupByKey().windowedBy(...).count()/reduce()/aggregate()), or a table derived from it; ' +
      'on other tables use Suppressed.untilTimeLimit(ms, bufferConfig)',
  );
}

/** The grace (ms after a window's end until it closes) of the windowed aggregation upstream of node `nodeName`; throws a TopologyError when there is none. */
export function findAndVerifyWindowGrace(topology: Topology, nodeName: string): number {
  const { nodes, internalTopics } = graphNodesOf(topology);

  const parentsOf = (node: NodeDef): string[] => {
    if (node.kind !== 'source') return node.parents;
    // 3. a repartition topic: its writers are the parents
    const writers = [...nodes.values()]
      .filter((n) => n.kind === 'sink' && typeof n.topic === 'string' && internalTopics.has(n.topic) && node.topics.includes(n.topic))
      .map((n) => n.name);
    // 4. else Kafka's root
    return writers.length > 0 ? writers : [ROOT];
  };

  const found = new Map<string, number>();
  const search = (name: string, chain: string): number => {
    const known = found.get(name);
    if (known !== undefined) return known;
    const node = nodes.get(name);
    // no such node (Kafka's null node): we walked off the graph
    if (node === undefined && name !== ROOT) throw notWindowed(chain);
    // 1. a windowed aggregation defines the grace
    if (node?.kind === 'processor' && isWindowedAggregateSupplier(node.supplier)) return node.supplier.windowCloseDelayMs();
    const newChain = chain === '' ? name : `${name}->${chain}`;
    const parents = node === undefined ? [] : parentsOf(node);
    // 4. the root (or a node of no known parent): nothing windowed above
    if (parents.length === 0) throw notWindowed(newChain);
    // 2. all parents must define a grace; the largest wins
    const grace = Math.max(...parents.map((parent) => search(parent, newChain)));
    found.set(name, grace);
    return grace;
  };

  return search(nodeName, '');
}
