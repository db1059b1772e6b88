/**
 * The async nodes of one task (see `async-processor.ts`): the task forwards
 * their finished calls' outputs only at safe points, between records, so
 * every output goes out as its own input record's (its topic, partition,
 * offset, timestamp and headers), in the same transaction as the rest of the
 * task's work:
 *
 * 1. {@link AsyncNodes.emit}: before the task takes a record, on every
 *    executor tick (`pumpAsync`), and in a job the executor queues as soon as
 *    a call settles ({@link AsyncNodes.onSettled}), each node's finished calls are forwarded in
 *    finishing order (per key: input order); a failed call goes to the
 *    processing exception handler instead (CONTINUE drops only that record);
 * 2. {@link AsyncNodes.drain}: before a commit (and a clean close) the task
 *    waits until no call is in flight and every output is forwarded, at most
 *    `asyncCallTimeoutMs`; calls still running then fail with
 *    `ASYNC_CALL_TIMEOUT` (processing errors), so no offset passes an
 *    unfinished record;
 * 3. {@link AsyncNodes.close}: a closing task abandons what is in flight
 *    (not committed: those records run again after the restart).
 */
import { StreamsError } from '../../errors.js';
import { defined } from '../../internal/defined.js';
import type { AsyncNodeStats } from '../task-contract.js';
import { AsyncCalls, type AsyncCall } from './async-calls.js';
import { AsyncProcessor } from './async-processor.js';
import type { NodeRunner } from './node-runner.js';
import { handled, type Pending } from './pending.js';
import type { TaskNode } from './task-graph.js';
import type { TaskHandling } from './task-handling.js';

interface AsyncNode {
  readonly node: TaskNode;
  readonly calls: AsyncCalls;
}

/** The async nodes of a task; see the module comment. */
export class AsyncNodes {
  private readonly list: AsyncNode[] = [];

  constructor(
    ordered: readonly TaskNode[],
    private readonly handling: TaskHandling,
    private readonly runner: NodeRunner,
    private readonly timeoutMs: number,
    clock: () => number,
    private readonly onSkipped: (() => void) | undefined,
  ) {
    for (const node of ordered) {
      if (!(node.processor instanceof AsyncProcessor)) continue;
      const calls = node.processor.attach({ nodeName: node.def.name, timeoutMs, clock, current: () => handling.current });
      this.list.push({ node, calls });
    }
  }

  /** True when the task has async nodes. */
  get any(): boolean {
    return this.list.length > 0;
  }

  /**
   * Calls `listener` whenever a call of any node settled (the executor queues a
   * pump, coalesced); it runs inside the promise callback and must not forward.
   */
  onSettled(listener: (() => void) | undefined): void {
    for (const { calls } of this.list) calls.onFinished = listener;
  }

  /** True while a call is in flight or an output waits to be forwarded. */
  get busy(): boolean {
    return this.list.some((n) => n.calls.inFlight > 0 || n.calls.finished.length > 0);
  }

  /** Step 1: forwards every finished call, parents first; a promise when a child went async. */
  emit(): Pending {
    for (const entry of this.list) {
      for (let call = entry.calls.finished.shift(); call !== undefined; call = entry.calls.finished.shift()) {
        const pending = this.emitOne(entry.node, call);
        if (pending !== undefined) return handled(pending.then(() => this.emit()));
      }
    }
    return undefined;
  }

  /** Step 2. */
  async drain(): Promise<void> {
    if (!this.busy) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const expired = new Promise<'expired'>((resolve) => {
      timer = setTimeout(() => resolve('expired'), this.timeoutMs);
    });
    try {
      for (;;) {
        const emitted = this.emit();
        if (emitted !== undefined) await emitted;
        const waiting = this.list.map((n) => n.calls.whenSettled()).filter((p) => p !== undefined);
        if (waiting.length === 0) {
          if (!this.busy) return;
          continue;
        }
        const outcome = await Promise.race([Promise.all(waiting).then(() => 'settled' as const), expired]);
        if (outcome === 'expired') for (const n of this.list) n.calls.failInFlight(() => this.drainTimeout(n.node.def.name));
      }
    } finally {
      clearTimeout(timer);
    }
  }

  /** Step 3. */
  close(): void {
    for (const n of this.list) n.calls.close();
  }

  /** The metrics of every async node, by node name. */
  stats(into: Map<string, AsyncNodeStats>): void {
    for (const { node, calls } of this.list) {
      const c = calls.counters;
      const prev = into.get(node.def.name);
      into.set(node.def.name, {
        inFlight: (prev?.inFlight ?? 0) + calls.inFlight,
        calls: (prev?.calls ?? 0) + c.calls,
        failed: (prev?.failed ?? 0) + c.failed,
        totalLatencyMs: (prev?.totalLatencyMs ?? 0) + c.totalLatencyMs,
        maxLatencyMs: Math.max(prev?.maxLatencyMs ?? 0, c.maxLatencyMs),
        totalQueueMs: (prev?.totalQueueMs ?? 0) + c.totalQueueMs,
      });
    }
  }

  /**
   * Forwards the outputs of `call` as its input record's (or hands its error
   * to the processing handler); the task's current record is restored after.
   */
  private emitOne(node: TaskNode, call: AsyncCall): Pending {
    const state = this.handling;
    const saved = state.current;
    const savedSkipped = state.skipped;
    state.current = call.context;
    node.busy = true;
    node.tail = undefined;
    const restore = (): void => {
      state.current = saved;
      state.skipped = savedSkipped;
    };
    let pending: Pending;
    try {
      if (call.error !== undefined) {
        state.skipped = false;
        state.onNodeError(node.def.name, call.record, call.error);
        if (state.skipped) this.onSkipped?.();
      } else {
        for (const { record, childName } of call.outputs) {
          const children = childName === undefined ? node.children : [defined(node.children.find((c) => c.def.name === childName), `child ${childName} of ${node.def.name}`)];
          this.runner.forwardTo(node, children, record);
        }
      }
      pending = node.tail as Pending; // set by forwardTo when a child went async
    } finally {
      node.busy = false;
      if (pending === undefined) restore();
    }
    return pending === undefined ? undefined : handled(pending.finally(restore));
  }

  private drainTimeout(nodeName: string): StreamsError {
    return new StreamsError(
      `The async calls of processor '${nodeName}' did not finish within asyncCallTimeoutMs (${this.timeoutMs} ms) while the task drained ` +
        'them before a commit; make the calls time out sooner, or raise asyncCallTimeoutMs',
      { code: 'ASYNC_CALL_TIMEOUT' },
    );
  }
}
