/**
 * `KTable.transformValues` (Kafka's `KTableTransformValues`): each change's
 * new value (and, when old values are sent, its old value) goes through the
 * transformer, null included. Materialized (a named `Materialized`), the
 * result is kept in the node's store and the view reads it; otherwise the
 * view transforms the parent's view on each lookup with a transformer of its
 * own, whose context reports no record metadata (Kafka's getter sets an
 * unknown record context: no topic, partition -1, offset -1).
 */
import { IllegalArgumentError, IllegalStateError } from '../../errors.js';
import type { Cancellable, Processor, ProcessorContext, PunctuationType, Punctuator, RecordMetadata } from '../processor.js';
import type { Record } from '../record.js';
import type { StateStore, StoreBuilder } from '../../state/state-store.js';
import type { ValueAndTimestamp } from '../../state/value-and-timestamp.js';
import { Change } from './change.js';
import { materializedValueGetterSupplier, TableNodeOutput, type KTableProcessorSupplier, type KTableValueGetter, type KTableValueGetterSupplier } from './ktable-contract.js';
import type { KTableParent } from './ktable-ops.js';
import type { ValueTransformerWithKey, ValueTransformerWithKeySupplier } from './ktable-transform-values-types.js';
import { syncResult } from './sync-result.js';

/** Kafka's `RecordQueue.UNKNOWN`: the timestamp of a view result without a parent value. */
const UNKNOWN = -1;

/**
 * The context a transformer gets (Kafka's `ForwardingDisabledProcessorContext`):
 * the processor's, except that `forward` throws, and `recordMetadata()` is
 * null while a view lookup transforms.
 */
class ForwardingDisabledContext implements ProcessorContext<never, never> {
  /** True while a view lookup transforms (no record is being processed for it). */
  unknownRecord = false;

  constructor(private readonly inner: ProcessorContext<unknown, unknown>) {}

  get taskId() {
    return this.inner.taskId;
  }
  get processorName(): string {
    return this.inner.processorName;
  }
  forward(): void {
    throw new IllegalStateError(
      `transformValues in '${this.inner.processorName}': ProcessorContext#forward() is not supported from this context, as the framework must ensure the key is not changed. ` +
        'Return the new value from transform(readOnlyKey, value) instead.',
    );
  }
  schedule(intervalMs: number, type: PunctuationType, punctuator: Punctuator): Cancellable {
    return this.inner.schedule(intervalMs, type, punctuator);
  }
  getStateStore<S extends StateStore = StateStore>(name: string): S {
    return this.inner.getStateStore<S>(name);
  }
  recordMetadata(): RecordMetadata | null {
    return this.unknownRecord ? null : this.inner.recordMetadata();
  }
  commit(): void {
    this.inner.commit();
  }
  currentStreamTimeMs(): number {
    return this.inner.currentStreamTimeMs();
  }
  currentSystemTimeMs(): number {
    return this.inner.currentSystemTimeMs();
  }
}

/** A transformer with the DSL's checks: created non-null, a synchronous result, undefined read as null. */
class CheckedTransformer<K, V, VR> {
  private readonly transformer: ValueTransformerWithKey<K, V, VR>;
  context: ForwardingDisabledContext | undefined;

  constructor(supplier: ValueTransformerWithKeySupplier<K, V, VR>) {
    const transformer = typeof supplier === 'function' ? supplier() : supplier.get();
    if (transformer === null || transformer === undefined || typeof transformer.transform !== 'function') {
      throw new IllegalArgumentError(
        `transformValues: the ValueTransformerWithKeySupplier returned ${transformer === null || transformer === undefined ? String(transformer) : 'an object without transform()'}; return a new transformer { transform(readOnlyKey, value) { … } } on each call`,
      );
    }
    this.transformer = transformer;
  }

  init(context: ProcessorContext<unknown, unknown>): void {
    this.context = new ForwardingDisabledContext(context);
    this.transformer.init?.(this.context);
  }

