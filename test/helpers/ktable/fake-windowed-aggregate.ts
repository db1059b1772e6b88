/**
 * A stand-in windowed aggregation for suppression tests (until the real
 * `windowedBy(...)` aggregations are on the branch): a tumbling-window count
 * per key whose processor supplier implements `WindowedAggregateSupplier`,
 * so `suppress(Suppressed.untilWindowCloses(...))` finds its grace walking up
 * the graph. It keeps its counts in the processor (no store: nothing
 * survives a restart), sends old values, drops records of closed windows,
 * and forwards `Change(count, previous)` with the record's timestamp.
 */
import { Change } from '../../../src/processors/dsl/change.js';
import type { KTableProcessorSupplier, KTableValueGetterSupplier } from '../../../src/processors/dsl/ktable-contract.js';
import type { WindowedAggregateSupplier } from '../../../src/processors/dsl/windowed-contract.js';
import type { ProcessorContext } from '../../../src/processors/processor.js';
import { Record } from '../../../src/processors/record.js';
import type { Windowed } from '../../../src/state/window-types.js';
import type { KStream, KTable } from '../../../src/topology/dsl-interfaces.js';
import { KTableImpl } from '../../../src/topology/ktable.js';
import { impl } from '../dsl-impl.js';
import { WindowedSerdes, Serdes, type Serde } from '../../../src/index.js';

/** The fake's supplier: tumbling windows of `sizeMs`, closing `closeDelayMs` after their end. */
export class FakeWindowedCountSupplier<K>
  implements KTableProcessorSupplier<K, unknown, Windowed<K>, number>, WindowedAggregateSupplier
{
  constructor(
    readonly sizeMs: number,
    readonly closeDelayMs: number,
  ) {}

  windowCloseDelayMs(): number {
    return this.closeDelayMs;
  }

  enableSendingOldValues(): boolean {
    return true;
  }

  view(): KTableValueGetterSupplier<Windowed<K>, number> {
    return { get: () => ({ init: () => undefined, get: () => null }), storeNames: () => [] };
  }

  get() {
    const { sizeMs, closeDelayMs } = this;
    const counts = new Map<string, number>();
    let context: ProcessorContext<Windowed<K>, Change<number>>;
    let streamTime = -1;
    return {
      init(c: ProcessorContext<Windowed<K>, Change<number>>) {
        context = c;
      },
      process(record: Record<K, unknown>) {
        streamTime = Math.max(streamTime, record.timestamp);
        const start = record.timestamp - (record.timestamp % sizeMs);
        const window = { start, end: start + sizeMs };
        if (window.end + closeDelayMs <= streamTime) return; // late: the window closed
        const id = `${String(record.key)}@${start}`;
        const old = counts.get(id) ?? null;
        const count = (old ?? 0) + 1;
        counts.set(id, count);
        context.forward(new Record<Windowed<K>, Change<number>>({ key: record.key, window }, Change.of(count, old), record.timestamp, record.headers));
      },
    };
  }
}

/**
 * `stream` counted per tumbling window of `sizeMs` by the fake (node
 * `name`), as a `KTable<Windowed<string>, number>` with the windowed serde
 * of the String key serde and the Long value serde.
 */
export function fakeWindowedCount(stream: KStream<string, string>, sizeMs: number, closeDelayMs: number, name = 'FAKE-WINDOWED-COUNT'): KTable<Windowed<string>, number> {
  const supplier = new FakeWindowedCountSupplier<string>(sizeMs, closeDelayMs);
  impl(stream).ctx.topology.addProcessor(name, supplier, stream.nodeName);
  const serdes = { key: WindowedSerdes.timeWindowedSerdeFrom(Serdes.String(), sizeMs), value: Serdes.Long() as Serde<number> };
  return new KTableImpl<Windowed<string>, number>(impl(stream).ctx, name, supplier as never, undefined, serdes);
}
