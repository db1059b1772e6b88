/**
 * The repartition of a join's stream side after a key-changing operation
 * (Kafka's `KStreamImpl.repartitionForJoin`), shared by the joins of a stream.
 */
import type { Serde } from '../../serdes/serde.js';
import type { StreamParts } from './dsl-parts.js';
import { addRepartitionOperation } from './repartition.js';

/** Kafka's rule for a generated prefix (`createRepartitionedSource`): generated node names then. */
const GENERATED = /^KSTREAM.*-[0-9]{10}$/;

/** The repartition source last created for a stream (Kafka's `KStreamImpl.repartitionNode`), keyed by the `KStream`. */
const repartitionSources = new WeakMap<StreamParts<unknown, unknown>, string>();

/**
 * The name of the source node reading `stream` back from the repartition
 * topic `<name>-repartition`, as Kafka's `repartitionForJoin(name, keySerde, valueSerde)`:
 * 1. three node names (sink, filter, source) are generated every time, as Kafka burns them;
 * 2. an unnamed join (`name` is the stream's node name) of a stream that was
 *    already repartitioned for a join reuses that repartition topic;
 * 3. otherwise a filter, a sink writing `<name>-repartition` and a source
 *    reading it are added (named `<topic>-filter/-sink/-source` unless `name`
 *    is a generated `KSTREAM-...-<10 digits>` one).
 */
export function repartitionForJoin<K, V>(stream: StreamParts<K, V>, name: string, keySerde: Serde<K>, valueSerde: Serde<V>): string {
  const key = stream as StreamParts<unknown, unknown>;
  const cached = repartitionSources.get(key);
  if (cached !== undefined && name === stream.nodeName) {
    // 1. burn the names, 2. reuse
    for (const prefix of ['KSTREAM-SINK-', 'KSTREAM-FILTER-', 'KSTREAM-SOURCE-']) stream.ctx.newName(prefix);
    return cached;
  }
  // 1. + 3.
  const source = addRepartitionOperation<K, V>(stream.ctx, {
    parent: stream.nodeName,
    name,
    generatedName: GENERATED.test(name),
    keySerde,
    valueSerde,
    partitioner: undefined,
    numberOfPartitions: undefined,
  });
  repartitionSources.set(key, source);
  return source;
}
