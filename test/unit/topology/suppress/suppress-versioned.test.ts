/**
 * Ports of Kafka's `SuppressTopologyTest.shouldThrowOnSuppressForMaterializedVersionedTable`
 * and `shouldThrowOnSuppressForNonMaterializedVersionedTable` (KIP-914): a
 * versioned table, or a table inheriting its versioned semantics through a
 * filter without a store, cannot be suppressed (Kafka throws the second from
 * `builder.build()`; sluice at `suppress`, with the same message).
 */
import { describe, expect, it } from 'vitest';
import { BufferConfig, Materialized, Serdes, Stores, StreamsBuilder, Suppressed, TopologyError } from '../../../../src/index.js';

const S = Serdes.String();

describe('SuppressTopologyTest, versioned tables (ported)', () => {
  // SuppressTopologyTest.shouldThrowOnSuppressForMaterializedVersionedTable
  it('shouldThrowOnSuppressForMaterializedVersionedTable', () => {
    const builder = new StreamsBuilder();
    const versionedTable = builder.table('input', { keySerde: S, valueSerde: S }, Materialized.as<string, string>(Stores.persistentVersionedKeyValueStore('store', 0)));
    expect(() => versionedTable.suppress(Suppressed.untilTimeLimit(0, BufferConfig.unbounded()))).toThrow(TopologyError);
    expect(() => versionedTable.suppress(Suppressed.untilTimeLimit(0, BufferConfig.unbounded()))).toThrow('suppress() is only supported for non-versioned KTables');
  });

  // SuppressTopologyTest.shouldThrowOnSuppressForNonMaterializedVersionedTable
  it('shouldThrowOnSuppressForNonMaterializedVersionedTable', () => {
    const builder = new StreamsBuilder();
    const filtered = builder.table('input', { keySerde: S, valueSerde: S }, Materialized.as<string, string>(Stores.persistentVersionedKeyValueStore('store', 0))).filter(() => true);
    expect(() => filtered.suppress(Suppressed.untilTimeLimit(0, BufferConfig.unbounded()))).toThrow(TopologyError);
  });

  // sluice: a filter materialized on a non-versioned store ends the versioned semantics
  it('a table after a non-versioned store can be suppressed', () => {
    const builder = new StreamsBuilder();
    const table = builder.table('input', { keySerde: S, valueSerde: S }, Materialized.as<string, string>(Stores.persistentVersionedKeyValueStore('store', 0)));
    expect(() => table.filter(() => true, Materialized.as<string, string>('plain')).suppress(Suppressed.untilTimeLimit(0, BufferConfig.unbounded()))).not.toThrow();
  });
});
