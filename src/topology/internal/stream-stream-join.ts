/**
 * KStream–KStream windowed joins, built as Kafka's `KStreamImpl.doJoin` and
 * `KStreamImplJoin.join`:
 *
 * 1. a side whose key may have changed is repartitioned first, through
 *    `<name>-left-repartition` / `<name>-right-repartition` (StreamJoined
 *    named) or `<node>-repartition` (the same topic when the stream is joined
 *    again);
 * 2. names are taken in Kafka's order: the two window nodes, the two join
 *    processors, the merge node;
 * 3. each side gets a window node storing its records into its window store
 *    (retaining duplicates, `windowSize = before + after`,
 *    `retention = windowSize + grace`), then a join processor looking up the
 *    other side's store; a merge node unites their results;
 * 4. left and outer joins share a time-ordered store of records still
 *    waiting for a partner (`KSTREAM-OUTERSHARED-<n>-store`);
 * 5. the two window nodes' inputs must be co-partitioned.
 */
import { TopologyError } from '../../errors.js';
import { joinWindowSupplier } from '../../processors/dsl/join-window-processor.js';
import { leftOrRightValueListSerde, timestampedKeyAndJoinSideSerde } from '../../processors/dsl/outer-join-store.js';
import { passThroughSupplier } from '../../processors/dsl/stateless.js';
import { syncResult } from '../../processors/dsl/sync-result.js';
import { streamJoinSideSupplier, TimeTrackerSupplier, type JoinWindowSpec } from '../../processors/dsl/stream-stream-join.js';
import type { StateStore, StoreBuilder } from '../../state/state-store.js';
import { Stores } from '../../state/stores.js';
import { dslKeyValueSupplier, dslStoreSuppliersLike, dslWindowSupplier } from '../../state/dsl-store-suppliers.js';
import type { WindowBytesStoreSupplier } from '../../state/window-store.js';
import type { Serde } from '../../serdes/serde.js';
import type { JoinWindows } from '../join-windows.js';
import type { AnyValueJoiner } from '../joiners.js';
import { resolveJoiner, type InternalJoiner } from './key-first.js';
import type { StreamJoined } from '../stream-joined.js';
import type { BuilderContext } from './builder-context.js';
import { requireNonNull, validateName } from './checks.js';
import type { NewStream, StreamParts } from './dsl-parts.js';
import { addRepartitionOperation } from './repartition.js';

/** Which records a join keeps. */
export type StreamJoinKind = 'inner' | 'left' | 'outer';

type Joiner = InternalJoiner<unknown, unknown, unknown, unknown>;

/** Kafka's test for a generated name (`createRepartitionedSource`): such a prefix keeps generated node names. */
const GENERATED = /^KSTREAM.*-[0-9]{10}$/;

/** stream (the `KStream`) -> topic prefix -> the source node reading its join repartition topic (Kafka reuses it when the stream is joined again). */
const joinRepartitions = new WeakMap<StreamParts<unknown, unknown>, Map<string, string>>();

/** `stream.join/leftJoin/outerJoin(other, joiner, windows, streamJoined?)`; args as the KStream overloads take them. */
export function streamStreamJoin<K, V>(stream: StreamParts<K, V>, kind: StreamJoinKind, other: StreamParts<K, unknown>, args: unknown[]): NewStream<K, unknown> {
  const [joinerArg, windows, joinedArg] = args as [AnyValueJoiner<unknown, unknown, unknown, unknown>, JoinWindows, StreamJoined<K, V, unknown> | undefined];
  const joiner: Joiner = resolveJoiner(joinerArg);
  requireNonNull(windows, 'windows');
  // no StreamJoined (or undefined) means the defaults, as Kafka's three-argument overloads; an explicit null is refused as in Kafka
  if (joinedArg === null) requireNonNull(joinedArg, 'streamJoined');
  const joined: StreamJoined<K, V, unknown> = joinedArg ?? {};
  const ctx = stream.ctx;
  const keySerde = joined.keySerde ?? stream.serdes.key ?? other.serdes.key;
  const thisSerdes = stream.serdesOr(keySerde, joined.valueSerde, `join store of '${stream.nodeName}'`, 'StreamJoined.with(keySerde, valueSerde, otherValueSerde)');
  const otherSerdes = other.serdesOr(keySerde, joined.otherValueSerde, `join store of '${other.nodeName}'`, 'StreamJoined.with(keySerde, valueSerde, otherValueSerde)');
  // 1. repartition
  const thisParent = stream.keyChanged ? repartitionForJoin(stream, joined.name === undefined ? stream.nodeName : `${joined.name}-left`, thisSerdes) : stream.nodeName;
  const otherParent = other.keyChanged ? repartitionForJoin(other, joined.name === undefined ? other.nodeName : `${joined.name}-right`, otherSerdes) : other.nodeName;
  return join(ctx, kind, { thisParent, otherParent, joiner, windows, joined, thisSerdes, otherSerdes });
}

