/**
 * The change-logging layer of a versioned store (Kafka's
 * `ChangeLoggingVersionedKeyValueBytesStore`): every put and delete is also
 * sent to the changelog as (key, value or tombstone, timestamp of the
 * version), with the headers of the record being processed. As Kafka's, it
 * logs what was asked even when the store below dropped it as too old (the
 * replay drops it again). Restoration goes below unlogged.
 */
import type { ChangelogRecord, StoreInitContext } from '../store-contract.js';
import type { VersionedBytesStore } from './versioned-bytes-store.js';
import type { VersionRead } from './version-list.js';

/** See the module comment. */
export class ChangeLoggingVersionedBytesStore implements VersionedBytesStore {
  #context: StoreInitContext | undefined;

  constructor(private readonly inner: VersionedBytesStore) {}

  get name(): string {
    return this.inner.name;
  }

  get persistent(): boolean {
    return this.inner.persistent;
  }

  get droppedRecords(): number {
    return this.inner.droppedRecords;
  }

  get historyRetentionMs(): number {
    return this.inner.historyRetentionMs;
  }

  /** The store this layer wraps. */
  get wrapped(): VersionedBytesStore {
    return this.inner;
  }

  init(context: StoreInitContext): void {
    this.#context = context;
    this.inner.init(context);
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

  put(key: Buffer, value: Buffer | null, timestamp: number): number {
    const validTo = this.inner.put(key, value, timestamp);
    this.#log(key, value, timestamp);
    return validTo;
  }

  delete(key: Buffer, timestamp: number): VersionRead | null {
    const old = this.inner.delete(key, timestamp);
    this.#log(key, null, timestamp);
    return old;
  }

  get(key: Buffer): VersionRead | null {
    return this.inner.get(key);
  }

  getAsOf(key: Buffer, asOf: number): VersionRead | null {
    return this.inner.getAsOf(key, asOf);
  }

  versions(key: Buffer, from: number, to: number, ascending: boolean): VersionRead[] {
    return this.inner.versions(key, from, to, ascending);
  }

  #log(key: Buffer, value: Buffer | null, timestamp: number): void {
    const context = this.#context;
    if (context?.changelog === undefined) return;
    context.changelog.send(this.name, key, value, timestamp, context.recordContext().headers);
  }
}
