/**
 * `KStream.process` and `KStream.processValues` (Kafka's `KStreamImpl.process`
 * / `processValues`): one processor node under the stream, connected to the
 * named stores and to those its supplier declares (`stores()`).
 */
import { adaptFixedKeySupplier, type FixedKeyProcessorSupplier } from '../../processors/fixed-key-processor.js';
import type { ProcessorSupplier } from '../../processors/processor.js';
import type { Named } from '../options.js';
import { nameOr } from './builder-context.js';
import { requireNonNull } from './checks.js';
import type { NewStream, StreamParts } from './dsl-parts.js';

/** The optional `Named` and the store names of a `process`/`processValues` call, null-checked with Kafka's messages. */
function splitArgs(supplier: unknown, args: ReadonlyArray<string | Named>): { named: Named | undefined; stores: string[] } {
  requireNonNull(supplier, 'processorSupplier');
  // A null followed by store names stands where the Named goes (Java's `process(supplier, (Named) null, "store")`); a lone null is a store name.
  if (args.length > 1) requireNonNull(args[0], 'named');
  for (const a of args) requireNonNull(a, 'stateStoreNames');
  return {
    named: args.find((a): a is Named => typeof a === 'object'),
    stores: args.filter((a): a is string => typeof a === 'string'),
  };
}

/**
 * Adds the processor node `name` (the supplier's own stores are added and
 * connected by `Topology.addProcessor`), then connects the named stores.
 */
function addNode<K, V>(stream: StreamParts<K, V>, prefix: string, supplier: ProcessorSupplier<K, V, unknown, unknown>, args: ReadonlyArray<string | Named>): string {
  const { named, stores } = splitArgs(supplier, args);
  const name = nameOr(stream.ctx, named, prefix);
  stream.ctx.topology.addProcessor(name, supplier, stream.nodeName);
  if (stores.length > 0) stream.ctx.topology.connectProcessorAndStateStores(name, ...stores);
  return name;
}

/** `stream.process(supplier, [named], ...stores)`: the key may change, so downstream aggregations and joins repartition; no serdes are inherited. */
export function processStream<K, V, KOut, VOut>(stream: StreamParts<K, V>, supplier: ProcessorSupplier<K, V, KOut, VOut>, args: ReadonlyArray<string | Named>): NewStream<KOut, VOut> {
  const name = addNode(stream, 'KSTREAM-PROCESSOR-', supplier as ProcessorSupplier<K, V, unknown, unknown>, args);
  return { nodeName: name, serdes: {}, keyChanged: true };
}

/**
 * `stream.processValues(supplier, [named], ...stores)`: the key cannot
 * change, so the stream keeps its key serde and its repartition flag (a
 * later `groupByKey` or join repartitions only if the stream needed it
 * before); the value serde is not inherited (Kafka's rule).
 */
export function processStreamValues<K, V, VOut>(stream: StreamParts<K, V>, supplier: FixedKeyProcessorSupplier<K, V, VOut>, args: ReadonlyArray<string | Named>): NewStream<K, VOut> {
  requireNonNull(supplier, 'processorSupplier');
  const name = addNode(stream, 'KSTREAM-PROCESSVALUES-', adaptFixedKeySupplier(supplier) as ProcessorSupplier<K, V, unknown, unknown>, args);
  return { nodeName: name, serdes: { key: stream.serdes.key }, keyChanged: stream.keyChanged };
}