function repartitionForJoin<K, V>(stream: StreamParts<K, V>, prefix: string, serdes: { keySerde: Serde<K>; valueSerde: Serde<V> }): string {
  const byPrefix = joinRepartitions.get(stream as StreamParts<unknown, unknown>) ?? new Map<string, string>();
  joinRepartitions.set(stream as StreamParts<unknown, unknown>, byPrefix);
  const known = byPrefix.get(prefix);
  if (known !== undefined && prefix === stream.nodeName) {
    // Kafka burns the three names again, for topology compatibility
    for (const p of ['KSTREAM-SINK-', 'KSTREAM-FILTER-', 'KSTREAM-SOURCE-']) stream.ctx.newName(p);
    return known;
  }
  const source = addRepartitionOperation<K, V>(stream.ctx, {
    parent: stream.nodeName,
    name: prefix,
    generatedName: GENERATED.test(prefix),
    keySerde: serdes.keySerde,
    valueSerde: serdes.valueSerde,
    partitioner: undefined,
    numberOfPartitions: undefined,
  });
  byPrefix.set(prefix, source);
  return source;
}

interface JoinSpec<K> {
  thisParent: string;
  otherParent: string;
  joiner: Joiner;
  windows: JoinWindows;
  joined: StreamJoined<K, unknown, unknown>;
  thisSerdes: { keySerde: Serde<K>; valueSerde: Serde<unknown> };
  otherSerdes: { keySerde: Serde<K>; valueSerde: Serde<unknown> };
}

/** Kafka's `KStreamImplJoin.join`. */
function join<K>(ctx: BuilderContext, kind: StreamJoinKind, spec: JoinSpec<K>): NewStream<K, unknown> {
  const { joined, windows } = spec;
  const leftOuter = kind !== 'inner';
  const rightOuter = kind === 'outer';
  const name = joined.name;
  const joinThisSuffix = rightOuter ? '-outer-this-join' : '-this-join';
  const joinOtherSuffix = leftOuter ? '-outer-other-join' : '-other-join';
  // 2. names, in Kafka's order; a generated name is burnt even when the join is named (NamedInternal.suffixWithOrElseGet)
  const named = (suffix: string, generated: string): string => (name !== undefined ? validateName(`${name}${suffix}`) : generated);
  const thisWindowedName = named('-this-windowed', ctx.newName('KSTREAM-WINDOWED-'));
  const otherWindowedName = named('-other-windowed', ctx.newName('KSTREAM-WINDOWED-'));
  const joinThisGenerated = ctx.newName(rightOuter ? 'KSTREAM-OUTERTHIS-' : 'KSTREAM-JOINTHIS-');
  const joinOtherGenerated = ctx.newName(leftOuter ? 'KSTREAM-OUTEROTHER-' : 'KSTREAM-JOINOTHER-');
  const joinThisName = named(joinThisSuffix, joinThisGenerated);
  const joinOtherName = named(joinOtherSuffix, joinOtherGenerated);
  const mergeName = named('-merge', ctx.newName('KSTREAM-MERGE-'));
  // 3. window stores
  const window: JoinWindowSpec = { beforeMs: windows.beforeMs, afterMs: windows.afterMs, graceMs: windows.graceMs };
  const size = window.beforeMs + window.afterMs;
  const retention = size + window.graceMs;
  if (joined.thisStoreSupplier !== undefined && joined.otherStoreSupplier !== undefined && joined.thisStoreSupplier.name === joined.otherStoreSupplier.name) {
    throw new TopologyError('Both StoreSuppliers have the same name.  StoreSuppliers must provide unique names');
  }
  const storeName = (generated: string, suffix: string): string => `${joined.storeName === undefined ? generated : joined.storeName + suffix}-store`;
  const joinStore = (name: string): WindowBytesStoreSupplier => dslWindowSupplier({ name, retentionPeriod: retention, windowSize: size, retainDuplicates: true, timestamped: false }, undefined);
  const thisSupplier = joined.thisStoreSupplier ?? joinStore(storeName(joinThisGenerated, joinThisSuffix));
  const otherSupplier = joined.otherStoreSupplier ?? joinStore(storeName(joinOtherGenerated, joinOtherSuffix));
  for (const supplier of [joined.thisStoreSupplier, joined.otherStoreSupplier]) if (supplier !== undefined) assertWindowSettings(supplier, window, size, retention);
  const thisStore = windowStoreBuilder(thisSupplier, spec.thisSerdes, joined);
  const otherStore = windowStoreBuilder(otherSupplier, spec.otherSerdes, joined);
  // 4. the shared outer store
  const outerStore = leftOuter ? outerStoreBuilder(joined, joinThisGenerated, rightOuter, spec) : undefined;
  const timeTrackers = new TimeTrackerSupplier();
  const userJoiner = spec.joiner;
  const operation = kind === 'inner' ? 'join' : kind === 'left' ? 'leftJoin' : 'outerJoin';
  const topology = ctx.topology;
  topology.addProcessor(thisWindowedName, joinWindowSupplier(thisSupplier.name), spec.thisParent);
  topology.addProcessor(otherWindowedName, joinWindowSupplier(otherSupplier.name), spec.otherParent);
  topology.addProcessor(
    joinThisName,
    streamJoinSideSupplier<K, unknown, unknown, unknown>({
      leftSide: true,
      otherWindowStore: otherSupplier.name,
      windows: window,
      joiner: (thisValue, otherValue, key) => syncResult(operation, 'joiner', userJoiner(thisValue, otherValue, key)),
      outer: leftOuter,
      outerJoinStore: outerStore?.name,
      timeTrackers,
    }),
    thisWindowedName,
  );
  topology.addProcessor(
    joinOtherName,
    streamJoinSideSupplier<K, unknown, unknown, unknown>({
      leftSide: false,
      otherWindowStore: thisSupplier.name,
      windows: window,
      joiner: (thisValue, otherValue, key) => syncResult(operation, 'joiner', userJoiner(otherValue, thisValue, key)),
      outer: rightOuter,
      outerJoinStore: outerStore?.name,
      timeTrackers,
    }),
    otherWindowedName,
  );
  topology.addProcessor(mergeName, passThroughSupplier(), joinThisName, joinOtherName);
  topology.addStateStore(thisStore, thisWindowedName, joinOtherName);
  topology.addStateStore(otherStore, otherWindowedName, joinThisName);
  if (outerStore !== undefined) topology.addStateStore(outerStore, joinThisName, joinOtherName);
  // 5. co-partitioning
  topology.copartition(thisWindowedName, otherWindowedName);
  return { nodeName: mergeName, serdes: { key: joined.keySerde }, keyChanged: false };
}

