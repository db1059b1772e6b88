/**
 * Suppression of table updates (Kafka's `Suppressed` and `BufferConfig`).
 * TODO(issue 16/17, suppression): implemented by the suppression work.
 */

/** How large the suppression buffer may grow, and what happens when it is full. */
export interface BufferConfig {
  readonly maxRecords?: number;
  readonly maxBytes?: number;
  /** `emitEarly` (default for untilTimeLimit) or `shutDown` when full. */
  readonly whenFull: 'emitEarly' | 'shutDown';
}

/** Helpers for {@link BufferConfig}. */
export const BufferConfig = {
  maxRecords(maxRecords: number): BufferConfig {
    return { maxRecords, whenFull: 'emitEarly' };
  },
  maxBytes(maxBytes: number): BufferConfig {
    return { maxBytes, whenFull: 'emitEarly' };
  },
  unbounded(): BufferConfig {
    return { whenFull: 'shutDown' };
  },
};

/** What `KTable.suppress` holds back. `K` is the table's key type. */
export interface Suppressed<K = unknown> {
  readonly kind: 'untilTimeLimit' | 'untilWindowCloses';
  readonly timeToWaitForMoreEventsMs?: number;
  readonly bufferConfig: BufferConfig;
  readonly name?: string;
  /** Phantom of the key type. */
  readonly keyType?: K;
}

/** Helpers for {@link Suppressed}. */
export const Suppressed = {
  /** Emits the latest update of a key once `timeToWaitForMoreEventsMs` of stream time passed since its first held update. */
  untilTimeLimit<K = unknown>(timeToWaitForMoreEventsMs: number, bufferConfig: BufferConfig): Suppressed<K> {
    return { kind: 'untilTimeLimit', timeToWaitForMoreEventsMs, bufferConfig };
  },
  /** Emits a window's final result once it closes (windowed tables). */
  untilWindowCloses<K = unknown>(bufferConfig: BufferConfig): Suppressed<K> {
    return { kind: 'untilWindowCloses', bufferConfig };
  },
};
