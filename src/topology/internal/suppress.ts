/**
 * `KTable.suppress` (Kafka's `KTableImpl.suppress` + `TableSuppressNode`):
 * adds the node `KTABLE-SUPPRESS-<n>` (or the suppression's name) with its
 * buffer store `KTABLE-SUPPRESS-STATE-STORE-<n>` (or `<name>-store`),
 * logged unless the buffer config disables it.
 */
import { TopologyError } from '../../errors.js';
import { SuppressBufferBuilder } from '../../processors/dsl/suppress-buffer.js';
import { KTableSuppressSupplier } from '../../processors/dsl/suppress-processor.js';
import type { Serde } from '../../serdes/serde.js';
import { KTable } from '../ktable.js';
import type { Suppressed } from '../suppressed.js';

const SUPPRESS_NAME = 'KTABLE-SUPPRESS-';

/** Adds the suppression node after `table`. */
export function suppressTable<K, V>(table: KTable<K, V>, suppressed: Suppressed<K>): KTable<K, V> {
  if (typeof suppressed !== 'object' || (suppressed.kind !== 'untilTimeLimit' && suppressed.kind !== 'untilWindowCloses')) {
    throw new TopologyError('KTable.suppress: give Suppressed.untilTimeLimit(ms, bufferConfig) or Suppressed.untilWindowCloses(bufferConfig)');
  }
  if (suppressed.kind === 'untilWindowCloses') {
    throw new TopologyError(
      'KTable.suppress(Suppressed.untilWindowCloses(...)) needs a windowed table (issue windows: windowed aggregations); use Suppressed.untilTimeLimit(ms, bufferConfig) on this table',
    );
  }
  const { ctx } = table;
  const name = suppressed.name ?? ctx.newName(SUPPRESS_NAME);
  const storeName = suppressed.name !== undefined ? `${suppressed.name}-store` : ctx.newName(`${SUPPRESS_NAME}STATE-STORE-`);
  const keySerde = (table.serdes.key ?? ctx.defaultKeySerde) as Serde<K> | undefined;
  const valueSerde = (table.serdes.value ?? ctx.defaultValueSerde) as Serde<V> | undefined;
  if (keySerde === undefined || valueSerde === undefined) {
    throw new TopologyError(
      `KTable.suppress (${name}): the suppression buffer needs the table's ${keySerde === undefined ? 'key' : 'value'} serde; ` +
        'give it in Materialized.with(keySerde, valueSerde) of the table, or set defaultKeySerde/defaultValueSerde in the StreamsBuilder config',
    );
  }
  const { bufferConfig } = suppressed;
  const supplier = new KTableSuppressSupplier<K, V>(table, {
    storeName,
    timeToWaitMs: suppressed.timeToWaitForMoreEventsMs ?? Number.MAX_SAFE_INTEGER,
    maxRecords: bufferConfig.maxRecords,
    maxBytes: bufferConfig.maxBytes,
    whenFull: bufferConfig.whenFull,
    safeToDropTombstones: false,
  });
  const builder = new SuppressBufferBuilder<K, V>(storeName, keySerde, valueSerde);
  if (bufferConfig.loggingEnabled) builder.withLoggingEnabled({ ...bufferConfig.logConfig });
  else builder.withLoggingDisabled();
  ctx.topology.addProcessor(name, supplier, table.nodeName);
  ctx.topology.addStateStore(builder, name);
  return new KTable<K, V>(ctx, name, supplier as never, undefined, table.serdes);
}
