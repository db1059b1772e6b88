/**
 * Grouped streams and their aggregations (count, reduce, aggregate) into a
 * KTable backed by a timestamped key-value store per task (persistent,
 * changelogged and cached by default, as Kafka Streams).
 */
import { aggregateSupplier, reduceSupplier, type StreamAggregationSupplier } from '../processors/dsl/aggregate.js';
import type { Serde } from '../serdes/serde.js';
import { Serdes } from '../serdes/serdes.js';
import { requireFunction, requireNonNull, validateName } from './internal/checks.js';
import type { StreamSerdes } from './internal/builder-context.js';
import { addRepartition } from './internal/repartition.js';
import { isVersionedSupplier, namedAndMaterialized, timestampedStoreBuilder } from './internal/materialize.js';
import type { CogroupedKStream, KGroupedStream, KTable, SessionWindowedKStream, TimeWindowedKStream } from './dsl-interfaces.js';
import { KTableImpl, type DslContext } from './ktable.js';
import type { Materialized, Named } from './options.js';
import { TopologyError } from '../errors.js';
import type { GroupedStreamParts } from './internal/grouped-parts.js';
import { sessionWindowedStream } from './internal/session-windowed.js';
import { slidingWindowedStream } from './internal/sliding-windowed.js';
import { timeWindowedStream } from './internal/time-windowed.js';
import { SessionWindows } from './session-windows.js';
import { SlidingWindows } from './sliding-windows.js';
import { SessionWindowedKStreamImpl, TimeWindowedKStreamImpl } from './windowed-kstream.js';
import { Windows } from './windows.js';
import type { Aggregator } from './aggregation-functions.js';
import { CogroupedKStreamImpl } from './cogrouped-kstream.js';
import type { CogroupSource } from './internal/cogroup-builder.js';

/** @internal Set when the key may have changed: each aggregation first repartitions. */
export interface RepartitionRequired {
  /** `Grouped.name`, naming the repartition topic and its nodes. */
  readonly name: string | undefined;
}

/** @internal The implementation of {@link KGroupedStream} (dsl-interfaces.ts). */
export class KGroupedStreamImpl<K, V> implements KGroupedStream<K, V> {
  /** @internal Use `KStream.groupByKey()` or `KStream.groupBy()`. */
  constructor(
    private readonly ctx: DslContext,
    private readonly nodeName: string,
    private readonly serdes: StreamSerdes<K, V>,
    private readonly repartition?: RepartitionRequired,
  ) {}

  /** The source node of this grouping's repartition topic, once created (named groupings only). */
  private repartitionSource: string | undefined;

  /**
   * The aggregation's parent: this stream's node, or the source of a
   * repartition topic. A named grouping (`Grouped.as`) creates its topic once
   * and every aggregation on it reads that one topic, as Kafka Streams reuses
   * the repartition node; an unnamed one gets a new topic per aggregation.
   */
  private parentFor(storeName: string): string {
    if (this.repartition === undefined) return this.nodeName;
    if (this.repartitionSource !== undefined) return this.repartitionSource;
    const source = addRepartition<K, V>(this.ctx, {
      parent: this.nodeName,
      groupedName: this.repartition.name,
      fallbackPrefix: storeName,
      keySerde: this.serdes.key ?? (this.ctx.defaultKeySerde as Serde<K> | undefined) ?? Serdes.Json<K>(),
      valueSerde: this.serdes.value ?? (this.ctx.defaultValueSerde as Serde<V> | undefined) ?? Serdes.Json<V>(),
    });
    if (this.repartition.name !== undefined) this.repartitionSource = source;
    return source;
  }

  private materialize<A>(
    prefix: string,
    supplier: (storeName: string) => StreamAggregationSupplier<K, V, A>,
    materialized: Materialized<K, A>,
    defaultValueSerde: Serde<A>,
    givenName?: string,
  ): KTable<K, A> {
    const named = materialized.storeSupplier?.name ?? materialized.storeName; // a supplier names its store (Kafka's Materialized.as(supplier))
    const storeName = named === undefined ? this.ctx.newName(`${prefix}STATE-STORE-`) : validateName(named);
    const processorName = givenName ?? this.ctx.newName(prefix);
    const keySerde = materialized.keySerde ?? this.serdes.key ?? (this.ctx.defaultKeySerde as Serde<K> | undefined) ?? Serdes.Json<K>();
    const valueSerde = materialized.valueSerde ?? defaultValueSerde;
    const parent = this.parentFor(storeName);
    const tableSupplier = supplier(storeName);
    // Kafka's GroupedStreamAggregateBuilder setOutputVersioned: a versioned store supplier is allowed (KIP-914)
    tableSupplier.outputVersioned = isVersionedSupplier(materialized.storeSupplier);
    this.ctx.topology.addProcessor(processorName, tableSupplier, parent);
    this.ctx.topology.addStateStore(timestampedStoreBuilder(storeName, materialized, keySerde, valueSerde), processorName);
    return new KTableImpl<K, A>(this.ctx, processorName, tableSupplier, storeName, { key: keySerde, value: valueSerde });
  }

