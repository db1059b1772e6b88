/**
 * Cogrouped streams (Kafka's `CogroupedKStream`, KIP-150): several grouped
 * streams with the same key type, each with its own aggregator, aggregated
 * into one table. `grouped.cogroup(aggregator)` starts one, `.cogroup(other,
 * otherAggregator)` adds more, `.aggregate(initializer)` (or
 * `.windowedBy(windows).aggregate(...)`) builds the table: one aggregation
 * processor per grouped stream, all writing one store, and a merge node they
 * all forward to (see internal/cogroup-builder.ts).
 */
import { TopologyError } from '../errors.js';
import { aggregateSupplier } from '../processors/dsl/aggregate.js';
import type { Serde } from '../serdes/serde.js';
import { Serdes } from '../serdes/serdes.js';
import type { Aggregator, Initializer } from './aggregation-functions.js';
import {
  SessionWindowedCogroupedKStreamImpl,
  TimeWindowedCogroupedKStreamImpl,
  type CogroupState,
} from './cogrouped-windowed-kstream.js';
import type { CogroupedKStream, KGroupedStream, KTable, SessionWindowedCogroupedKStream, TimeWindowedCogroupedKStream } from './dsl-interfaces.js';
import { requireFunction, requireNonNull } from './internal/checks.js';
import { COGROUP_AGGREGATE_NAME, CogroupAggregateBuilder, type CogroupPattern, type CogroupSource } from './internal/cogroup-builder.js';
import { newStoreName } from './internal/kafka-names.js';
import { isVersionedSupplier, materializedName, namedAndMaterialized, timestampedStoreBuilder } from './internal/materialize.js';
import { tableOf, type DslContext } from './ktable.js';
import type { Materialized, Named } from './options.js';
import { SessionWindows } from './session-windows.js';
import { SlidingWindows } from './sliding-windows.js';
import { Windows } from './windows.js';


/** What a grouped stream must offer a cogroup (a `KGroupedStream` does). */
interface CogroupInput<K, V> {
  cogroupSource(): CogroupSource<K, V>;
}

/** @internal The {@link CogroupedKStream} of `KGroupedStream.cogroup` (Kafka's `CogroupedKStreamImpl`). */
export class CogroupedKStreamImpl<K, VOut> implements CogroupedKStream<K, VOut> {
  private readonly state: CogroupState<K, VOut>;

  constructor(ctx: DslContext) {
    const patterns = new Map<object, CogroupPattern<K, VOut>>();
    this.state = {
      ctx,
      patterns,
      builder: new CogroupAggregateBuilder(ctx),
      keySerde: (materialized) => materialized?.keySerde ?? firstSource(patterns).keySerde(),
    };
  }

  cogroup<VIn>(groupedStream: KGroupedStream<K, VIn> | CogroupInput<K, VIn>, aggregator: Aggregator<K, VIn, VOut>): CogroupedKStream<K, VOut> {
    requireNonNull(groupedStream, 'groupedStream');
    requireFunction(aggregator, 'aggregator');
    const input = groupedStream as Partial<CogroupInput<K, VIn>>;
    if (typeof input.cogroupSource !== 'function') throw new TopologyError(`cogroup: give a KGroupedStream (from groupByKey() or groupBy()); got ${String(groupedStream)}`);
    const source = input.cogroupSource();
    if (source.ctx !== this.state.ctx) throw new TopologyError('cogroup: the grouped stream belongs to another StreamsBuilder; cogroup streams of one builder');
    this.state.patterns.set(groupedStream, { source: source as CogroupSource<K, unknown>, aggregator: aggregator as CogroupPattern<K, VOut>['aggregator'] });
    return this;
  }

  /**
   * Steps (Kafka's `doAggregate`):
   * 1. the store name: `materialized`'s, else `COGROUPKSTREAM-AGGREGATE-STATE-STORE-<n>`;
   * 2. the store (checked before the graph changes; a versioned one allowed, as Kafka's);
   * 3. the nodes (internal/cogroup-builder.ts) and the table over the merge node.
   */
  aggregate(initializer: Initializer<VOut>, named?: Named | string | Materialized<K, VOut>, materialized?: Materialized<K, VOut>): KTable<K, VOut> {
    requireFunction(initializer, 'initializer');
    const split = namedAndMaterialized<K, VOut>(named, materialized);
    const m = split.materialized ?? {};
    const { ctx } = this.state;
    // 1. store name
    const storeName = materializedName(m as Materialized<unknown, unknown>) ?? newStoreName(ctx, COGROUP_AGGREGATE_NAME);
    // 2. store
    const keySerde = this.state.keySerde(m);
    const valueSerde: Serde<VOut> = m.valueSerde ?? Serdes.Json<VOut>();
    const store = timestampedStoreBuilder(storeName, m, keySerde, valueSerde);
    const versioned = isVersionedSupplier(m.storeSupplier);
    // 3. nodes and table
    const table = this.state.builder.build<K, K, VOut>({
      patterns: this.state.patterns,
      named: split.named,
      storeName,
      stores: [store],
      makeSupplier: (aggregator) => {
        const supplier = aggregateSupplier<K, unknown, VOut>(storeName, initializer, aggregator);
        supplier.outputVersioned = versioned;
        return supplier;
      },
      keySerde,
      valueSerde,
      queryableStoreName: storeName,
    });
    return tableOf(ctx, table);
  }

  windowedBy(windows: Windows | SlidingWindows): TimeWindowedCogroupedKStream<K, VOut>;
  windowedBy(windows: SessionWindows): SessionWindowedCogroupedKStream<K, VOut>;
  windowedBy(windows: Windows | SlidingWindows | SessionWindows): TimeWindowedCogroupedKStream<K, VOut> | SessionWindowedCogroupedKStream<K, VOut> {
    requireNonNull(windows, 'windows');
    if (windows instanceof SessionWindows) return new SessionWindowedCogroupedKStreamImpl<K, VOut>(this.state, windows);
    if (windows instanceof SlidingWindows || windows instanceof Windows) return new TimeWindowedCogroupedKStreamImpl<K, VOut>(this.state, windows);
    throw new TopologyError(`windowedBy: give TimeWindows, SlidingWindows, SessionWindows or UnlimitedWindows; got ${String(windows)}`);
  }
}

function firstSource<K, VOut>(patterns: ReadonlyMap<object, CogroupPattern<K, VOut>>): CogroupSource<K, unknown> {
  for (const pattern of patterns.values()) return pattern.source;
  throw new TopologyError('cogroup: no grouped stream');
}
