/**
 * Promotion: a standby task of this instance becomes its active task (the
 * same task id is assigned here as active). Its processors and stores become
 * the active task's, so nothing is wiped and nothing the standby applied is
 * read again (Kafka Streams recycles a standby into an active task the same
 * way, `TaskManager#convertStandbyToActive`). The steps the code mirrors:
 * 1. the standby builds its task's processors with {@link LateBinding.collector}
 *    and inits its stores with {@link LateBinding.storeContext}: the output,
 *    the changelog sink and the record context are reached through the
 *    binding, which answers as a standby (no output; a write is a bug) until
 *    step 3; the stores get the instance's record cache from the start;
 * 2. `StandbyTask.handOver()` stops the standby without closing anything and
 *    returns a {@link PromotedStandby}: the task folder (still locked), the
 *    processor with its open stores, and each store's changelog position;
 * 3. the active task takes the processor instead of building one
 *    (`task-parts.ts`); its state manager takes the folder, calls `bind` (the
 *    binding now answers with the active task's collector, changelog sinks and
 *    record context) instead of `init`, and restores each store from the
 *    standby's position: only the tail the standby had not read yet.
 */
import { IllegalStateError } from '../../errors.js';
import type { RecordCollector } from '../../processors/task-contract.js';
import type { TaskProcessor } from '../../processors/task-contract.js';
import type { ChangelogSink, StoreInitContext, StoreRecordContext } from '../../state/store-contract.js';

/** What the active task binds a promoted standby to (step 3). */
export interface ActiveBinding {
  collector: RecordCollector;
  /** The changelog sink of store `name` (every store the standby inited with one gets one). */
  changelog: (storeName: string) => ChangelogSink | undefined;
  recordContext: () => StoreRecordContext;
}

/** A standby handed to the active task of the same id (step 2). */
export interface PromotedStandby {
  /** The task folder, locked by this instance: the active task releases it. */
  readonly dir: string;
  /** The standby's processors and open stores. */
  readonly processor: TaskProcessor;
  /** Per store name: the next changelog offset the standby would have read (where the active restoration starts). */
  readonly positions: ReadonlyMap<string, number>;
  /** Step 3: output, changelog sinks and record context are the active task's from now on. */
  bind(active: ActiveBinding): void;
}

const STANDBY_CONTEXT: StoreRecordContext = { timestamp: 0, headers: {} };

/** Standby tasks never produce: a processor or store that tried would be a bug in sluice. */
function noOutput(what: string): never {
  throw new IllegalStateError(`A standby task does not process records, so it cannot ${what}: this is a bug in sluice`);
}

/** Steps 1 and 3: the collector and store contexts of a standby, re-pointed at the active task on promotion. */
export class LateBinding {
  #active: ActiveBinding | undefined;

  /** The processors' collector (step 1). */
  readonly collector: RecordCollector = {
    send: (record, context) => (this.#active ?? noOutput('send any record')).collector.send(record, context),
    partitionsFor: (topic) => this.#active?.collector.partitionsFor?.(topic),
  };

  /** Step 1: the init context of a standby store; `logs`: it writes a changelog once active. */
  storeContext(storeName: string, logs: boolean, base: Omit<StoreInitContext, 'changelog' | 'recordContext'>): StoreInitContext {
    const changelog: ChangelogSink | undefined = logs
      ? {
          send: (name, key, value, timestamp, headers) => {
            const sink = this.#active?.changelog(storeName) ?? noOutput(`write to the changelog of store '${storeName}'`);
            sink.send(name, key, value, timestamp, headers);
          },
        }
      : undefined;
    return { ...base, changelog, recordContext: () => this.#active?.recordContext() ?? STANDBY_CONTEXT };
  }

  /** Step 3. */
  bind(active: ActiveBinding): void {
    this.#active = active;
  }
}
