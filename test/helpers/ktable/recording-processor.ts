/**
 * Test helpers for KTable nodes, as Kafka's `MockApiProcessorSupplier` /
 * `MockApiProcessor` and `TopologyTestDriverWrapper`:
 * - {@link RecordingProcessorSupplier}: a Processor API child that records
 *   what its parent forwards (key, value — a `Change` as `{ newValue,
 *   oldValue }` — and timestamp), one recorder per processor instance;
 * - {@link kvt} / {@link change}: the expected entries (Kafka's
 *   `new KeyValueTimestamp<>("A", new Change<>(1, null), 5)` is
 *   `kvt('A', change(1, null), 5)`);
 * - {@link addValueGetterProbe}: a table's value getter initialized in a
 *   processor connected to the getter's stores (Kafka's
 *   `connectProcessorAndStateStores` + `setCurrentNodeForProcessorContext`).
 */
import { expect } from 'vitest';
import { Change } from '../../../src/processors/dsl/change.js';
import type { KTableValueGetter, KTableValueGetterSupplier } from '../../../src/processors/dsl/ktable-contract.js';
import type { Processor, ProcessorContext } from '../../../src/processors/processor.js';
import type { Record } from '../../../src/processors/record.js';
import type { ValueAndTimestamp } from '../../../src/state/value-and-timestamp.js';
import type { Topology } from '../../../src/topology/topology.js';

/** A forwarded `Change` as recorded (isLatest left out, as Kafka's `Change.equals`). */
export interface RecordedChange<V> {
  newValue: V | null;
  oldValue: V | null;
}

/** One recorded record (Kafka's `KeyValueTimestamp`). */
export interface KeyValueTimestamp<K, V> {
  key: K;
  value: V;
  timestamp: number;
}

/** Kafka's `new Change<>(newValue, oldValue)` as recorded. */
export function change<V>(newValue: V | null, oldValue: V | null): RecordedChange<V> {
  return { newValue, oldValue };
}

/** Kafka's `new KeyValueTimestamp<>(key, value, timestamp)`. */
export function kvt<K, V>(key: K, value: V, timestamp: number): KeyValueTimestamp<K, V> {
  return { key, value, timestamp };
}

/** What one processor instance received (Kafka's `MockApiProcessor`). */
export class RecordingProcessor<K = unknown, V = unknown> {
  private readonly received: Array<KeyValueTimestamp<K, unknown>> = [];
  /** The node the instance runs as (set at init). */
  nodeName = '';

  /** @internal Called by the processor. */
  record(record: Record<K, V>): void {
    const value = Change.is(record.value) ? change(record.value.newValue, record.value.oldValue) : record.value;
    this.received.push(kvt(record.key, value, record.timestamp));
  }

  /** Everything received so far (Kafka's `processed()`). */
  processed(): Array<KeyValueTimestamp<K, unknown>> {
    return [...this.received];
  }

  /** Asserts the records received since the last check, in order, and forgets them (Kafka's `checkAndClearProcessResult`). */
  checkAndClearProcessResult(...expected: Array<KeyValueTimestamp<K, unknown>>): void {
    expect(this.received, `records received by '${this.nodeName}'`).toEqual(expected);
    this.received.length = 0;
  }

  /** Asserts nothing was received since the last check (Kafka's `checkEmptyAndClearProcessResult`). */
  checkEmptyAndClearProcessResult(): void {
    this.checkAndClearProcessResult();
  }
}

/** A processor supplier whose instances record what they receive (Kafka's `MockApiProcessorSupplier`). */
export class RecordingProcessorSupplier<K = unknown, V = unknown> {
  private readonly processors: Array<RecordingProcessor<K, V>> = [];

  get(): Processor<K, V> {
    const recorder = new RecordingProcessor<K, V>();
    this.processors.push(recorder);
    return {
      init(context: ProcessorContext<never, never>) {
        recorder.nodeName = context.processorName;
      },
      process(record) {
        recorder.record(record);
      },
    };
  }

  /** The only instance created (Kafka's `theCapturedProcessor()`). */
  theCapturedProcessor(): RecordingProcessor<K, V> {
    return this.capturedProcessors(1)[0]!;
  }

  /** The `count` instances created, in creation order (Kafka's `capturedProcessors(n)`). */
  capturedProcessors(count: number): Array<RecordingProcessor<K, V>> {
    expect(this.processors, 'processor instances created').toHaveLength(count);
    return [...this.processors];
  }

  /** The instance running as node `nodeName` (creation order may differ from the order Kafka creates them). */
  forNode(nodeName: string): RecordingProcessor<K, V> {
    const found = this.processors.find((p) => p.nodeName === nodeName);
    if (found === undefined) throw new Error(`no recording processor runs as '${nodeName}' (have: ${this.processors.map((p) => p.nodeName).join(', ')})`);
    return found;
  }
}

/** A value getter usable from the test after the driver started (see {@link addValueGetterProbe}). */
export interface ValueGetterProbe<K, V> {
  get(key: K): ValueAndTimestamp<V> | null;
}

let probes = 0;

/**
 * Adds a processor under `parent` connected to the stores of `getterSupplier`
 * whose `init` initializes a getter: the test reads the table's view through
 * it once a TopologyTestDriver runs the topology (one task).
 */
export function addValueGetterProbe<K, V>(topology: Topology, parent: string, getterSupplier: KTableValueGetterSupplier<K, V>): ValueGetterProbe<K, V> {
  let getter: KTableValueGetter<K, V> | undefined;
  const name = `value-getter-probe-${probes++}`;
  topology.addProcessor(name, () => ({
    init(context: ProcessorContext<never, never>) {
      getter = getterSupplier.get();
      getter.init(context as ProcessorContext<unknown, unknown>);
    },
    process() {},
  }), parent);
  const stores = getterSupplier.storeNames();
  if (stores.length > 0) topology.connectProcessorAndStateStores(name, ...stores);
  return {
    get(key) {
      if (getter === undefined) throw new Error(`value getter probe '${name}' not initialized: start a TopologyTestDriver first`);
      return getter.get(key);
    },
  };
}
