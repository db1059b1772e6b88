/**
 * The calls of one async processor node in one task (`asyncProcessor`,
 * `KStream.mapValuesAsync`, ...): which may run, which wait, which finished.
 *
 * 1. a record is admitted while fewer than `concurrency` calls are in flight
 *    (running, or waiting behind an earlier call of the same key); otherwise
 *    {@link AsyncCalls.admit} returns a promise that admits it once a call
 *    finished (backpressure: the task takes no input meanwhile);
 * 2. per key, calls run one after another in admission order: a call starts
 *    when it is the first of its key;
 * 3. a call finishes when its promise settles, or fails with
 *    `ASYNC_CALL_TIMEOUT` after `timeoutMs`; its key's next call starts, and
 *    it joins {@link AsyncCalls.finished}, in finishing order (so per key in
 *    input order), where the task takes it to forward its outputs
 *    (`async-emit.ts`) at its next safe point.
 *
 * Nothing here forwards or touches the task: only the task does, between records.
 */
import { StreamsError } from '../../errors.js';
import type { Record } from '../record.js';
import type { CurrentRecord } from './task-handling.js';

/** One output of a call: what it forwarded, to which child (all when undefined). */
export interface AsyncOutput {
  record: Record<unknown, unknown>;
  childName: string | undefined;
}

/** One admitted record and the state of its call. */
export interface AsyncCall {
  readonly record: Record<unknown, unknown>;
  /** The input record's context: its outputs are forwarded as that record's. */
  readonly context: CurrentRecord;
  readonly keyId: unknown;
  readonly outputs: AsyncOutput[];
  admittedAt: number;
  startedAt: number;
  finishedAt: number;
  /** True once the call finished (settled, timed out or was abandoned): later forwards of it are dropped. */
  done: boolean;
  /** Set when the call failed: its outputs are dropped and this goes to the processing handler. */
  error: unknown;
  timer: ReturnType<typeof setTimeout> | undefined;
}

/** What the calls of a node do and how they are bounded. */
export interface AsyncCallsOptions {
  readonly nodeName: string;
  readonly concurrency: number;
  readonly timeoutMs: number;
  readonly clock: () => number;
  /** Starts the user's work for `call` (outputs it forwards land in `call.outputs`). */
  readonly invoke: (call: AsyncCall) => unknown;
}

/** Counters for metrics (see `AsyncNodeStats` in task-contract.ts). */
export interface AsyncCallCounters {
  calls: number;
  failed: number;
  totalLatencyMs: number;
  maxLatencyMs: number;
  totalQueueMs: number;
}

/** The identity of a key for per-key ordering: primitives as they are, buffers and objects by content. */
export function keyIdentity(key: unknown): unknown {
  if (key === null || key === undefined || typeof key !== 'object') return key;
  if (Buffer.isBuffer(key)) return `\u0000buf:${key.toString('base64')}`;
  try {
    return `\u0000json:${JSON.stringify(key)}`;
  } catch {
    return key; // not serialisable (a cycle): by reference
  }
}

/** The calls of one node; see the module comment. */
export class AsyncCalls {
  /** Calls in flight per key; the first of each is running. */
  private readonly byKey = new Map<unknown, AsyncCall[]>();
  private admitWaiters: Array<() => void> = [];
  private idleWaiters: Array<() => void> = [];
  private closed = false;
  /** Admitted and not finished (running or waiting behind their key). */
  inFlight = 0;
  running = 0;
  /** Finished calls whose outputs the task has not forwarded yet, in finishing order. */
  readonly finished: AsyncCall[] = [];
  readonly counters: AsyncCallCounters = { calls: 0, failed: 0, totalLatencyMs: 0, maxLatencyMs: 0, totalQueueMs: 0 };
  /** Called after a call finished (the task may schedule a forward of the outputs). */
  onFinished: (() => void) | undefined;

  constructor(private readonly options: AsyncCallsOptions) {}

  /** Step 1: admits `record` now (`undefined`) or once a call finished (a promise). */
  admit(record: Record<unknown, unknown>, context: CurrentRecord): Promise<void> | undefined {
    if (this.inFlight < this.options.concurrency) {
      this.enqueue(record, context);
      return undefined;
    }
    return new Promise<void>((resolve) => {
      this.admitWaiters.push(() => {
        this.enqueue(record, context);
        resolve();
      });
    });
  }

