/**
 * The producer's memory bound (issue 12, item 8; Java's `buffer.memory`).
 *
 * Every record admitted into the send pipeline reserves its encoded size plus
 * {@link RECORD_OVERHEAD_BYTES} (the heap its wire copy, batch entry and
 * bookkeeping cost besides its bytes); the reservation is released when the
 * record settles (its batch was acknowledged or failed). While the reserved
 * total is at or over the limit, `send()` does not throw: the record is
 * *parked* in its caller's form (no wire copy, no batch entry) and admitted in
 * send order once reservations are released. A caller that sends in a loop
 * awaits {@link BufferMemory.whenAvailable} (`producer.bufferAvailable()`) to
 * stop parking records at all, which keeps its heap bounded: JavaScript cannot
 * block inside `send()` the way Java's producer blocks its calling thread.
 *
 * Admission rule: a record is admitted while the reserved total is below the
 * limit (it may overshoot by that one record, so a record larger than the whole
 * buffer still goes through instead of waiting forever), and only when no
 * earlier record is parked (order of sends is kept).
 */

/** Default of the producer option `bufferMemoryBytes` (Java's `buffer.memory`): 32 MiB. */
export const DEFAULT_BUFFER_MEMORY_BYTES = 32 * 1024 * 1024;

/**
 * Heap a buffered record costs besides its encoded bytes (wire record, Buffer
 * objects, batch entry, promise and callbacks), measured at ~1 KiB for small
 * records on Node 20.
 */
export const RECORD_OVERHEAD_BYTES = 1024;

interface Parked {
  admit(): void;
  fail(error: Error): void;
}

/** Reservations against a byte limit, with a FIFO of parked records. */
export class BufferMemory {
  #used = 0;
  #parked: Parked[] = [];
  #head = 0;
  #spaceWaiters: Array<() => void> = [];
  #drainScheduled = false;

  constructor(readonly limit: number) {}

  /** Bytes reserved by records admitted and not yet settled. */
  get used(): number {
    return this.#used;
  }

  /** Records waiting for room. */
  get parked(): number {
    return this.#parked.length - this.#head;
  }

  /** True when a record sent now is admitted at once (room, and nobody parked before it). */
  get hasRoom(): boolean {
    return this.#used < this.limit && this.parked === 0;
  }

  /** Parks a record until there is room; `admit` runs in send order, `fail` if the pipeline gives up on it first. */
  park(admit: () => void, fail: (error: Error) => void): void {
    this.#parked.push({ admit, fail });
  }

  /** Reserves `bytes` (always granted) and returns the idempotent release. */
  reserve(bytes: number): () => void {
    this.#used += bytes;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#used -= bytes;
      this.#scheduleDrain();
    };
  }

  /** Reserves `bytes` (always granted) without a release closure: the caller calls {@link release} once. */
  take(bytes: number): void {
    this.#used += bytes;
  }

  /** Gives back `bytes` taken with {@link take} (exactly once per take). */
  release(bytes: number): void {
    this.#used -= bytes;
    this.#scheduleDrain();
  }

  /** Resolves once a record sent now would be admitted at once. */
  whenAvailable(): Promise<void> {
    if (this.hasRoom) return Promise.resolve();
    return new Promise((resolve) => this.#spaceWaiters.push(resolve));
  }

  /** Fails every parked record with `error` (abort, close, fatal error). */
  failParked(error: Error): void {
    const parked = this.#parked.slice(this.#head);
    this.#parked = [];
    this.#head = 0;
    for (const p of parked) p.fail(error);
    this.#wakeSpaceWaiters();
  }

  /** Admits parked records on a microtask (never inside a caller's settle loop). */
  #scheduleDrain(): void {
    if (this.#drainScheduled) return;
    this.#drainScheduled = true;
    queueMicrotask(() => {
      this.#drainScheduled = false;
      // 1. admit parked records in send order while there is room (each admission reserves synchronously)
      while (this.#used < this.limit && this.#head < this.#parked.length) {
        const next = this.#parked[this.#head++] as Parked;
        next.admit();
      }
      // 2. compact the queue once it is drained (or its consumed head is large)
      if (this.#head === this.#parked.length) {
        this.#parked = [];
        this.#head = 0;
      } else if (this.#head > 4096) {
        this.#parked = this.#parked.slice(this.#head);
        this.#head = 0;
      }
      // 3. wake callers waiting for room
      this.#wakeSpaceWaiters();
    });
  }

  #wakeSpaceWaiters(): void {
    if (!this.hasRoom || this.#spaceWaiters.length === 0) return;
    const waiters = this.#spaceWaiters;
    this.#spaceWaiters = [];
    for (const w of waiters) w();
  }
}