  transform(key: K, value: V | null): VR | null {
    return syncResult('transformValues', 'transformer', this.transformer.transform(key, value)) ?? null;
  }

  close(): void {
    this.transformer.close?.();
  }
}

/** See the module comment. `storeNames`: the stores the transformer uses (named in the call, or declared by its supplier). */
export class KTableTransformValuesSupplier<K, V, VR> implements KTableProcessorSupplier<K, Change<V>, K, VR> {
  private sendOldValues = false;

  constructor(
    private readonly parent: KTableParent<K, V>,
    private readonly transformerSupplier: ValueTransformerWithKeySupplier<K, V, VR>,
    private readonly queryableName: string | undefined,
    private readonly storeNames: readonly string[],
  ) {}

  /** The stores the transformer supplier declares (`Topology.addProcessor` adds and connects them). */
  stores(): Iterable<StoreBuilder<StateStore>> | null | undefined {
    return typeof this.transformerSupplier.stores === 'function' ? this.transformerSupplier.stores() : undefined;
  }

  enableSendingOldValues(forceMaterialization: boolean): boolean {
    if (this.queryableName !== undefined) {
      this.sendOldValues = true;
      return true;
    }
    if (this.parent.enableSendingOldValues(forceMaterialization)) this.sendOldValues = true;
    return this.sendOldValues;
  }

  view(): KTableValueGetterSupplier<K, VR> {
    if (this.queryableName !== undefined) return materializedValueGetterSupplier<K, VR>(this.queryableName);
    const parentView = this.parent.valueGetterSupplier();
    return {
      get: () => transformingGetter(parentView.get(), new CheckedTransformer(this.transformerSupplier)),
      storeNames: () => [...parentView.storeNames(), ...this.storeNames],
    };
  }

  get(): Processor<K, Change<V>, K, Change<VR>> {
    const transformer = new CheckedTransformer(this.transformerSupplier);
    const { sendOldValues } = this;
    const output = new TableNodeOutput<K, VR>(this.queryableName, sendOldValues);
    return {
      init(context: ProcessorContext<K, Change<VR>>) {
        transformer.init(context as ProcessorContext<unknown, unknown>);
        output.init(context);
      },
      process(record: Record<K, Change<V>>) {
        const { key } = record;
        const newValue = transformer.transform(key, record.value.newValue);
        if (output.store !== undefined) {
          const oldValue = sendOldValues ? (output.store.get(key)?.value ?? null) : null;
          output.emit(record.withValue(Change.of<VR>(newValue, oldValue, true)));
        } else {
          const oldValue = sendOldValues ? transformer.transform(key, record.value.oldValue) : null;
          output.emit(record.withValue(Change.of<VR>(newValue, oldValue, record.value.isLatest)));
        }
      },
      close() {
        transformer.close();
      },
    };
  }
}

/** The view of an unmaterialized node: the parent's value (null when none) transformed, with the parent's timestamp (unknown: -1). */
function transformingGetter<K, V, VR>(parent: KTableValueGetter<K, V>, transformer: CheckedTransformer<K, V, VR>): KTableValueGetter<K, VR> {
  const transform = (key: K, vt: ValueAndTimestamp<V> | null): ValueAndTimestamp<VR> | null => {
    const context = transformer.context;
    if (context !== undefined) context.unknownRecord = true;
    try {
      const value = transformer.transform(key, vt?.value ?? null);
      return value === null ? null : { value, timestamp: vt?.timestamp ?? UNKNOWN };
    } finally {
      if (context !== undefined) context.unknownRecord = false;
    }
  };
  const getter: KTableValueGetter<K, VR> = {
    init(context) {
      parent.init(context);
      transformer.init(context);
    },
    get: (key) => transform(key, parent.get(key)),
    isVersioned: () => parent.isVersioned?.() ?? false,
    close() {
      parent.close?.();
      transformer.close();
    },
  };
  const getAsOf = parent.getAsOf;
  if (getAsOf !== undefined) getter.getAsOf = (key, asOf) => transform(key, getAsOf.call(parent, key, asOf));
  return getter;
}
