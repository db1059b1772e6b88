/**
 * KStream–KTable joins (Kafka's `KStreamImpl.join/leftJoin(KTable, ...)` and
 * `doStreamTableJoin`).
 */
import { TopologyError } from '../../errors.js';
import { isOutputVersioned } from '../../processors/dsl/ktable-contract.js';
import { GRACE_NEEDS_VERSIONED_TABLE, KStreamKTableJoinSupplier, type StreamTableJoiner } from '../../processors/dsl/stream-table-join.js';
import { StreamTableJoinBufferBuilder } from '../../processors/dsl/stream-table-join-buffer.js';
import { VersionedKeyValueStoreBuilder } from '../../state/versioned/versioned-store-builder.js';
import { graphNodesOf } from '../topology.js';
import type { Joined } from '../joined.js';
import { requireNonNull, validateName } from './checks.js';
import type { NewStream, StreamParts, TableParts } from './dsl-parts.js';
import type { AnyValueJoiner } from '../joiners.js';
import { resolveJoiner } from './key-first.js';
import { repartitionForJoin } from './repartition-for-join.js';

/** Kafka's message (`StreamTableJoinNode`) when the grace period is longer than a table store's history retention. */
export const GRACE_LONGER_THAN_HISTORY = 'History retention must be at least grace period.';

/** Kafka's buffer store name of a join with a grace period: `<join name>-Buffer`. */
export const BUFFER_SUFFIX = '-Buffer';

/**
 * `stream.join/leftJoin(table, joiner, joined?)`; `args` as the KStream
 * overloads take them (`[joiner, joined?]`):
 * 1. check the arguments; a grace period (KIP-923, 0 too, as Kafka's) needs
 *    a versioned table: its changes versioned (else TopologyError), every
 *    store its view reads versioned with a history retention of at least the
 *    grace (Kafka checks these when the topology is built; sluice at the join);
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
  const grace = joined.gracePeriodMs;
  if (grace !== undefined && !isOutputVersioned(table)) throw graceError(GRACE_NEEDS_VERSIONED_TABLE, stream.nodeName, grace);
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
  const stores = view.storeNames();
  const bufferStoreName = grace === undefined ? undefined : `${name}${BUFFER_SUFFIX}`;
  if (grace !== undefined) checkVersionedStores(stream, stores, grace);
  const supplier = new KStreamKTableJoinSupplier<K, V, K, unknown, unknown>(view, joiner, kind === 'left', undefined, bufferStoreName === undefined ? undefined : { bufferStoreName });
  topology.addProcessor(name, supplier, parent);
  if (stores.length > 0) topology.connectProcessorAndStateStores(name, ...stores);
  if (grace !== undefined && bufferStoreName !== undefined) {
    // the buffer holds stream records: the serdes of the join's repartition topic (Joined's, else the stream's, else the defaults)
    const serdes = stream.serdesOr(joined.keySerde, joined.valueSerde, `join after '${stream.nodeName}' (its buffer '${bufferStoreName}')`, 'Joined.with(keySerde, valueSerde, otherValueSerde)');
    topology.addStateStore(new StreamTableJoinBufferBuilder<K, V>(bufferStoreName, grace, serdes.keySerde, serdes.valueSerde), name);
  }
  // 4. co-partitioning
  topology.copartition(parent, table.nodeName);
  return { nodeName: name, serdes: { key: keySerde }, keyChanged: false };
}

/** A join's grace-period error naming the join and the fix. */
function graceError(message: string, after: string, grace: number): TopologyError {
  return new TopologyError(
    `${message} The join after '${after}' has a grace period of ${grace} ms: materialize the table on a versioned store ` +
      `(Materialized.as(Stores.persistentVersionedKeyValueStore(name, historyRetentionMs)) with a history retention of at least the grace), or remove the grace period from the Joined`,
  );
}

/** Kafka's `StreamTableJoinNode` checks: every store the table's view reads is versioned, its history retention at least the grace. */
function checkVersionedStores(stream: StreamParts<unknown, unknown>, storeNames: string[], grace: number): void {
  const { stores } = graphNodesOf(stream.ctx.topology);
  for (const storeName of storeNames) {
    const builder = stores.get(storeName)?.builder;
    if (!(builder instanceof VersionedKeyValueStoreBuilder)) throw graceError(GRACE_NEEDS_VERSIONED_TABLE, stream.nodeName, grace);
    if (grace > builder.supplier.historyRetentionMs) throw graceError(GRACE_LONGER_THAN_HISTORY, stream.nodeName, grace);
  }
}
