/**
 * The last emit close time of windowed aggregations emitting on window close
 * (Kafka's processor metadata `processorMetadataForKey(storeName)`): kept per
 * window store instance, so a processor re-created in the same task (the store
 * lives on) resumes where the previous one stopped instead of emitting the
 * closed windows again.
 */
import type { StateStore } from '../state/state-store.js';

const byStore = new WeakMap<StateStore, EmitCloseTimes>();

/** Close times by key (the aggregation's store name). */
export class EmitCloseTimes {
  private readonly times = new Map<string, number>();

  /** The close times kept with `store`. */
  static of(store: StateStore): EmitCloseTimes {
    let times = byStore.get(store);
    if (times === undefined) {
      times = new EmitCloseTimes();
      byStore.set(store, times);
    }
    return times;
  }

  get(key: string): number | undefined {
    return this.times.get(key);
  }

  set(key: string, closeTime: number): void {
    this.times.set(key, closeTime);
  }
}
