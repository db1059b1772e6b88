/**
 * `KTable.suppress` (Kafka's `KTableImpl.suppress` + `TableSuppressNode`):
 * adds the node `KTABLE-SUPPRESS-<n>` (or the suppression's name) with its
 * buffer store `KTABLE-SUPPRESS-STATE-STORE-<n>` (or `<name>-store`),
 * logged unless the buffer config disables it.
 *
 * Steps, as Kafka's:
 * 1. the node name (the suppression's, else generated);
 * 2. the suppression's settings (Kafka's `buildSuppress`): untilTimeLimit as
 *    given; untilWindowCloses waits the grace of the windowed aggregation
 *    upstream (`findAndVerifyWindowGrace`) after each window's end, and
 *    drops tombstones;
 * 3. the store name; 4. the buffer's serdes (the table's);
 * 5. the processor and its buffer store.
 */
import { TopologyError } from '../../errors.js';
import { isOutputVersioned } from '../../processors/dsl/ktable-contract.js';
import { SuppressBufferBuilder } from '../../processors/dsl/suppress-buffer.js';
import { KTableSuppressSupplier, type SuppressSettings } from '../../processors/dsl/suppress-processor.js';
import type { Serde } from '../../serdes/serde.js';
import type { BufferConfig, Suppressed } from '../suppressed.js';
import type { NewTable, TableParts } from './dsl-parts.js';
import { findAndVerifyWindowGrace } from './window-grace.js';

const SUPPRESS_NAME = 'KTABLE-SUPPRESS-';

/** Kafka's message when a versioned table is suppressed. */
export const SUPPRESS_VERSIONED = 'suppress() is only supported for non-versioned KTables';

type Settings = Omit<SuppressSettings, 'storeName'>;

function bounds(bufferConfig: BufferConfig): Pick<SuppressSettings, 'maxRecords' | 'maxBytes' | 'whenFull'> {
  return { maxRecords: bufferConfig.maxRecords, maxBytes: bufferConfig.maxBytes, whenFull: bufferConfig.whenFull };
}

/** The settings of an untilTimeLimit suppression (Kafka's `SuppressedInternal` with the record time definition). */
export function timeLimitSettings(suppressed: Suppressed<unknown>): Settings {
  const timeToWaitMs = suppressed.timeToWaitForMoreEventsMs ?? Number.MAX_SAFE_INTEGER;
  return { ...bounds(suppressed.bufferConfig), timeToWaitMs, safeToDropTombstones: false, bufferTime: 'record' };
}

/**
 * The settings of untilWindowCloses with the grace found upstream (Kafka's
 * `FinalResultsSuppressionBuilder.buildFinalResultsSuppression(grace)`):
 * wait `graceMs` after the window end, drop tombstones.
 */
export function finalResultsSettings(bufferConfig: BufferConfig, graceMs: number): Settings {
  return { ...bounds(bufferConfig), timeToWaitMs: graceMs, safeToDropTombstones: true, bufferTime: 'windowEnd' };
}

/** Step 2 (Kafka's `buildSuppress`): what the processor does with `suppressed` on `table`. */
function suppressSettings(table: TableParts<unknown, unknown>, suppressed: Suppressed<unknown>): Settings {
  if (suppressed.kind === 'untilTimeLimit') return timeLimitSettings(suppressed);
  return finalResultsSettings(suppressed.bufferConfig, findAndVerifyWindowGrace(table.ctx.topology, table.nodeName));
}

/** Adds the suppression node after `table`. */
export function suppressTable<K, V>(table: TableParts<K, V>, suppressed: Suppressed<K>): NewTable<K, V> {
  if (typeof suppressed !== 'object' || (suppressed.kind !== 'untilTimeLimit' && suppressed.kind !== 'untilWindowCloses')) {
    throw new TopologyError('KTable.suppress: give Suppressed.untilTimeLimit(ms, bufferConfig) or Suppressed.untilWindowCloses(bufferConfig)');
  }
  // Kafka: "suppress() is only supported for non-versioned KTables" (KIP-914; checked at build time for an inherited one)
  if (isOutputVersioned(table)) throw new TopologyError(`${SUPPRESS_VERSIONED} (note that version semantics might be inherited from upstream): suppress the table before it is versioned, or materialize it on a non-versioned store`);
  const { ctx } = table;
  // 1. node name
  const name = suppressed.name ?? ctx.newName(SUPPRESS_NAME);
  // 2. settings (throws when untilWindowCloses finds no windowed aggregation upstream)
  const settings = suppressSettings(table as TableParts<unknown, unknown>, suppressed as Suppressed<unknown>);
  // 3. store name
  const storeName = suppressed.name !== undefined ? `${suppressed.name}-store` : ctx.newName(`${SUPPRESS_NAME}STATE-STORE-`);
  // 4. serdes
  const keySerde = (table.serdes.key ?? ctx.defaultKeySerde) as Serde<K> | undefined;
  const valueSerde = (table.serdes.value ?? ctx.defaultValueSerde) as Serde<V> | undefined;
  if (keySerde === undefined || valueSerde === undefined) {
    throw new TopologyError(
      `KTable.suppress (${name}): the suppression buffer needs the table's ${keySerde === undefined ? 'key' : 'value'} serde; ` +
        'give it in Materialized.with(keySerde, valueSerde) of the table, or set defaultKeySerde/defaultValueSerde in the StreamsBuilder config',
    );
  }
  // 5. processor and buffer
  const { bufferConfig } = suppressed;
  const supplier = new KTableSuppressSupplier<K, V>(table, { storeName, ...settings });
  const builder = new SuppressBufferBuilder<K, V>(storeName, keySerde, valueSerde);
  if (bufferConfig.loggingEnabled) builder.withLoggingEnabled({ ...bufferConfig.logConfig });
  else builder.withLoggingDisabled();
  ctx.topology.addProcessor(name, supplier, table.nodeName);
  ctx.topology.addStateStore(builder, name);
  return { nodeName: name, supplier, queryableStoreName: undefined, serdes: table.serdes };
}
