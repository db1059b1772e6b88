/**
 * KTable–KTable joins on the key (Kafka's `KTableImpl.doJoin` and
 * `KTableKTableJoinNode.writeToTopology`); foreign-key calls (a function as
 * second argument) go to `foreign-key-join.ts`.
 *
 * A key join adds three nodes: `KTABLE-JOINTHIS-` (changes of this table
 * joined with the other's current value), `KTABLE-JOINOTHER-` (changes of the
 * other table, joiner reversed) and `KTABLE-MERGE-` (the joined table, with
 * its store when a `Materialized` is given). Each side reads the other table
 * through its view, so it is connected to the stores of that view.
 */
import { KTableKTableJoinMerger } from '../../processors/dsl/ktable-ktable-join-merger.js';
import { KTableKTableJoinSide, type KTableJoinSideKind, type SideJoiner } from '../../processors/dsl/ktable-ktable-join.js';
import type { KTableProcessorSupplier } from '../../processors/dsl/ktable-contract.js';
import type { Serde } from '../../serdes/serde.js';
import { IllegalArgumentError, TopologyError } from '../../errors.js';
import type { AnyValueJoiner } from '../joiners.js';
import { isUserFunction, resolveJoiner, type InternalJoiner } from './key-first.js';
import { DefaultSerde } from '../topology-runtime.js';
import type { Materialized, Named } from '../options.js';
import type { BuilderContext } from './builder-context.js';
import { validateName } from './checks.js';
import type { NewTable, TableParts } from './dsl-parts.js';
import { foreignKeyJoin } from './foreign-key-join.js';
import { isVersionedSupplier, materializedName, namedAndMaterialized, timestampedStoreBuilder } from './materialize.js';

/** Which rows a join keeps. */
export type TableJoinKind = 'inner' | 'left' | 'outer';

/** The kinds of the two join sides (Kafka's pairing in `doJoin`). */
const SIDES: { readonly [kind in TableJoinKind]: readonly [KTableJoinSideKind, KTableJoinSideKind] } = {
  inner: ['inner', 'inner'],
  left: ['left', 'right'],
  outer: ['outer', 'outer'],
};

/**
 * `table.join/leftJoin/outerJoin(other, ...args)`: args as the KTable overloads take them;
 * `isTable` tells a `KTable` (the calling class's test, as this file imports no DSL class).
 */
export function tableJoin<K, V>(
  table: TableParts<K, V>,
  kind: TableJoinKind,
  other: unknown,
  args: unknown[],
  isTable: (value: unknown) => value is TableParts<unknown, unknown>,
): NewTable<K, unknown> {
  if (isUserFunction(args[1])) {
    if (kind === 'outer') throw new IllegalArgumentError('outerJoin has no foreign-key form: use join or leftJoin with a foreign-key extractor');
    if (other !== null && other !== undefined && !isTable(other)) throw new IllegalArgumentError(`${kind === 'inner' ? 'join' : 'leftJoin'}: foreignKeyTable must be a KTable; got ${typeof other}`);
    return foreignKeyJoin(table, kind, other, args);
  }
  const [joinerArg, a, b] = args as [AnyValueJoiner<K, unknown, unknown, unknown>, Named | string | Materialized<K, unknown> | undefined, Materialized<K, unknown> | undefined];
  const joiner = resolveJoiner(joinerArg);
  if (!isTable(other)) throw new IllegalArgumentError(`${kind === 'inner' ? 'join' : `${kind}Join`}: other must be a KTable; got ${typeof other}`);
  if (other.ctx !== table.ctx) throw new TopologyError('A KTable can only be joined with a KTable of the same StreamsBuilder');
  if (b === null || (a === null && b === undefined)) throw new IllegalArgumentError("materialized can't be null");
  if (a === null) throw new IllegalArgumentError("named can't be null");
  const { named, materialized } = namedAndMaterialized<K, unknown>(a, b);
  return keyJoin(table, kind, other as TableParts<K, unknown>, joiner, named, materialized);
}

