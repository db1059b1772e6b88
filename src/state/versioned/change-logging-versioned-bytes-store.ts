/**
 * The change-logging layer of a versioned store (Kafka's
 * `ChangeLoggingVersionedKeyValueBytesStore`): every put and delete is also
 * sent to the changelog as (key, value or tombstone, timestamp of the
 * version), with the headers of the record being processed. As Kafka's, it
 * logs what was asked even when the store below dropped it as too old (the
 * replay drops it again). The lifecycle, restoration included (unlogged),
 * goes below unchanged (`WrappedBytesStore`).
 */
import { WrappedBytesStore } from '../internal/wrapped-bytes-store.js';
import type { StoreInitContext } from '../store-contract.js';
import type { VersionedBytesStore } from './versioned-bytes-store.js';
import type { VersionRead } from './version-list.js';

/** See the module comment. */
export class ChangeLoggingVersionedBytesStore extends WrappedBytesStore<VersionedBytesStore> implements VersionedBytesStore {
  #context: StoreInitContext | undefined;

  get droppedRecords(): number {
    return this.wrapped.droppedRecords;
  }

  get historyRetentionMs(): number {
    return this.wrapped.historyRetentionMs;
  }

  override init(context: StoreInitContext): void {
    this.#context = context;
    super.init(context);
  }

  put(key: Buffer, value: Buffer | null, timestamp: number): number {
    const validTo = this.wrapped.put(key, value, timestamp);
    this.#log(key, value, timestamp);
    return validTo;
  }

  delete(key: Buffer, timestamp: number): VersionRead | null {
    const old = this.wrapped.delete(key, timestamp);
    this.#log(key, null, timestamp);
    return old;
  }

  get(key: Buffer): VersionRead | null {
    return this.wrapped.get(key);
  }

  getAsOf(key: Buffer, asOf: number): VersionRead | null {
    return this.wrapped.getAsOf(key, asOf);
  }

  versions(key: Buffer, from: number, to: number, ascending: boolean): VersionRead[] {
    return this.wrapped.versions(key, from, to, ascending);
  }

  #log(key: Buffer, value: Buffer | null, timestamp: number): void {
    const context = this.#context;
    if (context?.changelog === undefined) return;
    context.changelog.send(this.name, key, value, timestamp, context.recordContext().headers);
  }
}
