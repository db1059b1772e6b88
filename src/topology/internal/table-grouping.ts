/**
 * `KTable.groupBy` (Kafka's `KTableImpl.groupBy` and
 * `GroupedTableOperationRepartitionNode`): the re-keying node and, per
 * aggregation, the repartition topic its changes go through.
 */
import { FailOnInvalidTimestamp } from '../../processors/timestamp-extractors.js';
import { changeSerde } from '../../processors/dsl/change-serde.js';
import { KTableRepartitionMapSupplier, type TableGroupSelector } from '../../processors/dsl/ktable-repartition-map.js';
import type { Serde } from '../../serdes/serde.js';
import { Serdes } from '../../serdes/serdes.js';
import type { Grouped } from '../options.js';
import { addInternalTopic } from '../topology.js';
import { nameOr, type BuilderContext } from './builder-context.js';
import { validateName } from './checks.js';
import type { NewGroupedTable, TableParts } from './dsl-parts.js';
import { REPARTITION_SUFFIX } from './repartition.js';

/**
 * Groups `table` by `selector`:
 * 1. the `KTABLE-SELECT-<n>` node (named `Grouped.name` when given, as Kafka);
 * 2. the parent table sends old values, materializing a source table (Kafka's
 *    `enableSendingOldValues(true)`): the selector needs each row's old value
 *    to take it out of its old group.
 */
export function groupTable<K, V, KR, VR>(table: TableParts<K, V>, selector: TableGroupSelector<K, V, KR, VR>, grouped: Grouped<KR, VR>): NewGroupedTable<KR, VR> {
  if (grouped.name !== undefined) validateName(grouped.name);
  // 1.
  const selectName = nameOr(table.ctx, grouped.name, 'KTABLE-SELECT-');
  table.ctx.topology.addProcessor(selectName, new KTableRepartitionMapSupplier<K, V, KR, VR>(table, selector), table.nodeName);
  // 2.
  table.enableSendingOldValues(true);
  return { nodeName: selectName, serdes: { key: grouped.keySerde, value: grouped.valueSerde }, groupedName: grouped.name };
}

/** What {@link addTableRepartition} needs. */
export interface TableRepartitionSpec<K, V> {
  /** The `KTABLE-SELECT-` node. */
  parent: string;
  /** `<Grouped.name or the store name>-repartition`. */
  topic: string;
  sinkName: string;
  sourceName: string;
  keySerde: Serde<K>;
  /** The grouping's value serde; the topic holds `Change`s of it (Kafka's `ChangedSerializer`). */
  valueSerde: Serde<V>;
}

/**
 * The repartition topic of a grouped-table aggregation, as Kafka's
 * `GroupedTableOperationRepartitionNode.writeToTopology`: the internal topic
 * (its partition count as for stream repartitions: the maximum of the
 * writing sub-topology's source topics), a sink writing it (no null-key
 * filter: the select node forwards no null key) and a source reading it.
 */
export function addTableRepartition<K, V>(ctx: BuilderContext, spec: TableRepartitionSpec<K, V>): void {
  const changes = changeSerde(spec.valueSerde);
  addInternalTopic(ctx.topology, spec.topic);
  ctx.topology.addSink(spec.sinkName, spec.topic, { keySerializer: spec.keySerde, valueSerializer: changes }, spec.parent);
  // As Kafka's repartition sources: the record's own timestamp (the upstream's extracted one), whatever the default extractor.
  ctx.topology.addSource(spec.sourceName, spec.topic, { keyDeserializer: spec.keySerde, valueDeserializer: changes, timestampExtractor: new FailOnInvalidTimestamp() });
}

/** The topic name of a grouped-table aggregation. */
export function tableRepartitionTopic(groupedName: string | undefined, storeName: string): string {
  return `${groupedName ?? storeName}${REPARTITION_SUFFIX}`;
}

/** A serde, else the builder's default, else `Serdes.Json()` (as `KGroupedStream`). */
export function serdeOr<T>(serde: Serde<T> | undefined, fallback: Serde<unknown> | undefined): Serde<T> {
  return serde ?? (fallback as Serde<T> | undefined) ?? Serdes.Json<T>();
}
