/**
 * The topology of Kafka's `KTableKTableForeignKeyJoinIntegrationTest.getTopology`
 * (left `lhs*` values `"<value>|<fk>"`, right `rhs*` values, joiner
 * `(a,b)`, an optional key-join "rejoin" of the result with the left table),
 * shared by the driver port and the contract test.
 */
import { Serdes } from '../../../src/serdes/serdes.js';
import { Stores } from '../../../src/state/stores.js';
import { StreamsBuilder } from '../../../src/topology/streams-builder.js';
import type { Materialized } from '../../../src/topology/options.js';
import { Materialized as M } from '../../../src/topology/options.js';
import type { Topology } from '../../../src/topology/topology.js';

export const LEFT_TABLE = 'left_table';
export const RIGHT_TABLE = 'right_table';
export const OUTPUT = 'output-topic';
export const REJOIN_OUTPUT = 'rejoin-output-topic';

const S = Serdes.String();

/** Kafka's default extractor: the part after `|`. */
export const defaultExtractor = (value: string): string | null => value.split('|')[1] ?? null;

/** Options of {@link foreignKeyJoinTopology}. */
export interface FkTopologyOptions {
  /** `'store'` materializes the join result in an in-memory store of that name (Kafka's `queryableStoreName`). */
  queryableStoreName: string | null;
  leftJoin: boolean;
  rejoin: boolean;
  extractor?: (value: string) => string | null;
  topics?: { left: string; right: string; output: string; rejoinOutput: string };
  /** Kafka's `leftVersioned` / `rightVersioned`: the table on a versioned store `left` / `right` (history 5 minutes). */
  leftVersioned?: boolean;
  rightVersioned?: boolean;
}

/** Kafka's `getTopology(streamsConfig, queryableStoreName, leftJoin, rejoin, leftVersioned, rightVersioned, extractor)`. */
export function foreignKeyJoinTopology(options: FkTopologyOptions): Topology {
  const builder = new StreamsBuilder();
  addForeignKeyJoin(builder, options);
  return builder.build();
}

/**
 * Adds the tables, join and outputs of {@link foreignKeyJoinTopology} to
 * `builder` (several such joins, on topics and store names of their own,
 * can share one app).
 */
export function addForeignKeyJoin(builder: StreamsBuilder, options: FkTopologyOptions): void {
  const { queryableStoreName, leftJoin, rejoin } = options;
  const extractor = options.extractor ?? defaultExtractor;
  const topics = options.topics ?? { left: LEFT_TABLE, right: RIGHT_TABLE, output: OUTPUT, rejoinOutput: REJOIN_OUTPUT };
  const versioned = (name: string) => M.as<string, string>(Stores.persistentVersionedKeyValueStore(name, 5 * 60_000));
  const left = builder.table<string, string>(topics.left, { keySerde: S, valueSerde: S }, options.leftVersioned === true ? versioned('left') : undefined);
  const right = builder.table<string, string>(topics.right, { keySerde: S, valueSerde: S }, options.rightVersioned === true ? versioned('right') : undefined);
  const joiner = (value1: string | null, value2: string | null): string => `(${value1},${value2})`;
  const rejoiner = (value1: string | null, value2: string | null): string => `rejoin(${value1},${value2})`;
  // the cache suppresses some of the unnecessary tombstones we want to make assertions about
  const mainMaterialized: Materialized<string, string> =
    queryableStoreName === null
      ? { valueSerde: S, cachingEnabled: false }
      : M.as<string, string>(Stores.inMemoryKeyValueStore(queryableStoreName)).withValueSerde(S).withCachingDisabled();
  const rejoinMaterialized: Materialized<string, string> =
    queryableStoreName === null
      ? { valueSerde: S }
      : M.as<string, string>(Stores.inMemoryKeyValueStore(`${queryableStoreName}-rejoin`)).withValueSerde(S).withCachingDisabled();
  const fkJoin = leftJoin
    ? left.leftJoin(right, extractor as (v: string) => string, joiner, mainMaterialized)
    : left.join(right, extractor as (v: string) => string, joiner, mainMaterialized);
  fkJoin.toStream().to(topics.output, { keySerde: S, valueSerde: S });
  // also make sure the FK join is set up right for downstream operations that require materialization
  if (rejoin) {
    const rejoined = leftJoin ? fkJoin.leftJoin(left, rejoiner, rejoinMaterialized) : fkJoin.join(left, rejoiner, rejoinMaterialized);
    rejoined.toStream().to(topics.rejoinOutput, { keySerde: S, valueSerde: S });
  }
}

/** True when the key-based table join exists on this branch (the rejoin cases need it). */
export function keyJoinAvailable(): boolean {
  try {
    foreignKeyJoinTopology({ queryableStoreName: null, leftJoin: false, rejoin: true });
    return true;
  } catch (error) {
    if (/not implemented/.test((error as Error).message)) return false;
    throw error;
  }
}

/**
 * Kafka's `TestOutputTopic.readKeyValuesToMap()`: the last value per key, a
 * tombstone kept as `key -> null` (sluice's `readKeyValuesToMap` removes the
 * key instead; the Kafka tests assert the tombstones).
 */
export function readKeyValuesToMap<K, V>(topic: { readKeyValuesToList(): Array<{ key: K | null; value: V | null }> }): Map<K, V | null> {
  const map = new Map<K, V | null>();
  for (const { key, value } of topic.readKeyValuesToList()) {
    if (key === null) throw new Error('Null keys not allowed with readKeyValuesToMap method');
    map.set(key, value);
  }
  return map;
}
