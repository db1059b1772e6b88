/**
 * The base of every layer of a bytes store stack (Kafka Streams'
 * `WrappedStateStore`): a layer wraps the store below it and passes the
 * lifecycle (`init`, `checkpoint`, `restoreBatch`, `flush`, `commit`,
 * `close`, `isOpen`) down unchanged unless it has something of its own to do
 * there. The caching and change-logging layers of key-value, window and
 * session stores all extend it.
 */
import type { BytesStoreLifecycle } from '../bytes-store-contract.js';
import type { ChangelogRecord, StoreInitContext } from '../store-contract.js';

/** A layer over `wrapped`, delegating the store lifecycle to it. */
export abstract class WrappedBytesStore<S extends BytesStoreLifecycle> implements BytesStoreLifecycle {
  constructor(
    /** The store this layer wraps. */
    readonly wrapped: S,
  ) {}

  get name(): string {
    return this.wrapped.name;
  }
  get persistent(): boolean {
    return this.wrapped.persistent;
  }
  init(context: StoreInitContext): void {
    this.wrapped.init(context);
  }
  checkpoint(): number | undefined {
    return this.wrapped.checkpoint();
  }
  restoreBatch(records: readonly ChangelogRecord[]): void {
    this.wrapped.restoreBatch(records);
  }
  flush(): void {
    this.wrapped.flush();
  }
  commit(changelogNextOffset: number | undefined): void {
    this.wrapped.commit(changelogNextOffset);
  }
  close(): void {
    this.wrapped.close();
  }
  isOpen(): boolean {
    return this.wrapped.isOpen();
  }
}
