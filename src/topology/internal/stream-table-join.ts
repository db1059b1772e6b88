/**
 * KStream–KTable joins (Kafka's `KStreamImpl.join/leftJoin(KTable, ...)` and
 * `doStreamTableJoin`).
 */
import { TopologyError } from '../../errors.js';
import { KStreamKTableJoinSupplier, type StreamTableJoiner } from '../../processors/dsl/stream-table-join.js';
import type { Joined } from '../joined.js';
import { requireNonNull, validateName } from './checks.js';
import type { NewStream, StreamParts, TableParts } from './dsl-parts.js';
import type { AnyValueJoiner } from '../joiners.js';
import { resolveJoiner } from './key-first.js';
import { repartitionForJoin } from './repartition-for-join.js';

/** Kafka's message (`doStreamTableJoin`) when a join asks for a grace period: it needs a versioned table. */
export const GRACE_NEEDS_VERSIONED_TABLE = 'KTable must be versioned to use a grace period in a stream table join.';

/**
 * `stream.join/leftJoin(table, joiner, joined?)`; `args` as the KStream
 * overloads take them (`[joiner, joined?]`):
 * 1. check the arguments (a grace period above 0 is refused: tables keep one version);
 * 2. repartition the stream when its key may have changed, through
 *    `<Joined.name, else the stream's node name>-repartition`, written with
 *    Joined's serdes, else the stream's;
 * 3. add the join processor `KSTREAM-JOIN-<n>` / `KSTREAM-LEFTJOIN-<n>` (or
 *    `Joined.name`), connected to the stores the table's view reads (a source
 *    table is materialized for it);
 * 4. mark the stream's and the table's input topics as co-partitioned.
 * The result keeps the stream's key serde (or Joined's); its value serde is unknown.
 */
export function streamTableJoin<K, V>(stream: StreamParts<K, V>, kind: 'inner' | 'left', table: TableParts<K, unknown>, args: unknown[]): NewStream<K, unknown> {
  // 1. arguments
  const joiner: StreamTableJoiner<K, V, unknown, unknown> = resolveJoiner(args[0] as AnyValueJoiner<K, V, unknown, unknown>);
  if (args[1] === null) requireNonNull(args[1], 'joined');
  const joined = (args[1] ?? {}) as Joined<K, V, unknown>;
  if (typeof joined !== 'object') throw new TopologyError(`${kind === 'left' ? 'leftJoin' : 'join'}: the third argument must be a Joined (Joined.with(keySerde, valueSerde, otherValueSerde)); got ${typeof joined}`);
  if (joined.name !== undefined) validateName(joined.name);
  if (table.ctx !== stream.ctx) throw new TopologyError(`join: the stream and the table must come from the same StreamsBuilder (joining into '${stream.nodeName}')`);
  if (joined.gracePeriodMs !== undefined && joined.gracePeriodMs > 0) {
    throw new TopologyError(
      `${GRACE_NEEDS_VERSIONED_TABLE} sluice's tables keep one version per key (there are no versioned stores): ` +
        `remove the grace period (${joined.gracePeriodMs} ms) from the Joined of the join after '${stream.nodeName}'`,
    );
  }
  // 2. repartition
  let parent = stream.nodeName;
  let keySerde = joined.keySerde ?? stream.serdes.key;
  if (stream.keyChanged) {
    const serdes = stream.serdesOr(joined.keySerde, joined.valueSerde, `join after '${stream.nodeName}' (its repartition topic)`, 'Joined.with(keySerde, valueSerde, otherValueSerde)');
    parent = repartitionForJoin(stream, joined.name ?? stream.nodeName, serdes.keySerde, serdes.valueSerde);
    keySerde = serdes.keySerde;
  }
  // 3. the join processor
  // a named join burns its generated name too (Kafka's NamedInternal.orElseGenerateWithPrefix)
  const generated = stream.ctx.newName(kind === 'left' ? 'KSTREAM-LEFTJOIN-' : 'KSTREAM-JOIN-');
  const name = joined.name ?? generated;
  const view = table.valueGetterSupplier();
  const topology = stream.ctx.topology;
  topology.addProcessor(name, new KStreamKTableJoinSupplier<K, V, K, unknown, unknown>(view, joiner, kind === 'left'), parent);
  const stores = view.storeNames();
  if (stores.length > 0) topology.connectProcessorAndStateStores(name, ...stores);
  // 4. co-partitioning
  topology.copartition(parent, table.nodeName);
  return { nodeName: name, serdes: { key: keySerde }, keyChanged: false };
}
