/**
 * What the typed window and session stores share: the ManagedStateStore
 * lifecycle delegated to the bytes stack, and checked serdes on the store's
 * changelog topic name (as Kafka's `StateSerdes`).
 */
import { IllegalArgumentError } from '../../errors.js';
import { checkedDeserialize, checkedSerialize } from '../../serdes/checked-serde.js';
import type { Serde } from '../../serdes/serde.js';
import { changelogTopicName, type ChangelogRecord, type ManagedStateStore, type StoreInitContext } from '../store-contract.js';
import type { BytesStoreLifecycle } from '../window-store.js';

/** How a builder configured the store. */
export interface TypedStoreOptions {
  loggingEnabled: boolean;
  changelogConfig: Readonly<Record<string, string>>;
}

/** Base of the typed window and session stores. */
export abstract class TypedStoreBase<K, V, S extends BytesStoreLifecycle> implements ManagedStateStore {
  readonly loggingEnabled: boolean;
  readonly changelogConfig: Readonly<Record<string, string>>;
  private topic: string;

  constructor(
    /** The bytes stack under this store (change-logging layer or engine store). */
    readonly inner: S,
    protected readonly keySerde: Serde<K>,
    protected readonly valueSerde: Serde<V>,
    options: TypedStoreOptions,
  ) {
    this.loggingEnabled = options.loggingEnabled;
    this.changelogConfig = options.changelogConfig;
    this.topic = inner.name;
  }

  get name(): string {
    return this.inner.name;
  }
  get persistent(): boolean {
    return this.inner.persistent;
  }
  init(context: StoreInitContext): void {
    this.inner.init(context);
    this.topic = changelogTopicName(context.applicationId, this.name);
  }
  checkpoint(): number | undefined {
    return this.inner.checkpoint();
  }
  restoreBatch(records: readonly ChangelogRecord[]): void {
    this.inner.restoreBatch(records);
  }
  flush(): void {
    this.inner.flush();
  }
  commit(changelogNextOffset: number | undefined): void {
    this.inner.commit(changelogNextOffset);
  }
  close(): void {
    this.inner.close();
  }
  isOpen(): boolean {
    return this.inner.isOpen();
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

  protected valueOf(bytes: Buffer): V {
    return checkedDeserialize(this.valueSerde, this.topic, bytes, undefined, 'VALUE') as V;
  }
}
