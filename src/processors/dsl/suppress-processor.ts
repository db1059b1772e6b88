/**
 * `KTable.suppress` (Kafka's `KTableSuppressProcessorSupplier`): holds each
 * key's changes in the suppression buffer and emits a key's latest change
 * once stream time reached its buffer time + `timeToWaitMs`.
 *
 * Per record:
 * 1. observed stream time = max(observed, record timestamp);
 * 2. the change is buffered (buffer time: the record's timestamp, or for
 *    final results the end of the key's window, Kafka's
 *    `WindowEndTimeDefinition`; a held key keeps its first buffer time);
 * 3. every entry with buffer time ≤ stream time − timeToWait is emitted,
 *    oldest first, with the timestamp and headers of its last update
 *    (final results drop an entry whose latest change is a tombstone:
 *    nothing was emitted for that window before, Kafka's `safeToDropTombstones`);
 * 4. when the buffer is over its bounds: `emitEarly` emits the oldest until
 *    it is not, `shutDown` fails the task (Kafka's message).
 *
 * The view of the suppressed table is the value before the held updates for
 * a held key, else the parent's view.
 */
import { StreamsError } from '../../errors.js';
import { dslContext, type DslProcessorContext } from '../dsl-context.js';
import type { ProcessorContext } from '../processor.js';
import { Record } from '../record.js';
import type { Change } from './change.js';
import type { KTableProcessorSupplier, KTableValueGetterSupplier } from './ktable-contract.js';
import type { KTableParent } from './ktable-ops.js';
import type { Eviction, InMemoryTimeOrderedChangeBuffer } from './suppress-buffer.js';

/** The settings of one suppression node. */
export interface SuppressSettings {
  storeName: string;
  timeToWaitMs: number;
  maxRecords: number;
  maxBytes: number;
  whenFull: 'emitEarly' | 'shutDown';
  /** Only for final results of windowed tables (untilWindowCloses): tombstones are dropped. */
  safeToDropTombstones: boolean;
  /**
   * What a key's buffer time is (Kafka's `TimeDefinition`): `record` (the
   * default) the record's timestamp; `windowEnd` the end of the key's window
   * (keys are `Windowed`; untilWindowCloses, with `timeToWaitMs` the grace).
   */
  bufferTime?: 'record' | 'windowEnd';
}

/** A key's window end (Kafka's `WindowEndTimeDefinition`); throws when the key is not a `Windowed`. */
function windowEnd(key: unknown, processorName: string): number {
  const end = (key as { window?: { end?: unknown } } | null)?.window?.end;
  if (typeof end !== 'number') {
    throw new StreamsError(
      `${processorName}: Suppressed.untilWindowCloses holds windowed keys ({ key, window: { start, end } }); got key ${JSON.stringify(key)}. ` +
        'Suppress the table of a windowed aggregation, or use Suppressed.untilTimeLimit(ms, bufferConfig)',
      { code: 'SUPPRESSION_NOT_WINDOWED' },
    );
  }
  return end;
}

/** The KTable node of `suppress`; see the module comment. */
export class KTableSuppressSupplier<K, V> implements KTableProcessorSupplier<K, Change<V>, K, V> {
  constructor(
    private readonly parent: KTableParent<K, V>,
    private readonly settings: SuppressSettings,
  ) {
    // The suppress buffer requires seeing the old values, to support the prior value view (as Kafka).
    parent.enableSendingOldValues(true);
  }

  enableSendingOldValues(forceMaterialization: boolean): boolean {
    return this.parent.enableSendingOldValues(forceMaterialization);
  }

  view(): KTableValueGetterSupplier<K, V> {
    const parentView = this.parent.valueGetterSupplier();
    const { storeName } = this.settings;
    return {
      get: () => {
        const parentGetter = parentView.get();
        let buffer: InMemoryTimeOrderedChangeBuffer<K, V>;
        return {
          init(context) {
            parentGetter.init(context);
            buffer = context.getStateStore<InMemoryTimeOrderedChangeBuffer<K, V>>(storeName);
          },
          get(key) {
            const held = buffer.priorValueForBuffered(key);
            if (held === undefined) return parentGetter.get(key);
            // The timestamp of the prior value is unknown (Kafka's RecordQueue.UNKNOWN).
            return held.value === null ? null : { value: held.value, timestamp: -1 };
          },
          close: () => parentGetter.close?.(),
        };
      },
      storeNames: () => [storeName, ...parentView.storeNames()],
    };
  }

  get() {
    const { storeName, timeToWaitMs, maxRecords, maxBytes, whenFull, safeToDropTombstones, bufferTime = 'record' } = this.settings;
    let context: DslProcessorContext<K, Change<V>>;
    let buffer: InMemoryTimeOrderedChangeBuffer<K, V>;
    let observedStreamTime = -1;
    const overCapacity = (): boolean => buffer.numRecords() > maxRecords || buffer.bufferSize() > maxBytes;
    const emit = (eviction: Eviction<K, V>): void => {
      if (eviction.value.newValue === null && safeToDropTombstones) return;
      const { context: origin } = eviction;
      const record = new Record<K, Change<V>>(eviction.key, eviction.value, origin.timestamp, origin.headers);
      // Downstream sees the record context of the emitted update (Kafka sets it before forwarding).
      if (origin.topic !== null) {
        context.forwardFromCache(record, { timestamp: origin.timestamp, headers: origin.headers, topic: origin.topic, partition: origin.partition, offset: origin.offset });
      } else {
        context.forward(record);
      }
    };
    return {
      init(c: ProcessorContext<K, Change<V>>) {
        context = dslContext(c);
        buffer = c.getStateStore<InMemoryTimeOrderedChangeBuffer<K, V>>(storeName);
      },
      process(record: Record<K, Change<V>>) {
        // 1. stream time
        observedStreamTime = Math.max(observedStreamTime, record.timestamp);
        // 2. buffer
        const metadata = context.recordMetadata();
        const time = bufferTime === 'windowEnd' ? windowEnd(record.key, context.processorName) : record.timestamp;
        buffer.put(time, record.key, record.value, {
          timestamp: record.timestamp,
          headers: record.headers,
          topic: metadata?.topic ?? null,
          partition: metadata?.partition ?? -1,
          offset: metadata?.offset ?? -1,
        });
        // 3. emit what waited long enough
        const expiryTime = observedStreamTime - timeToWaitMs;
        buffer.evictWhile(() => buffer.minTimestamp() <= expiryTime, emit);
        // 4. bounds
        if (!overCapacity()) return;
        if (whenFull === 'emitEarly') {
          buffer.evictWhile(overCapacity, emit);
          return;
        }
        throw new StreamsError(
          `${context.processorName} buffer exceeded its max capacity. Currently [${buffer.numRecords()}/${maxRecords}] records and [${buffer.bufferSize()}/${maxBytes}] bytes.`,
          { code: 'SUPPRESSION_BUFFER_FULL' },
        );
      },
    };
  }
}
