/**
 * The merge node of a cogrouped aggregation (Kafka's `KTablePassThrough`,
 * KIP-150): a cogroup is N aggregation processors (one per grouped stream)
 * writing one shared store, each forwarding its updates to this one node,
 * which passes every `Change` on unchanged. As a KTable node:
 * - its view is the shared store's (the first aggregation's view: all of
 *   them read the same store);
 * - asked to send old values, it asks every aggregation (they keep the store,
 *   so they always can) and answers true;
 * - for `suppress(untilWindowCloses)`, a windowed cogroup's grace is found
 *   through its parents (window-grace.ts walks every parent of a node);
 * - its output is versioned when the shared store is (KIP-914).
 */
import { IllegalStateError } from '../../errors.js';
import type { Processor, ProcessorContext } from '../processor.js';
import type { Record } from '../record.js';
import type { Change } from './change.js';
import type { KTableNodeSupplier, KTableProcessorSupplier, KTableValueGetterSupplier } from './ktable-contract.js';

/** Kafka's `KTablePassThrough` over the aggregation suppliers `parents` (one store). */
export class CogroupPassThroughSupplier<K, V> implements KTableProcessorSupplier<K, Change<V>, K, V> {
  constructor(private readonly parents: readonly KTableNodeSupplier<K, V>[]) {
    if (parents.length === 0) throw new IllegalStateError('CogroupPassThroughSupplier: a cogroup has at least one aggregation');
  }

  /** The aggregations always keep their store, so old values are always available. */
  enableSendingOldValues(): boolean {
    for (const parent of this.parents) parent.enableSendingOldValues(true);
    return true;
  }

  /** Versioned when the aggregations' shared store is (Kafka's `setOutputVersioned` on the cogroup's nodes). */
  isOutputVersioned(): boolean {
    return this.parents.some((parent) => parent.isOutputVersioned?.() === true);
  }

  view(): KTableValueGetterSupplier<K, V> {
    const [first] = this.parents;
    if (first === undefined) throw new IllegalStateError('CogroupPassThroughSupplier: a cogroup has at least one aggregation');
    return first.view();
  }

  get(): Processor<K, Change<V>, K, Change<V>> {
    let context: ProcessorContext<K, Change<V>>;
    return {
      init(c) {
        context = c;
      },
      process(record: Record<K, Change<V>>) {
        context.forward(record);
      },
    };
  }
}