function describeSupplier(supplier: WindowBytesStoreSupplier): string {
  return `{name=${supplier.name}, retentionPeriod=${supplier.retentionPeriod}, windowSize=${supplier.windowSize}, retainDuplicates=${supplier.retainDuplicates}}`;
}

/** Kafka's `assertWindowSettings`: a join store retains duplicates, and its size and retention follow the windows. */
function assertWindowSettings(supplier: WindowBytesStoreSupplier, windows: JoinWindowSpec, size: number, retention: number): void {
  if (!supplier.retainDuplicates) throw new TopologyError('The StoreSupplier must set retainDuplicates=true, found retainDuplicates=false');
  if (supplier.retentionPeriod !== retention || supplier.windowSize !== size) {
    throw new TopologyError(
      `Window settings mismatch. WindowBytesStoreSupplier settings ${describeSupplier(supplier)} must match JoinWindows settings ` +
        `JoinWindows{beforeMs=${windows.beforeMs}, afterMs=${windows.afterMs}, graceMs=${windows.graceMs}} for the window size and retention period ` +
        `(give the store windowSize = before + after = ${size} and retentionPeriod = windowSize + grace = ${retention})`,
    );
  }
}

/** Kafka's `StreamJoinedStoreFactory.build`: changelogged with `cleanup.policy=delete` (duplicates are kept, so no compaction) unless logging is disabled. */
function windowStoreBuilder<K>(supplier: WindowBytesStoreSupplier, serdes: { keySerde: Serde<K>; valueSerde: Serde<unknown> }, joined: StreamJoined<K, unknown, unknown>): StoreBuilder<StateStore> {
  const builder = Stores.windowStoreBuilder(supplier, serdes.keySerde, serdes.valueSerde);
  if (joined.loggingEnabled === false) builder.withLoggingDisabled();
  else builder.withLoggingEnabled({ ...(joined.logConfig ?? {}), 'cleanup.policy': 'delete' });
  return builder;
}

/** Kafka's `OuterStreamJoinStoreFactory`: the name, and the store type of this side's supplier (by default the app's `dslStoreSuppliers`). */
function outerStoreBuilder<K>(joined: StreamJoined<K, unknown, unknown>, joinThisGenerated: string, rightOuter: boolean, spec: JoinSpec<K>): StoreBuilder<StateStore> {
  const suffix = rightOuter ? '-outer-shared-join' : '-left-shared-join';
  const prefix = rightOuter ? 'KSTREAM-OUTERTHIS-' : 'KSTREAM-JOINTHIS-';
  const thisSupplierName = joined.thisStoreSupplier?.name;
  const base =
    thisSupplierName !== undefined && thisSupplierName !== ''
      ? thisSupplierName + suffix
      : joined.storeName !== undefined
        ? joined.storeName + suffix
        : `KSTREAM-OUTERSHARED-${joinThisGenerated.substring(prefix.length)}`;
  const name = `${base}-store`;
  const given = joined.thisStoreSupplier;
  const supplier = dslKeyValueSupplier({ name, timestamped: false }, given === undefined ? undefined : dslStoreSuppliersLike(given));
  const builder = Stores.keyValueStoreBuilder(
    supplier,
    timestampedKeyAndJoinSideSerde(spec.thisSerdes.keySerde),
    leftOrRightValueListSerde(spec.thisSerdes.valueSerde, spec.otherSerdes.valueSerde),
  );
  builder.withCachingDisabled();
  if (joined.loggingEnabled === false) builder.withLoggingDisabled();
  else builder.withLoggingEnabled({ ...(joined.logConfig ?? {}) });
  return builder;
}
