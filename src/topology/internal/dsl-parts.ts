/**
 * The plain parts the wiring files of `topology/internal/` take and return
 * instead of the DSL classes (see builder-context.ts): what they read of a
 * stream or a table (a `KStream` / `KTable` is one, structurally), and what
 * they hand back for the calling class to build its `KStream`, `KTable` or
 * `KGroupedTable` from. Imports no DSL class.
 */
import type { KTableNodeSupplier, KTableValueGetterSupplier } from '../../processors/dsl/ktable-contract.js';
import type { Windowed } from '../../state/window-types.js';
import type { Serde } from '../../serdes/serde.js';
import type { Aggregator, Initializer, Merger, Reducer } from '../aggregation-functions.js';
import type { EmitStrategy } from '../emit-strategy.js';
import type { Materialized, Named } from '../options.js';
import type { BuilderContext, StreamSerdes } from './builder-context.js';

/** What the wiring reads of a stream (a `KStream` is one). */
export interface StreamParts<K, V> {
  readonly ctx: BuilderContext;
  readonly nodeName: string;
  readonly serdes: StreamSerdes<K, V>;
  readonly keyChanged: boolean;
  /** The serdes to write with (`KStream.serdesOr`): explicit ones, else the stream's, else the defaults. */
  serdesOr(keySerde: Serde<K> | undefined, valueSerde: Serde<V> | undefined, writer: string, serdesOption?: string): { keySerde: Serde<K>; valueSerde: Serde<V> };
}

/** A stream node the wiring added: the `KStream` reading it is built by the caller. */
export interface NewStream<K, V> {
  readonly nodeName: string;
  readonly serdes: StreamSerdes<K, V>;
  readonly keyChanged: boolean;
}

/** What the wiring reads of a table (a `KTable` is one). */
export interface TableParts<K, V> {
  readonly ctx: BuilderContext;
  readonly nodeName: string;
  readonly serdes: StreamSerdes<K, V>;
  /** The table's view (Kafka's `valueGetterSupplier()`); materializes a source table. */
  valueGetterSupplier(): KTableValueGetterSupplier<K, V>;
  /** Makes the node send old values (Kafka's `enableSendingOldValues`); returns whether it now does. */
  enableSendingOldValues(forceMaterialization: boolean): boolean;
  /** The node's processor supplier (optional here: read only for `isOutputVersioned`). */
  readonly supplier?: KTableNodeSupplier<K, V>;
}

/** A table node the wiring added: the `KTable` of it is built by the caller (`new KTable(ctx, nodeName, supplier, queryableStoreName, serdes)`). */
export interface NewTable<K, V> {
  readonly nodeName: string;
  readonly supplier: KTableNodeSupplier<K, V>;
  readonly queryableStoreName: string | undefined;
  readonly serdes: StreamSerdes<K, V>;
}

/** A re-keyed table node (`KTable.groupBy`): the `KGroupedTable` of it is built by the caller. */
export interface NewGroupedTable<K, V> {
  readonly nodeName: string;
  readonly serdes: StreamSerdes<K, V>;
  /** `Grouped.name`: names the repartition topic. */
  readonly groupedName: string | undefined;
}

/** The aggregations of a stream windowed by time (`TimeWindowedKStream` over them builds the tables). */
export interface TimeWindowedAggregations<K, V> {
  count(named?: Named | string | Materialized<K, number>, materialized?: Materialized<K, number>): NewTable<Windowed<K>, number>;
  reduce(reducer: Reducer<V>, named?: Named | string | Materialized<K, V>, materialized?: Materialized<K, V>): NewTable<Windowed<K>, V>;
  aggregate<A>(initializer: Initializer<A>, aggregator: Aggregator<K, V, A>, named?: Named | string | Materialized<K, A>, materialized?: Materialized<K, A>): NewTable<Windowed<K>, A>;
  /** Sets the strategy of the aggregations created afterwards (checked). */
  emitStrategy(strategy: EmitStrategy): void;
}

/** The aggregations of a stream windowed by sessions (`SessionWindowedKStream` over them builds the tables). */
export interface SessionWindowedAggregations<K, V> {
  count(named?: Named | string | Materialized<K, number>, materialized?: Materialized<K, number>): NewTable<Windowed<K>, number>;
  reduce(reducer: Reducer<V>, named?: Named | string | Materialized<K, V>, materialized?: Materialized<K, V>): NewTable<Windowed<K>, V>;
  aggregate<A>(
    initializer: Initializer<A>,
    aggregator: Aggregator<K, V, A>,
    sessionMerger: Merger<K, A>,
    named?: Named | string | Materialized<K, A>,
    materialized?: Materialized<K, A>,
  ): NewTable<Windowed<K>, A>;
  /** Sets the strategy of the aggregations created afterwards (checked). */
  emitStrategy(strategy: EmitStrategy): void;
}