  /** Resolves once nothing is in flight (finished calls may still wait to be forwarded). */
  whenSettled(): Promise<void> | undefined {
    if (this.inFlight === 0) return undefined;
    return new Promise<void>((resolve) => this.idleWaiters.push(resolve));
  }

  /** Fails every call in flight with `error` (the drain's bound ran out), per key in input order. */
  failInFlight(error: () => unknown): void {
    const queues = [...this.byKey.values()];
    this.byKey.clear();
    for (const queue of queues) for (const call of queue) this.finish(call, error(), false);
  }

  /** Abandons everything (the task closes): nothing in flight or finished is forwarded. */
  close(): void {
    this.closed = true;
    for (const queue of this.byKey.values()) for (const call of queue) this.abandon(call);
    this.byKey.clear();
    for (const call of this.finished) this.abandon(call);
    this.finished.length = 0;
    this.inFlight = 0;
    this.running = 0;
    this.wake();
  }

  private enqueue(record: Record<unknown, unknown>, context: CurrentRecord): void {
    if (this.closed) return;
    const now = this.options.clock();
    const keyId = keyIdentity(record.key);
    const call: AsyncCall = { record, context, keyId, outputs: [], admittedAt: now, startedAt: -1, finishedAt: -1, done: false, error: undefined, timer: undefined };
    this.inFlight++;
    const queue = this.byKey.get(keyId);
    if (queue !== undefined) {
      queue.push(call); // step 2: waits for the calls of its key before it
      return;
    }
    this.byKey.set(keyId, [call]);
    this.start(call);
  }

  private start(call: AsyncCall): void {
    call.startedAt = this.options.clock();
    this.running++;
    // 3. the bound of the call
    call.timer = setTimeout(() => this.finish(call, this.timeoutError(call), true), this.options.timeoutMs);
    call.timer.unref?.();
    let result: unknown;
    try {
      result = this.options.invoke(call);
    } catch (error) {
      this.finish(call, error ?? new Error('async call threw'), true);
      return;
    }
    Promise.resolve(result).then(
      () => this.finish(call, undefined, true),
      (error: unknown) => this.finish(call, error ?? new Error('async call rejected'), true),
    );
  }

  /** Step 3; `next`: start the next call of the key (not when the drain fails them all). */
  private finish(call: AsyncCall, error: unknown, next: boolean): void {
    if (call.done || this.closed) return;
    call.done = true;
    call.error = error;
    call.finishedAt = this.options.clock();
    if (call.timer !== undefined) clearTimeout(call.timer);
    call.timer = undefined;
    if (call.startedAt >= 0) this.running--;
    this.inFlight--;
    this.count(call);
    this.finished.push(call);
    if (next) {
      const queue = this.byKey.get(call.keyId);
      queue?.shift();
      const following = queue?.[0];
      if (following === undefined) this.byKey.delete(call.keyId);
      else this.start(following);
    }
    this.wake();
    this.onFinished?.();
  }

  private count(call: AsyncCall): void {
    const c = this.counters;
    c.calls++;
    if (call.error !== undefined) c.failed++;
    const started = call.startedAt >= 0 ? call.startedAt : call.finishedAt;
    const latency = call.finishedAt - started;
    c.totalLatencyMs += latency;
    c.maxLatencyMs = Math.max(c.maxLatencyMs, latency);
    c.totalQueueMs += started - call.admittedAt;
  }

  private wake(): void {
    while (this.admitWaiters.length > 0 && (this.closed || this.inFlight < this.options.concurrency)) this.admitWaiters.shift()?.();
    if (this.inFlight === 0 && this.idleWaiters.length > 0) {
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      for (const w of waiters) w();
    }
  }

  private abandon(call: AsyncCall): void {
    call.done = true;
    if (call.timer !== undefined) clearTimeout(call.timer);
    call.timer = undefined;
  }

  private timeoutError(call: AsyncCall): StreamsError {
    const { topic, partition, offset } = call.context;
    return new StreamsError(
      `The async call of processor '${this.options.nodeName}' for record ${topic}-${partition}@${offset} did not settle within ` +
        `asyncCallTimeoutMs (${this.options.timeoutMs} ms); make the call time out sooner, or raise 'asyncCallTimeoutMs'`,
      { code: 'ASYNC_CALL_TIMEOUT' },
    );
  }
}
