/**
 * What the typed window and session stores share: the ManagedStateStore
 * lifecycle delegated to the bytes stack (the base every layer shares,
 * `./wrapped-bytes-store.ts`), and checked serdes on the store's
 * changelog topic name (as Kafka's `StateSerdes`).
 */
import { IllegalArgumentError } from '../../errors.js';
import { checkedDeserialize, checkedSerialize } from '../../serdes/checked-serde.js';
import type { Serde } from '../../serdes/serde.js';
import { changelogTopicName, type ManagedStateStore, type StoreInitContext } from '../store-contract.js';
import type { BytesStoreLifecycle } from '../window-store.js';
import { WrappedBytesStore } from './wrapped-bytes-store.js';

/** How a builder configured the store. */
export interface TypedStoreOptions {
  loggingEnabled: boolean;
  changelogConfig: Readonly<Record<string, string>>;
}

/** Base of the typed window and session stores. */
export abstract class TypedStoreBase<K, V, S extends BytesStoreLifecycle> extends WrappedBytesStore<S> implements ManagedStateStore {
  readonly loggingEnabled: boolean;
  readonly changelogConfig: Readonly<Record<string, string>>;
  private topic: string;

  constructor(
    inner: S,
    protected readonly keySerde: Serde<K>,
    protected readonly valueSerde: Serde<V>,
    options: TypedStoreOptions,
  ) {
    super(inner);
    this.loggingEnabled = options.loggingEnabled;
    this.changelogConfig = options.changelogConfig;
    this.topic = inner.name;
  }

  /** The bytes stack under this store (change-logging layer or engine store). */
  get inner(): S {
    return this.wrapped;
  }
  override init(context: StoreInitContext): void {
    this.wrapped.init(context);
    this.topic = changelogTopicName(context.applicationId, this.name);
  }

  /** The serde topic: the changelog topic once initialised (Kafka's `StateSerdes.topic`). */
  protected get serdeTopic(): string {
    return this.topic;
  }

  protected keyBytes(key: K | null | undefined, argument = 'key'): Buffer {
    if (key === null || key === undefined) throw new IllegalArgumentError(`State store '${this.name}': ${argument} cannot be null`);
    const bytes = checkedSerialize(this.keySerde, this.topic, key, undefined, 'KEY');
    if (bytes === null) throw new IllegalArgumentError(`State store '${this.name}': ${argument} serialized to null; a store key cannot be null`);
    return bytes;
  }

  protected optionalKeyBytes(key: K | null | undefined, argument: string): Buffer | null {
    return key === null || key === undefined ? null : this.keyBytes(key, argument);
  }

  protected keyOf(bytes: Buffer): K {
    return checkedDeserialize(this.keySerde, this.topic, bytes, undefined, 'KEY') as K;
  }

  protected valueBytes(value: V | null): Buffer | null {
    return checkedSerialize(this.valueSerde, this.topic, value, undefined, 'VALUE');
  }

  /** The value of `bytes` (shadows `Object.prototype.valueOf`, which TypeScript counts as a base member once the class extends another). */
  protected override valueOf(bytes: Buffer): V {
    return checkedDeserialize(this.valueSerde, this.topic, bytes, undefined, 'VALUE') as V;
  }
}
