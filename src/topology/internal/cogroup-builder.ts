/**
 * The wiring of a cogrouped aggregation (Kafka's
 * `CogroupedStreamAggregateBuilder`, KIP-150), shared by the plain, time-,
 * sliding- and session-windowed cogroups. One builder belongs to one
 * `CogroupedKStream` (and the windowed streams made of it): it remembers the
 * repartition source it created per grouped stream, so a second aggregation of
 * the same cogroup reads the same repartition topic, as Kafka's `parentNodes`.
 *
 * `build`, in Kafka's order (so generated names match Kafka's):
 * 1. the repartitions: for each grouped stream, in the order `cogroup` added
 *    them, that needs one (its key may have changed): three names are burnt
 *    (Kafka's `createRepartitionedSource` always generates them) and, on the
 *    first aggregation of this cogroup, the filter, sink and source of
 *    `<Grouped.name or store name>-repartition` are added; the others read the
 *    grouped stream's own node;
 * 2. the inputs are co-partitioned (Kafka's `ensureCopartitionWith`);
 * 3. one aggregation processor per grouped stream, named
 *    `<named>-cogroup-agg-<i>` or `COGROUPKSTREAM-AGGREGATE-<n>` (an index is
 *    burnt either way), under its parent: the first gets the store, the
 *    others are connected to it;
 * 4. the merge node `<named>-cogroup-merge` or `COGROUPKSTREAM-MERGE-<n>`
 *    (Kafka's `KTablePassThrough`) under all of them: the table's node.
 */
import { IllegalStateError } from '../../errors.js';
import { CogroupPassThroughSupplier } from '../../processors/dsl/cogroup-pass-through.js';
import type { KTableProcessorSupplier } from '../../processors/dsl/ktable-contract.js';
import type { Serde } from '../../serdes/serde.js';
import type { StateStore, StoreBuilder } from '../../state/state-store.js';
import type { Named } from '../options.js';
import type { BuilderContext } from './builder-context.js';
import type { NewTable } from './dsl-parts.js';
import { suffixedNodeName } from './kafka-names.js';
import { addRepartition } from './repartition.js';

/** Kafka's `CogroupedKStreamImpl.AGGREGATE_NAME`: the aggregation nodes' (and generated stores') prefix. */
export const COGROUP_AGGREGATE_NAME = 'COGROUPKSTREAM-AGGREGATE-';
/** Kafka's `CogroupedKStreamImpl.MERGE_NAME`. */
export const COGROUP_MERGE_NAME = 'COGROUPKSTREAM-MERGE-';

/** What a `KGroupedStream` gives a cogroup: where its records are, whether they need a repartition, their serdes. */
export interface CogroupSource<K, V> {
  readonly ctx: BuilderContext;
  /** The grouped stream's node. */
  readonly nodeName: string;
  /** True when the key may have changed (a repartition topic comes first). */
  readonly repartitionRequired: boolean;
  /** `Grouped.name`: names the repartition topic. */
  readonly groupedName: string | undefined;
  keySerde(): Serde<K>;
  valueSerde(): Serde<V>;
}

/** One `cogroup(groupedStream, aggregator)` call: its grouped stream's parts and aggregator. */
export interface CogroupPattern<K, VOut> {
  readonly source: CogroupSource<K, unknown>;
  readonly aggregator: (key: K, value: unknown, aggregate: VOut) => VOut;
}

/** The patterns of a cogroup, keyed by grouped stream (insertion order kept, as Kafka's `LinkedHashMap`). */
export type CogroupPatterns<K, VOut> = ReadonlyMap<object, CogroupPattern<K, VOut>>;

