/**
 * The soak app (in the style of Kafka Streams' `EosTestClient`): one input
 * topic whose records are `key = k<i>`, `value = <n>`, the n-th record of that
 * key (1, 2, 3, ... per key), and two branches:
 *
 * - stateless: `input → mapValues(identity) → data` (must hold every input
 *   exactly once, in input order per partition);
 * - stateful: `groupByKey().count() → count`, `groupByKey().aggregate(sum) → sum`
 *   and `groupBy(value % R → r<j>)` (a repartition through
 *   `<applicationId>-rekey-repartition`) `.count() → repartitioned-count`.
 *
 * Numbers use `Serdes.Long()` (8-byte big-endian) so every value is exact.
 *
 * With `asyncStep` (`--async-step`, issue 33) the stateless branch is an async
 * step instead: `mapValuesAsync(identity after a 0-3 ms wait, { concurrency: 32 })`;
 * its outputs keep per-key input order only (the check compares per key).
 */
import { Serdes } from '../../src/serdes/serdes.js';
import { Stores } from '../../src/state/stores.js';
import type { Materialized } from '../../src/topology/options.js';
import { StreamsBuilder } from '../../src/topology/streams-builder.js';
import type { Topology } from '../../src/topology/topology.js';

/** The topics of one soak run. */
export interface SoakTopics {
  input: string;
  data: string;
  count: string;
  sum: string;
  repartitionedCount: string;
}

/** Which store the aggregations use: the DSL default, or an explicit in-memory / persistent one. */
export type SoakStoreType = 'default' | 'in-memory' | 'persistent';

/** Name of the `groupBy` grouping: the repartition topic is `<applicationId>-rekey-repartition`. */
export const REKEY_GROUPING = 'rekey';

/** Store names of the three aggregations (their changelogs are `<applicationId>-<store>-changelog`). */
export const SOAK_STORES = { count: 'soak-count', sum: 'soak-sum', repartitionedCount: 'soak-rekeyed-count' } as const;

/** The new key of an input record in the repartitioned branch: `r<value % groups>`. */
export function rekey(value: number, groups: number): string {
  return `r${value % groups}`;
}

type Supplier = NonNullable<Materialized<string, number>['storeSupplier']>;

/** The store supplier of `type` (looked up by name: `Stores.persistentKeyValueStore` lands with the state work). */
function supplier(type: SoakStoreType, name: string): Supplier | undefined {
  if (type === 'default') return undefined;
  const factories = Stores as unknown as Record<string, ((n: string) => Supplier) | undefined>;
  const factory = factories[type === 'in-memory' ? 'inMemoryKeyValueStore' : 'persistentKeyValueStore'];
  if (typeof factory !== 'function') throw new Error(`soak: store type '${type}' asked for, but this sluice has no Stores factory for it yet`);
  return factory.call(Stores, name);
}

function materialized(type: SoakStoreType, name: string): Materialized<string, number> {
  const storeSupplier = supplier(type, name);
  return { storeName: name, keySerde: Serdes.String(), valueSerde: Serdes.Long(), ...(storeSupplier ? { storeSupplier } : {}) };
}

/** Builds the soak topology (see the module comment); `groups` = R, the number of re-keyed groups. */
export function soakTopology(topics: SoakTopics, options: { groups: number; store: SoakStoreType; asyncStep?: boolean }): Topology {
  const builder = new StreamsBuilder();
  const out = { keySerde: Serdes.String(), valueSerde: Serdes.Long() };
  const input = builder.stream<string, number>(topics.input, out);
  // stateless branch
  if (options.asyncStep) {
    const wait = (v: number) => new Promise<number>((resolve) => setTimeout(() => resolve(v), v % 4));
    input.mapValuesAsync((v: number) => wait(v), { concurrency: 32, named: 'soak-async-identity' }).to(topics.data, out);
  } else {
    input.mapValues((v) => v).to(topics.data, out);
  }
  // stateful branch: count and sum per key
  const byKey = input.groupByKey();
  byKey.count(materialized(options.store, SOAK_STORES.count)).toStream().to(topics.count, out);
  byKey.aggregate(() => 0, (_k, v, sum) => sum + v, materialized(options.store, SOAK_STORES.sum)).toStream().to(topics.sum, out);
  // stateful branch with a repartition: count per new key
  input
    .groupBy((_k, v) => rekey(v, options.groups), { keySerde: Serdes.String(), valueSerde: Serdes.Long(), name: REKEY_GROUPING })
    .count(materialized(options.store, SOAK_STORES.repartitionedCount))
    .toStream()
    .to(topics.repartitionedCount, out);
  return builder.build();
}
