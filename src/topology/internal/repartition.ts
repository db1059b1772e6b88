/**
 * The repartition boundary of the DSL, as Kafka Streams builds it before an
 * aggregation whose key may have changed: a null-key filter, a sink writing
 * the internal topic `<prefix>-repartition`, and a source reading it (which
 * starts a new sub-topology).
 */
import { FailOnInvalidTimestamp } from '../../processors/timestamp-extractors.js';
import { filterSupplier } from '../../processors/dsl/stateless.js';
import type { StreamPartitioner } from '../../processors/processor.js';
import type { Serde } from '../../serdes/serde.js';
import { addInternalTopic } from '../topology.js';
import type { BuilderContext } from './builder-context.js';

/** The suffix of repartition topic names. */
export const REPARTITION_SUFFIX = '-repartition';

/** What {@link addRepartition} needs. */
export interface RepartitionSpec<K, V> {
  /** The node whose records are repartitioned. */
  parent: string;
  /** `Grouped.name` when given: names the topic and the nodes (`<name>-repartition-filter/-sink/-source`). */
  groupedName: string | undefined;
  /** The topic prefix when no grouped name is given (Kafka: the state store name). */
  fallbackPrefix: string;
  keySerde: Serde<K>;
  valueSerde: Serde<V>;
}

/**
 * Adds the filter, sink and source of a repartition topic; returns the name
 * of the source node (the parent of the aggregation). Unnamed nodes get
 * generated names in Kafka's order: sink, filter, source.
 */
export function addRepartition<K, V>(ctx: BuilderContext, spec: RepartitionSpec<K, V>): string {
  const topic = `${spec.groupedName ?? spec.fallbackPrefix}${REPARTITION_SUFFIX}`;
  let sink: string;
  let filter: string;
  let source: string;
  if (spec.groupedName !== undefined) {
    [sink, filter, source] = [`${topic}-sink`, `${topic}-filter`, `${topic}-source`];
  } else {
    sink = ctx.newName('KSTREAM-SINK-');
    filter = ctx.newName('KSTREAM-FILTER-');
    source = ctx.newName('KSTREAM-SOURCE-');
    // Kafka's createRepartitionedSource: a prefix that is not a generated name (a Materialized store name) names the nodes too
    if (!/^KSTREAM.*-[0-9]{10}$/.test(spec.fallbackPrefix)) [sink, filter, source] = [`${topic}-sink`, `${topic}-filter`, `${topic}-source`];
  }
  addInternalTopic(ctx.topology, topic);
  const nullKey = (key: unknown): boolean => key === null || key === undefined;
  ctx.topology.addProcessor(filter, filterSupplier(nullKey, true), spec.parent);
  ctx.topology.addSink<K, V>(sink, topic, { keySerializer: spec.keySerde, valueSerializer: spec.valueSerde }, filter);
  ctx.topology.addSource<K, V>(source, topic, { keyDeserializer: spec.keySerde, valueDeserializer: spec.valueSerde, timestampExtractor: new FailOnInvalidTimestamp() });
  return source;
}

/** What {@link addRepartitionOperation} needs (`KStream.repartition()`). */
export interface RepartitionOperationSpec<K, V> {
  parent: string;
  /** `Repartitioned.name`, else the generated `KSTREAM-REPARTITION-<n>`. */
  name: string;
  generatedName: boolean;
  keySerde: Serde<K>;
  valueSerde: Serde<V>;
  partitioner: StreamPartitioner<K, V> | undefined;
  numberOfPartitions: number | undefined;
}

/**
 * Adds the nodes of `repartition()` as Kafka's `createRepartitionedSource`:
 * 1. the topic is `<name>-repartition`;
 * 2. three names are generated (sink, filter, source) even when the operation
 *    is named, as Kafka burns them; a named operation's nodes are
 *    `<topic>-sink`, `<topic>-filter`, `<topic>-source`;
 * 3. a filter passing every record (null keys too, as Kafka's), the sink
 *    (with the partitioner) and the source reading the topic back.
 * Returns the source's name.
 */
export function addRepartitionOperation<K, V>(ctx: BuilderContext, spec: RepartitionOperationSpec<K, V>): string {
  // 1. topic
  const topic = `${spec.name}${REPARTITION_SUFFIX}`;
  // 2. names
  const generated = [ctx.newName('KSTREAM-SINK-'), ctx.newName('KSTREAM-FILTER-'), ctx.newName('KSTREAM-SOURCE-')] as const;
  const [sink, filter, source] = spec.generatedName ? generated : [`${topic}-sink`, `${topic}-filter`, `${topic}-source`];
  // 3. nodes
  addInternalTopic(ctx.topology, topic, spec.numberOfPartitions);
  ctx.topology.addProcessor(filter, filterSupplier(() => true, false), spec.parent);
  ctx.topology.addSink<K, V>(
    sink,
    topic,
    { keySerializer: spec.keySerde, valueSerializer: spec.valueSerde, ...(spec.partitioner ? { partitioner: spec.partitioner } : {}) },
    filter,
  );
  ctx.topology.addSource<K, V>(source, topic, { keyDeserializer: spec.keySerde, valueDeserializer: spec.valueSerde, timestampExtractor: new FailOnInvalidTimestamp() });
  return source;
}
