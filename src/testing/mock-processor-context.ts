/**
 * `MockProcessorContext`: unit-test one processor alone, as Kafka Streams'
 * `org.apache.kafka.streams.processor.api.MockProcessorContext` does. It
 * captures forwarded records, commit requests and scheduled punctuators, holds
 * the state stores the test adds, and lets the test set the record metadata
 * and the clocks.
 */
import { TopologyError } from '../errors.js';
import type {
  Cancellable,
  ProcessorContext,
  PunctuationType,
  Punctuator,
  RecordMetadata,
} from '../processors/processor.js';
import type { Record } from '../processors/record.js';
import type { StateStore } from '../state/state-store.js';
import type { TaskId } from '../processors/task-contract.js';

/** A record forwarded by the processor under test, with the child it was sent to (`undefined`: all children). */
export interface CapturedForward<K = unknown, V = unknown> {
  readonly record: Record<K, V>;
  readonly childName: string | undefined;
}

/** A punctuator the processor under test scheduled. */
export interface CapturedPunctuator {
  readonly intervalMs: number;
  readonly type: PunctuationType;
  readonly punctuator: Punctuator;
  /** True once the processor cancelled the schedule. */
  cancelled(): boolean;
}

/** Options of a {@link MockProcessorContext}; all optional. */
export interface MockProcessorContextOptions {
  /** Default `'dummy-application'`. */
  applicationId?: string;
  /** Default `{ subtopology: 0, partition: 0 }`. */
  taskId?: TaskId;
  /** Default `'mock-processor'`. */
  processorName?: string;
  /** Application configs the test wants the processor to see ({@link MockProcessorContext.appConfigs}). */
  appConfigs?: { readonly [key: string]: unknown };
  /** Default `''`. */
  stateDir?: string;
}

/**
 * A {@link ProcessorContext} for unit tests of a single processor: pass it to
 * `processor.init(context)`, call `processor.process(record)`, then inspect
 * {@link forwarded}, {@link committed} and {@link scheduledPunctuators}.
 *
 * Differences from Kafka's: stores are handed over with {@link addStateStore}
 * (no `StateStoreContext`); durations are milliseconds.
 */
export class MockProcessorContext<KForward = unknown, VForward = unknown> implements ProcessorContext<KForward, VForward> {
  readonly taskId: TaskId;
  readonly processorName: string;
  readonly #applicationId: string;
  readonly #appConfigs: { readonly [key: string]: unknown };
  readonly #stateDir: string;
  readonly #forwarded: CapturedForward<KForward, VForward>[] = [];
  readonly #punctuators: CapturedPunctuator[] = [];
  readonly #stores = new Map<string, StateStore>();
  #metadata: RecordMetadata | null = null;
  #committed = false;
  #streamTimeMs = -1;
  #systemTimeMs: number | undefined;

  constructor(options: MockProcessorContextOptions = {}) {
    this.#applicationId = options.applicationId ?? 'dummy-application';
    this.taskId = options.taskId ?? { subtopology: 0, partition: 0 };
    this.processorName = options.processorName ?? 'mock-processor';
    this.#appConfigs = { applicationId: this.#applicationId, ...options.appConfigs };
    this.#stateDir = options.stateDir ?? '';
  }

  /** The application id given at construction. */
  applicationId(): string {
    return this.#applicationId;
  }

  /** The application configs given at construction (with `applicationId`). */
  appConfigs(): { readonly [key: string]: unknown } {
    return this.#appConfigs;
  }

  /** The state directory given at construction. */
  stateDir(): string {
    return this.#stateDir;
  }

  forward<K extends KForward, V extends VForward>(record: Record<K, V>, childName?: string): void {
    this.#forwarded.push({ record, childName });
  }

  /**
   * Everything forwarded since the last {@link resetForwards}; with `childName`,
   * only what was sent to that child or to all children.
   */
  forwarded(childName?: string): CapturedForward<KForward, VForward>[] {
    if (childName === undefined) return [...this.#forwarded];
    return this.#forwarded.filter((f) => f.childName === undefined || f.childName === childName);
  }

  /** Forgets the captured forwards. */
  resetForwards(): void {
    this.#forwarded.length = 0;
  }

  schedule(intervalMs: number, type: PunctuationType, punctuator: Punctuator): Cancellable {
    let cancelled = false;
    this.#punctuators.push({ intervalMs, type, punctuator, cancelled: () => cancelled });
    return { cancel: () => void (cancelled = true) };
  }

  /** Every punctuator scheduled so far, in order. */
  scheduledPunctuators(): CapturedPunctuator[] {
    return [...this.#punctuators];
  }

  /** Makes `store` available to `getStateStore(store.name)`. */
  addStateStore(store: StateStore): void {
    this.#stores.set(store.name, store);
  }

  getStateStore<S extends StateStore = StateStore>(name: string): S {
    const store = this.#stores.get(name);
    if (!store) {
      throw new TopologyError(`MockProcessorContext has no state store named '${name}': add it first with context.addStateStore(store)`);
    }
    return store as S;
  }

  /** Sets the metadata {@link recordMetadata} returns (the record "being processed"). */
  setRecordMetadata(topic: string, partition: number, offset: number): void {
    this.#metadata = { topic, partition, offset };
  }

  recordMetadata(): RecordMetadata | null {
    return this.#metadata;
  }

  commit(): void {
    this.#committed = true;
  }

  /** True when the processor asked for a commit since the last {@link resetCommit}. */
  committed(): boolean {
    return this.#committed;
  }

  /** Forgets the commit request. */
  resetCommit(): void {
    this.#committed = false;
  }

  /** Sets the stream time {@link currentStreamTimeMs} returns. */
  setCurrentStreamTimeMs(ms: number): void {
    this.#streamTimeMs = ms;
  }

  currentStreamTimeMs(): number {
    return this.#streamTimeMs;
  }

  /** Sets the wall-clock time {@link currentSystemTimeMs} returns (default: `Date.now()`). */
  setCurrentSystemTimeMs(ms: number): void {
    this.#systemTimeMs = ms;
  }

  currentSystemTimeMs(): number {
    return this.#systemTimeMs ?? Date.now();
  }
}
