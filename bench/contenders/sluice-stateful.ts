/**
 * The part of sluice's stateful API (API.md "The stateful half") the stateful
 * contenders use, as a small structural interface: sluice is loaded
 * dynamically, so the benchmark keeps compiling while the durable state stores
 * (issue #15) are being built, and a missing piece fails the run with a
 * message naming it instead of a type error.
 */
import { emit } from './common.js';

/** A serde as the contenders pass it around. */
export interface SerdeLike {
  serialize(topic: string, data: unknown): Buffer | null;
  deserialize(topic: string, data: Buffer | null): unknown;
}
/** The fields of sluice's `Materialized` the contenders set. */
export interface MaterializedLike {
  storeName?: string;
  storeSupplier?: unknown;
  keySerde?: SerdeLike;
  valueSerde?: SerdeLike;
}
interface TableLike {
  toStream(): { to(topic: string, options: { keySerde: SerdeLike; valueSerde: SerdeLike }): void };
  /** KTable.suppress (API.md "The stateful half"). */
  suppress(suppressed: unknown): TableLike;
}
/** A grouped stream windowed by time windows (issue 17). */
export interface TimeWindowedLike {
  count(materialized?: unknown): TableLike;
  emitStrategy(strategy: unknown): TimeWindowedLike;
}
interface GroupedLike {
  count(materialized?: MaterializedLike): TableLike;
  reduce(reducer: (aggregate: string, value: string) => string, materialized?: MaterializedLike): TableLike;
  windowedBy(windows: unknown): TimeWindowedLike;
}
/** A KStream of string keys and values. */
export interface StreamLike {
  peek(fn: (key: string, value: string) => void): StreamLike;
  groupByKey(): GroupedLike;
}
/** Kafka's StateRestoreListener, as API.md names it. */
export interface RestoreListenerLike {
  onRestoreStart(tp: { topic: string; partition: number }, storeName: string, startOffset: number, endOffset: number): void;
  onBatchRestored(tp: { topic: string; partition: number }, storeName: string, batchEndOffset: number, numRestored: number): void;
  onRestoreEnd(tp: { topic: string; partition: number }, storeName: string, totalRestored: number): void;
}
/** A read-only key-value store view (interactive queries). */
export interface ReadOnlyStoreLike {
  get(key: string): unknown;
  all(): Iterable<{ key: unknown; value: unknown }> | AsyncIterable<{ key: unknown; value: unknown }>;
}
/** A KafkaStreams app; the stateful methods are optional until issue #15 lands. */
export interface AppLike {
  start(): Promise<void>;
  close(): Promise<void>;
  metrics(): Record<string, unknown>;
  setGlobalStateRestoreListener?(listener: RestoreListenerLike): void;
  store?(query: { storeName: string; queryableStoreType: unknown }): ReadOnlyStoreLike;
}
/** The sluice module as the stateful contenders see it. */
export interface StatefulSluice {
  StreamsBuilder: new () => { stream(topic: string, options: { keySerde: SerdeLike; valueSerde: SerdeLike }): StreamLike; build(): unknown };
  KafkaStreams: new (topology: unknown, config: Record<string, unknown>) => AppLike;
  Serdes: { String(): SerdeLike; Long(): SerdeLike };
  Stores: { inMemoryKeyValueStore(name: string): unknown; persistentKeyValueStore?(name: string): unknown };
  QueryableStoreTypes?: { keyValueStore(): unknown };
  /** Windowed aggregations (issue 17); optional until they are merged. */
  TimeWindows?: { ofSizeWithNoGrace(sizeMs: number): unknown };
  Suppressed: { untilWindowCloses(bufferConfig: unknown): unknown };
  BufferConfig: { unbounded(): unknown };
  WindowedSerdes: { timeWindowedSerdeFrom(inner: SerdeLike, windowSizeMs: number): SerdeLike };
  EmitStrategy: { onWindowClose(): unknown };
  Materialized: { with(keySerde: SerdeLike, valueSerde: SerdeLike): { withRetention(ms: number): unknown } };
}

/** Imports sluice (src/index.ts; the compiled copy when the runner compiled the contenders). */
export async function loadSluice(): Promise<StatefulSluice> {
  return (await import('../../src/index.js')) as unknown as StatefulSluice;
}

/** True when `err` is sluice's ConfigError for an unknown key `key` (the config does not know it yet). */
function unknownKey(err: unknown, key: string): boolean {
  return err instanceof Error && err.message.includes(`Unknown config key '${key}'`);
}

/**
 * Creates the app with `stateDir` set to the run's fresh state directory.
 * Before issue #15 landed sluice has no `stateDir` config: with
 * `stateDirRequired` that is an error naming it, otherwise the app is created
 * without it and a `note` event says so (its stores are then in-memory).
 */
export function createApp(
  sluice: StatefulSluice, topology: unknown, config: Record<string, unknown>, stateDir: string | undefined, stateDirRequired: boolean,
): AppLike {
  if (stateDir === undefined) return new sluice.KafkaStreams(topology, config);
  try {
    return new sluice.KafkaStreams(topology, { ...config, stateDir });
  } catch (err) {
    if (!unknownKey(err, 'stateDir')) throw err;
    if (stateDirRequired) {
      throw new Error("sluice's KafkaStreams has no 'stateDir' config yet: persistent state stores (issue #15) are not merged into this build", { cause: err });
    }
    emit('note', { message: "sluice has no 'stateDir' config yet (issue #15 not merged): the stores are in-memory and not changelogged" });
    return new sluice.KafkaStreams(topology, config);
  }
}
