/**
 * Kafka's `MockInternalNewProcessorContext` as `KStreamWindowAggregateTest`
 * uses it: a processor context over one timestamped window store (logging and
 * caching disabled, retention one day), capturing what the processor forwards,
 * with a settable system time and emit interval (Kafka's
 * `__emit.interval.ms.kstreams.windowed.aggregation__`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { Serdes, Stores } from '../../../src/index.js';
import type { Change } from '../../../src/processors/dsl/change.js';
import type { ProcessorContext } from '../../../src/processors/processor.js';
import type { Record } from '../../../src/processors/record.js';
import type { ManagedStateStore } from '../../../src/state/store-contract.js';
import type { TimestampedWindowStore } from '../../../src/state/window-store.js';
import type { Windowed } from '../../../src/state/window-types.js';

/** A captured forward as compared in the Kafka test: key, `Change` (without isLatest), timestamp. */
export interface CapturedForward {
  key: Windowed<string>;
  value: { newValue: unknown; oldValue: unknown };
  timestamp: number;
}

/** Kafka's `new CapturedForward<>(new Record<>(new Windowed<>(key, new TimeWindow(start, end)), new Change<>(newValue, oldValue), ts))`. */
export function captured(key: string, start: number, end: number, newValue: unknown, oldValue: unknown, timestamp: number): CapturedForward {
  return { key: { key, window: { start, end } }, value: { newValue, oldValue }, timestamp };
}

/** The mock context and its controls. */
export interface MockWindowContext {
  readonly context: ProcessorContext<Windowed<string>, Change<string>>;
  readonly store: TimestampedWindowStore<string, string>;
  setSystemTimeMs(ms: number): void;
  forwarded(): CapturedForward[];
  resetForwards(): void;
  /** Closes the store and removes the state directory. */
  close(): void;
}

/** Kafka's `makeContext(stateDir, windowSize)` with `props` emit interval `emitIntervalMs`. */
export function makeContext(storeName: string, windowSize: number, emitIntervalMs: number): MockWindowContext {
  const store = Stores.timestampedWindowStoreBuilder(Stores.persistentTimestampedWindowStore(storeName, 24 * 60 * 60 * 1000, windowSize, false), Serdes.String(), Serdes.String())
    .withLoggingDisabled() // Changelog is not supported by MockProcessorContext.
    .withCachingDisabled() // Caching is not supported by MockProcessorContext.
    .build() as unknown as TimestampedWindowStore<string, string> & ManagedStateStore;
  const stateDir = mkdtempSync(join(tmpdir(), 'sluice-window-aggregate-'));
  const taskId = { subtopology: 0, partition: 0 };
  const logger = pino({ level: 'silent' });
  store.init({ applicationId: 'window-aggregate-test', taskId, stateDir, changelog: undefined, cache: undefined, recordContext: () => ({ topic: '', partition: 0, offset: -1, timestamp: 0, headers: {} }), logger });
  let systemTime = 0;
  const forwards: CapturedForward[] = [];
  const context = {
    taskId,
    processorName: 'testNode',
    forward(record: Record<Windowed<string>, Change<string>>) {
      forwards.push({ key: record.key, value: { newValue: record.value.newValue, oldValue: record.value.oldValue }, timestamp: record.timestamp });
    },
    getStateStore: () => store,
    recordMetadata: () => null,
    currentSystemTimeMs: () => systemTime,
    currentStreamTimeMs: () => 0,
    windowedAggregationEmitIntervalMs: () => emitIntervalMs,
    recordDropped() {},
    schedule() {
      throw new Error('not supported by the mock context');
    },
    commit() {},
  } as unknown as ProcessorContext<Windowed<string>, Change<string>>;
  return {
    context,
    store,
    setSystemTimeMs: (ms) => {
      systemTime = ms;
    },
    forwarded: () => [...forwards],
    resetForwards: () => {
      forwards.length = 0;
    },
    close: () => {
      if (store.isOpen()) store.close();
      rmSync(stateDir, { recursive: true, force: true });
    },
  };
}
