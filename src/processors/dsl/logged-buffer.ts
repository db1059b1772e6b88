/**
 * What the two time-ordered buffers share (the suppression buffer,
 * suppress-buffer.ts, and the stream–table join buffer,
 * stream-table-join-buffer.ts): an in-memory store whose changelog topic
 * (compacted) is its only copy, and the builder of one per task.
 *
 * The store's life: `init` names its changelog topic; the buffer marks the
 * store keys it puts or evicts as dirty; `flush()` (commit step 5) logs each
 * dirty key's entry (in the suppression buffer's value encoding, with the
 * timestamp of its record) or, once evicted, a tombstone (with the current
 * record's timestamp, never negative); `restoreBatch` replays the changelog.
 */
import { IllegalStateError } from '../../errors.js';
import type { StateStore, StoreBuilder } from '../../state/state-store.js';
import { changelogTopicName, type ChangelogRecord, type ManagedStateStore, type StoreInitContext } from '../../state/store-contract.js';
import { encodeBufferValue, type BufferValue } from './suppress-buffer-value.js';

/** A held entry as logged: its buffer time and value. */
export interface LoggedEntry {
  readonly time: number;
  readonly value: BufferValue;
}

/** The lifecycle and changelog of a time-ordered buffer; the subclass holds the entries. */
export abstract class LoggedBufferStore implements StateStore, ManagedStateStore {
  readonly persistent = false;
  readonly changelogConfig: Readonly<Record<string, string>>;
  /** The changelog topic (serdes use it as their topic). */
  protected topic = '';
  #context: StoreInitContext | undefined;
  #open = false;

  constructor(
    readonly name: string,
    readonly loggingEnabled: boolean,
    logConfig: Readonly<Record<string, string>>,
    /** How errors name the store, e.g. `Suppression buffer`. */
    private readonly what: string,
  ) {
    this.changelogConfig = loggingEnabled ? { 'cleanup.policy': 'compact', ...logConfig } : {};
  }

  init(context: StoreInitContext): void {
    if (this.#open) throw new IllegalStateError(`${this.what} '${this.name}' is already initialised`);
    this.#context = context;
    this.topic = changelogTopicName(context.applicationId, this.name);
    this.#open = true;
  }

  checkpoint(): number | undefined {
    return undefined;
  }

  abstract restoreBatch(records: readonly ChangelogRecord[]): void;

  /** Commit step 5: logs every dirty store key (see the module comment), then forgets them. */
  flush(): void {
    if (!this.#open) return;
    const sink = this.#context?.changelog;
    if (sink !== undefined && this.loggingEnabled) {
      const now = Math.max(0, this.#context?.recordContext().timestamp ?? 0);
      for (const [storeKey, entry] of this.dirtyEntries()) {
        if (entry === undefined) sink.send(this.name, storeKey, null, now);
        else sink.send(this.name, storeKey, encodeBufferValue(entry.time, entry.value), Math.max(0, entry.value.context.timestamp));
      }
    }
    this.clearDirty();
  }

  commit(): void {
    // In memory: nothing to make durable; the changelog is the copy.
  }

  close(): void {
    this.#open = false;
    this.clearEntries();
    this.clearDirty();
  }

  isOpen(): boolean {
    return this.#open;
  }

  /** Each dirty store key with its held entry, or undefined once it left the buffer. */
  protected abstract dirtyEntries(): Iterable<readonly [Buffer, LoggedEntry | undefined]>;
  protected abstract clearDirty(): void;
  protected abstract clearEntries(): void;

  /** Fails unless the store is open (between `init` and `close`). */
  protected ready(method: string): void {
    if (!this.#open) throw new IllegalStateError(`${this.what} '${this.name}' is not open: ${method}() needs init() first (or the store was closed)`);
  }
}

/** Builds one buffer per task; logged by default, never cached (Kafka's buffer builders ignore caching too). */
export abstract class LoggedBufferBuilder<S extends StateStore> implements StoreBuilder<S> {
  loggingEnabled = true;
  logConfig: Readonly<Record<string, string>> = {};
  readonly cachingEnabled = false;

  constructor(readonly name: string) {}

  abstract build(): S;

  withLoggingEnabled(config: Record<string, string> = {}): this {
    this.loggingEnabled = true;
    this.logConfig = { ...config };
    return this;
  }

  withLoggingDisabled(): this {
    this.loggingEnabled = false;
    this.logConfig = {};
    return this;
  }

  /** The buffer has no cache. */
  withCachingEnabled(): this {
    return this;
  }

  withCachingDisabled(): this {
    return this;
  }
}
