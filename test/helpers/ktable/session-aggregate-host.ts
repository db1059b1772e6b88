/**
 * Kafka's `InternalMockProcessorContext` for the session window aggregation
 * tests: a real `ProcessorContextImpl` over a host that captures forwards
 * (`results`, as `KeyValueTimestamp<Windowed<K>, Change<V>>`), holds one
 * session store, lets the test set the record context (topic, partition,
 * offset, as Kafka's `setRecordContext`) and counts dropped records through
 * the task's real drop log (pino lines captured at DEBUG).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { Change } from '../../../src/processors/dsl/change.js';
import { DropLog } from '../../../src/processors/internal/drop-log.js';
import { ProcessorContextImpl, type ContextHost } from '../../../src/processors/internal/processor-context-impl.js';
import type { RecordMetadata } from '../../../src/processors/processor.js';
import type { Record } from '../../../src/processors/record.js';
import type { RecordCache } from '../../../src/state/record-cache.js';
import type { StateStore } from '../../../src/state/state-store.js';
import type { ManagedStateStore, StoreInitContext } from '../../../src/state/store-contract.js';
import type { Windowed } from '../../../src/state/window-types.js';
import { change, kvt, type KeyValueTimestamp, type RecordedChange } from './recording-processor.js';

/** A host for one processor node and its store. */
export class SessionAggregateHost implements ContextHost {
  readonly taskId = { subtopology: 0, partition: 0 };
  readonly results: Array<KeyValueTimestamp<Windowed<string>, RecordedChange<unknown>>> = [];
  readonly lines: Array<{ level: number; msg: string }> = [];
  /** Kafka's `dropped-records-total` of the task. */
  droppedRecords = 0;
  /** The wall clock (`currentSystemTimeMs`). */
  now = 0;
  private metadata: RecordMetadata | null = null;
  private readonly stores = new Map<string, StateStore>();
  private readonly logger = pino({ level: 'debug' }, { write: (s: string) => void this.lines.push(JSON.parse(s) as { level: number; msg: string }) });
  private readonly drops = new DropLog(this.logger, () => 0);

  constructor(private readonly emitIntervalMs = 0) {}

  /** A context for the node `nodeName`, connected to every store added. */
  context(nodeName = 'KSTREAM-SESSION-AGGREGATE'): ProcessorContextImpl {
    return new ProcessorContextImpl(this, nodeName, [...this.stores.keys()]);
  }

  /** Inits `store` (store lifecycle step 2) with `cache` (Kafka's `ThreadCache`; none: caching layers pass through) and holds it. */
  addStore(store: StateStore & ManagedStateStore, cache?: RecordCache): void {
    const stateDir = mkdtempSync(join(tmpdir(), 'sluice-session-agg-'));
    const init: StoreInitContext = {
      applicationId: 'session-aggregate-test',
      taskId: this.taskId,
      stateDir,
      changelog: undefined,
      cache,
      recordContext: () => ({ timestamp: 0, headers: {}, ...(this.metadata ?? {}) }),
      logger: this.logger,
    };
    store.init(init);
    this.stores.set(store.name, store);
  }

  /** Kafka's `context.setRecordContext(new ProcessorRecordContext(ts, offset, partition, topic, headers))`. */
  setRecordContext(offset: number, partition: number, topic: string): void {
    this.metadata = { topic, partition, offset };
  }

  /** The messages logged at `level` (pino: 20 DEBUG, 40 WARN). */
  messages(level?: number): string[] {
    return this.lines.filter((l) => level === undefined || l.level === level).map((l) => l.msg);
  }

  forwardFrom(_nodeName: string, record: Record<unknown, unknown>): void {
    const value = record.value as Change<unknown>;
    this.results.push(kvt(record.key as Windowed<string>, change(value.newValue, value.oldValue), record.timestamp));
  }
  forwardFromCache(nodeName: string, record: Record<unknown, unknown>): void {
    this.forwardFrom(nodeName, record);
  }
  schedule(): never {
    throw new Error('not used');
  }
  store(name: string): StateStore | undefined {
    return this.stores.get(name);
  }
  recordMetadata(): RecordMetadata | null {
    return this.metadata;
  }
  requestCommit(): void {}
  recordDropped(nodeName: string, reason: string, debugLine?: string): void {
    this.droppedRecords++;
    const { topic, partition, offset } = this.metadata ?? { topic: '', partition: -1, offset: -1 };
    this.drops.dropped({ taskId: '0_0', processorNodeId: nodeName, topic, partition, offset }, reason, debugLine);
  }
  streamTime(): number {
    return -1;
  }
  wallClock(): number {
    return this.now;
  }
  outerJoinEmitIntervalMs(): number {
    return 0;
  }
  windowedAggregationEmitIntervalMs(): number {
    return this.emitIntervalMs;
  }
}

/** Kafka's `new KeyValueTimestamp<>(new Windowed<>(key, new SessionWindow(start, end)), new Change<>(newValue, oldValue), ts)`. */
export function sessionKvt<V>(key: string, start: number, end: number, newValue: V | null, oldValue: V | null, timestamp: number) {
  return kvt({ key, window: { start, end } }, change(newValue, oldValue), timestamp);
}