/** Kafka's `doJoin`, step by step (names are generated in Kafka's order, so generated indexes match). */
function keyJoin<K, V, VO, VR>(
  table: TableParts<K, V>,
  kind: TableJoinKind,
  other: TableParts<K, VO>,
  joiner: InternalJoiner<K, V, VO, VR>,
  named: Named | string | undefined,
  materialized: Materialized<K, VR> | undefined,
): NewTable<K, VR> {
  const ctx = table.ctx;
  // 1. the store of the joined table (Kafka's MaterializedInternal, made before doJoin runs)
  const storeName = materialized === undefined ? undefined : (materializedName(materialized as Materialized<unknown, unknown>) ?? ctx.newName('KTABLE-MERGE-STATE-STORE-'));
  const name = named === undefined ? undefined : validateName(typeof named === 'string' ? named : named.name);
  // 2. the merge node's name
  const mergeName = generated(ctx, name, '', 'KTABLE-MERGE-');
  // 3. co-partitioning of the two tables' inputs
  ctx.topology.copartition(table.nodeName, other.nodeName);
  // 4. left and outer joins need this table's old values, outer joins also the other's
  if (kind !== 'inner') table.enableSendingOldValues(true);
  if (kind === 'outer') other.enableSendingOldValues(true);
  // 5. the two sides (their views materialize source tables)
  const [thisKind, otherKind] = SIDES[kind];
  const joinThis = new KTableKTableJoinSide<K, V, VO, VR>(thisKind, table, other, joiner as SideJoiner<K, V, VO, VR>);
  const reversed: SideJoiner<K, VO, V, VR> = (otherValue, thisValue, key) => joiner(thisValue as V, otherValue as VO, key);
  const joinOther = new KTableKTableJoinSide<K, VO, V, VR>(otherKind, other, table, reversed);
  const joinThisName = generated(ctx, name, '-join-this', 'KTABLE-JOINTHIS-');
  const joinOtherName = generated(ctx, name, '-join-other', 'KTABLE-JOINOTHER-');
  const merger = new KTableKTableJoinMerger<K, VR>(
    joinThis as KTableProcessorSupplier<K, unknown, K, VR>,
    joinOther as KTableProcessorSupplier<K, unknown, K, VR>,
    storeName,
    isVersionedSupplier(materialized?.storeSupplier),
  );
  // 6. the nodes, as KTableKTableJoinNode.writeToTopology
  const topology = ctx.topology;
  topology.addProcessor(joinThisName, joinThis, table.nodeName);
  topology.addProcessor(joinOtherName, joinOther, other.nodeName);
  topology.addProcessor(mergeName, merger, joinThisName, joinOtherName);
  connect(ctx, joinThisName, other.valueGetterSupplier().storeNames());
  connect(ctx, joinOtherName, table.valueGetterSupplier().storeNames());
  const serdes = { key: materialized?.keySerde ?? table.serdes.key, value: materialized?.valueSerde };
  if (storeName !== undefined) {
    const keySerde = storeSerde(ctx, mergeName, storeName, 'key', serdes.key ?? ctx.defaultKeySerde) as Serde<K>;
    const valueSerde = storeSerde(ctx, mergeName, storeName, 'value', serdes.value ?? ctx.defaultValueSerde) as Serde<VR>;
    topology.addStateStore(timestampedStoreBuilder(storeName, materialized ?? {}, keySerde, valueSerde), mergeName);
  }
  // 7. the joined table: the merger's node
  return { nodeName: mergeName, supplier: merger, queryableStoreName: storeName, serdes };
}

/**
 * Kafka's `NamedInternal.suffixWithOrElseGet` / `orElseGenerateWithPrefix`:
 * the user's name plus `suffix`, or a generated one; an index is taken either
 * way, so the names after it are the same whether the join is named or not.
 */
function generated(ctx: BuilderContext, name: string | undefined, suffix: string, prefix: string): string {
  const generatedName = ctx.newName(prefix);
  return name === undefined ? generatedName : validateName(`${name}${suffix}`);
}

/**
 * The serde of the joined table's store; without one, the runtime's default
 * serde, bound when the topology is built for it (Kafka resolves a store's
 * null serde from `context.keySerde()` / `valueSerde()` at init); no default
 * there is a TopologyError naming what to give.
 */
function storeSerde(ctx: BuilderContext, mergeName: string, storeName: string, what: 'key' | 'value', serde: Serde<unknown> | undefined): Serde<unknown> {
  if (serde !== undefined) return serde;
  const option = `Materialized.as('${storeName}').with${what === 'key' ? 'Key' : 'Value'}Serde(serde)`;
  const fallback = new DefaultSerde(what, `KTable join '${mergeName}': store '${storeName}'`, option, ctx.topology);
  fallback.required = true;
  return fallback;
}

function connect(ctx: BuilderContext, processorName: string, storeNames: string[]): void {
  if (storeNames.length > 0) ctx.topology.connectProcessorAndStateStores(processorName, ...storeNames);
}
