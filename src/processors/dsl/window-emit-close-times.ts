/**
 * The last emit close time of windowed aggregations emitting on window close
 * (Kafka's processor metadata `processorMetadataForKey(storeName)`, which
 * Kafka commits with the input offsets). In sluice it lives:
 *
 * - in the aggregation's emit-close-time store when the topology has one
 *   (`<storeName>-emit-close-time`, a changelogged key-value store the DSL
 *   adds for `EmitStrategy.onWindowClose()`): written in the same transaction
 *   as the emitted windows, so after a crash or a restart on a fresh state
 *   directory no closed window is emitted twice and none is skipped;
 * - otherwise per window store instance, so a processor re-created in the
 *   same task resumes where the previous one stopped.
 */
import type { KeyValueStore, StateStore } from '../../state/state-store.js';

const byStore = new WeakMap<StateStore, Map<string, number>>();

/** The close-time store name of a windowed aggregation's store `storeName`. */
export function emitCloseTimeStoreName(storeName: string): string {
  return `${storeName}-emit-close-time`;
}

/** Close times by key (the aggregation's store name). */
export class EmitCloseTimes {
  private constructor(
    private readonly memory: Map<string, number>,
    private readonly store: KeyValueStore<string, number> | undefined,
  ) {}

  /** The close times of `windowStore`, kept in `store` when given. */
  static of(windowStore: StateStore, store?: KeyValueStore<string, number>): EmitCloseTimes {
    let memory = byStore.get(windowStore);
    if (memory === undefined) {
      memory = new Map();
      byStore.set(windowStore, memory);
    }
    return new EmitCloseTimes(memory, store);
  }

  get(key: string): number | undefined {
    return this.store?.get(key) ?? this.memory.get(key);
  }

  set(key: string, closeTime: number): void {
    this.memory.set(key, closeTime);
    this.store?.put(key, closeTime);
  }
}
