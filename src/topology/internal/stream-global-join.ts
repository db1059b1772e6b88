/**
 * KStream–GlobalKTable joins (Kafka's `KStreamImpl.globalTableJoin`): one
 * processor `KSTREAM-LEFTJOIN-<n>` (Kafka's prefix for the inner join too)
 * under the stream; it reads the global store through `getStateStore`, so no
 * store is connected and no co-partitioning is required.
 */
import { streamGlobalJoinSupplier } from '../../processors/dsl/stream-global-join.js';
import type { GlobalKTable } from '../global-ktable.js';
import type { Named } from '../options.js';
import { nameOr } from './builder-context.js';
import { requireFunction } from './checks.js';
import type { NewStream, StreamParts } from './dsl-parts.js';
import type { AnyValueJoiner } from '../joiners.js';
import { resolveJoiner } from './key-first.js';

/** `stream.join/leftJoin(globalTable, keySelector, joiner, named?)`; args as the KStream overloads take them. */
export function streamGlobalJoin<K, V>(stream: StreamParts<K, V>, kind: 'inner' | 'left', table: GlobalKTable<unknown, unknown>, args: unknown[]): NewStream<K, unknown> {
  const [keySelector, joinerArg, named] = args as [(key: K, value: V) => unknown, AnyValueJoiner<K, V, unknown, unknown>, Named | string | undefined];
  requireFunction(keySelector, 'keySelector');
  const joiner = resolveJoiner(joinerArg);
  // Kafka's NamedInternal.orElseGenerateWithPrefix: the index is burnt even when a name is given.
  const generated = stream.ctx.newName('KSTREAM-LEFTJOIN-');
  const name = named === undefined ? generated : nameOr(stream.ctx, named, 'KSTREAM-LEFTJOIN-');
  stream.ctx.topology.addProcessor(name, streamGlobalJoinSupplier(table.valueGetterSupplier(), keySelector, joiner, kind === 'left'), stream.nodeName);
  return { nodeName: name, serdes: { key: stream.serdes.key }, keyChanged: stream.keyChanged };
}
