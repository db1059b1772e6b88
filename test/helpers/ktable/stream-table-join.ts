/**
 * Test helpers of the stream–table join ports: Kafka's
 * `MockApiProcessorSupplier` / `checkAndClearProcessResult` for a plain
 * (non-Change) stream, and a task harness that processes raw records and
 * captures the log (for the "skipping record" cases).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { expect } from 'vitest';
import type { Topology } from '../../../src/index.js';
import type { Processor } from '../../../src/processors/processor.js';
import { toRuntime } from '../../../src/topology/topology-runtime.js';

/** One record a captured processor received (Kafka's `KeyValueTimestamp`). */
export interface KeyValueTimestamp<K, V> {
  key: K;
  value: V;
  timestamp: number;
}

/** Kafka's `new KeyValueTimestamp<>(key, value, timestamp)`. */
export function kvt<K, V>(key: K, value: V, timestamp: number): KeyValueTimestamp<K, V> {
  return { key, value, timestamp };
}

/** A processor supplier recording what it is given (Kafka's `MockApiProcessorSupplier.theCapturedProcessor()`). */
export function captureProcessor<K, V>(): {
  supplier: () => Processor<K, V>;
  processed: KeyValueTimestamp<K, V>[];
  /** Kafka's `checkAndClearProcessResult(expected...)`: the records received since the last call, in order. */
  checkAndClearProcessResult(...expected: KeyValueTimestamp<K, V>[]): void;
} {
  const processed: KeyValueTimestamp<K, V>[] = [];
  return {
    supplier: () => ({
      process(record) {
        processed.push({ key: record.key, value: record.value, timestamp: record.timestamp });
      },
    }),
    processed,
    checkAndClearProcessResult(...expected) {
      expect([...processed]).toEqual(expected);
      processed.length = 0;
    },
  };
}

/** A log line as pino writes it. */
export interface LogLine {
  level: number;
  msg: string;
  [field: string]: unknown;
}

/** The task of sub-topology 0 (partition 0) of `topology`, with its stores initialised and its log captured. */
export function taskHarness(topology: Topology, applicationId: string) {
  const lines: LogLine[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) });
  const sent: Array<{ topic: string; key: unknown; value: unknown }> = [];
  const handlers = { deserialization: { handle: () => 'FAIL' as const }, processing: { handle: () => 'FAIL' as const } };
  const task = toRuntime(topology).createTask(
    { subtopology: 0, partition: 0 },
    { send: (o: { topic: string; key: unknown; value: unknown }) => void sent.push({ topic: o.topic, key: o.key, value: o.value }) },
    handlers,
    { logger, clock: () => 0 },
  );
  // store lifecycle step 2 (the runtime and the driver do this before the processors' init)
  const stateDir = mkdtempSync(join(tmpdir(), `sluice-${applicationId}-`));
  for (const store of task.stores) {
    store.init({ applicationId, taskId: task.taskId, stateDir, changelog: undefined, cache: undefined, recordContext: () => task.recordContext(), logger });
  }
  task.init();
  /** Processes a record of `topic` with raw key and value bytes at `offset`. */
  const process = (topic: string, key: Buffer | null, value: Buffer | null, offset: number) =>
    task.process({ topic, partition: 0, offset, key, value, headers: {}, timestamp: offset });
  return { task, process, lines, sent, warnings: () => lines.filter((l) => l.level === 40) };
}