  count(named?: Named | string | Materialized<K, number>, materialized?: Materialized<K, number>): KTable<K, number> {
    if (named === null) requireNonNull(named, materialized === undefined ? 'materialized' : 'named');
    if (materialized === null) requireNonNull(materialized, 'materialized');
    const split = namedAndMaterialized<K, number>(named, materialized);
    const given = split.named === undefined ? undefined : validateName(typeof split.named === 'string' ? split.named : split.named.name);
    return this.materialize('KSTREAM-AGGREGATE-', (store) => aggregateSupplier<K, V, number>(store, () => 0, (_k, _v, n) => n + 1), split.materialized ?? {}, Serdes.Long(), given);
  }

  reduce(reducer: (aggregate: V, value: V) => V, materialized: Materialized<K, V> = {}): KTable<K, V> {
    requireFunction(reducer, 'reducer');
    requireNonNull(materialized, 'materialized');
    return this.materialize('KSTREAM-REDUCE-', (store) => reduceSupplier<K, V>(store, reducer), materialized, this.serdes.value ?? (this.ctx.defaultValueSerde as Serde<V> | undefined) ?? Serdes.Json<V>());
  }

  aggregate<A>(
    initializer: () => A,
    aggregator: (key: K, value: V, aggregate: A) => A,
    materialized: Materialized<K, A> = {},
  ): KTable<K, A> {
    requireFunction(initializer, 'initializer');
    requireFunction(aggregator, 'aggregator');
    requireNonNull(materialized, 'materialized');
    return this.materialize('KSTREAM-AGGREGATE-', (store) => aggregateSupplier<K, V, A>(store, initializer, aggregator), materialized, Serdes.Json<A>());
  }

  windowedBy(windows: Windows | SlidingWindows): TimeWindowedKStream<K, V>;
  windowedBy(windows: SessionWindows): SessionWindowedKStream<K, V>;
  windowedBy(windows: Windows | SlidingWindows | SessionWindows): TimeWindowedKStream<K, V> | SessionWindowedKStream<K, V> {
    requireNonNull(windows, 'windows');
    if (windows instanceof SessionWindows) return new SessionWindowedKStreamImpl(this.ctx, sessionWindowedStream(this.parts(), windows));
    if (windows instanceof SlidingWindows) return new TimeWindowedKStreamImpl(this.ctx, slidingWindowedStream(this.parts(), windows));
    if (windows instanceof Windows) return new TimeWindowedKStreamImpl(this.ctx, timeWindowedStream(this.parts(), windows));
    throw new TopologyError(`windowedBy: give TimeWindows, SlidingWindows, SessionWindows or UnlimitedWindows; got ${String(windows)}`);
  }

  cogroup<VOut>(aggregator: Aggregator<K, V, VOut>): CogroupedKStream<K, VOut> {
    requireFunction(aggregator, 'aggregator');
    return new CogroupedKStreamImpl<K, VOut>(this.ctx).cogroup(this, aggregator);
  }

  /** @internal What a cogroup reads of this grouping (internal/cogroup-builder.ts). */
  cogroupSource(): CogroupSource<K, V> {
    const parts = this.parts();
    return {
      ctx: this.ctx,
      nodeName: this.nodeName,
      repartitionRequired: this.repartition !== undefined,
      groupedName: this.repartition?.name,
      keySerde: parts.keySerde,
      valueSerde: parts.valueSerde,
    };
  }

  private parts(): GroupedStreamParts<K, V> {
    return {
      ctx: this.ctx,
      serdes: this.serdes,
      keySerde: () => this.serdes.key ?? (this.ctx.defaultKeySerde as Serde<K> | undefined) ?? Serdes.Json<K>(),
      valueSerde: () => this.serdes.value ?? (this.ctx.defaultValueSerde as Serde<V> | undefined) ?? Serdes.Json<V>(),
      parentFor: (storeName) => this.parentFor(storeName),
    };
  }
}