/** One aggregation of a cogroup, its kind decided by the caller. */
export interface CogroupBuild<K, KOut, VOut> {
  readonly patterns: CogroupPatterns<K, VOut>;
  readonly named: Named | string | undefined;
  /** The shared store's name (given or generated before `build`, as Kafka's `MaterializedInternal`). */
  readonly storeName: string;
  /** The shared store and any store the aggregations also need (built before the graph changes, so its checks fail first). */
  readonly stores: readonly StoreBuilder<StateStore>[];
  /** The aggregation processor supplier of one grouped stream's aggregator. */
  makeSupplier(aggregator: (key: K, value: unknown, aggregate: VOut) => VOut): KTableProcessorSupplier<K, unknown, KOut, VOut>;
  /** The table's serdes. */
  readonly keySerde: Serde<KOut>;
  readonly valueSerde: Serde<VOut>;
  /** The table's queryable store name. */
  readonly queryableStoreName: string | undefined;
}

/** Kafka's `CogroupedStreamAggregateBuilder`: see the module comment. */
export class CogroupAggregateBuilder {
  /** The aggregation parent per grouped stream (the stream's node or its repartition source). */
  private readonly parentNodes = new Map<object, string>();

  constructor(private readonly ctx: BuilderContext) {}

  /** Adds the nodes of one cogrouped aggregation; returns its table node. */
  build<K, KOut, VOut>(spec: CogroupBuild<K, KOut, VOut>): NewTable<KOut, VOut> {
    const { ctx } = this;
    // 1. repartitions
    this.processRepartitions(spec.patterns, spec.storeName);
    // 2. co-partitioning of the inputs
    const parents = [...spec.patterns.keys()].map((key) => this.parentOf(key));
    if (new Set(parents).size > 1) ctx.topology.copartition(...new Set(parents));
    // 3. one aggregation per grouped stream, sharing the store
    const aggregationNames: string[] = [];
    const suppliers: KTableProcessorSupplier<K, unknown, KOut, VOut>[] = [];
    let counter = 0;
    for (const [key, pattern] of spec.patterns) {
      const name = suffixedNodeName(ctx, spec.named, `-cogroup-agg-${counter++}`, COGROUP_AGGREGATE_NAME);
      const supplier = spec.makeSupplier(pattern.aggregator);
      ctx.topology.addProcessor(name, supplier, this.parentOf(key));
      if (aggregationNames.length === 0) for (const store of spec.stores) ctx.topology.addStateStore(store, name);
      else ctx.topology.connectProcessorAndStateStores(name, ...spec.stores.map((store) => store.name));
      aggregationNames.push(name);
      suppliers.push(supplier);
    }
    // 4. the merge node
    const mergeName = suffixedNodeName(ctx, spec.named, '-cogroup-merge', COGROUP_MERGE_NAME);
    const passThrough = new CogroupPassThroughSupplier<KOut, VOut>(suppliers);
    ctx.topology.addProcessor(mergeName, passThrough, ...aggregationNames);
    return { nodeName: mergeName, supplier: passThrough, queryableStoreName: spec.queryableStoreName, serdes: { key: spec.keySerde, value: spec.valueSerde } };
  }

  /** Step 1 of the module comment. */
  private processRepartitions<K, VOut>(patterns: CogroupPatterns<K, VOut>, storeName: string): void {
    for (const [key, { source }] of patterns) {
      if (!source.repartitionRequired) {
        this.parentNodes.set(key, source.nodeName);
        continue;
      }
      const known = this.parentNodes.has(key);
      // Kafka burns sink, filter and source names on every call; addRepartition burns them itself only for an unnamed, new topic
      if (known || source.groupedName !== undefined) for (const prefix of ['KSTREAM-SINK-', 'KSTREAM-FILTER-', 'KSTREAM-SOURCE-']) this.ctx.newName(prefix);
      if (known) continue;
      const repartitionSource = addRepartition(this.ctx, {
        parent: source.nodeName,
        groupedName: source.groupedName,
        fallbackPrefix: storeName,
        keySerde: source.keySerde(),
        valueSerde: source.valueSerde(),
      });
      this.parentNodes.set(key, repartitionSource);
    }
  }

  private parentOf(key: object): string {
    const parent = this.parentNodes.get(key);
    if (parent === undefined) throw new IllegalStateError('cogroup: no parent node for a grouped stream');
    return parent;
  }
}
