/**
 * How records move through the nodes of a task: depth-first, as Kafka Streams
 * does, synchronously while every processor is synchronous. When a processor
 * (or punctuator) returns a promise, what a synchronous run would have done
 * after it is chained after it instead:
 *
 * 1. each node has a `tail`: its forwards still running; a forward while the
 *    tail is pending is chained after it (so children see records in order);
 * 2. a node is `busy` while its call runs or its promise is pending: only
 *    then may it forward (the task checks);
 * 3. a node's call settles when its promise and its tail settled; a throw or
 *    rejection goes to the processing handler after its tail settled.
 *
 * The synchronous path allocates no promise and no closure.
 */
import { Record } from '../record.js';
import { handled, isThenable, thenOrNow, type Pending } from './pending.js';
import type { PunctuationQueue, PunctuationSchedule } from './punctuation-queue.js';
import type { TaskNode } from './task-graph.js';
import { NO_RECORD, type TaskHandling } from './task-handling.js';
import { defined } from '../../internal/defined.js';

/** Runs nodes and punctuations of one task; see the module comment. */
export class NodeRunner {
  constructor(
    private readonly nodes: ReadonlyMap<string, TaskNode>,
    private readonly handling: TaskHandling,
  ) {}

  /** Delivers `record` to `children` on behalf of `scope` (the forwarding node), step 1. */
  forwardTo(scope: TaskNode, children: readonly TaskNode[], record: Record<unknown, unknown>): void {
    for (const child of children) {
      if (scope.tail !== undefined) {
        scope.tail = handled(scope.tail.then(() => this.deliver(child, record)));
        continue;
      }
      const pending = this.deliver(child, record);
      if (pending !== undefined) scope.tail = pending;
    }
  }

  /** Fires the schedules of `queue` due at `now`, earliest first, each after the previous one settled. */
  runDue(queue: PunctuationQueue, now: number): Pending {
    for (let next = queue.takeDue(now); next !== undefined; next = queue.takeDue(now)) {
      const pending = this.punctuate(next, now);
      if (pending !== undefined) return handled(pending.then(() => this.runDue(queue, now)));
    }
    return undefined;
  }

  private deliver(child: TaskNode, record: Record<unknown, unknown>): Pending {
    child.processed++;
    if (child.def.kind === 'sink') {
      this.handling.sink(child.def, record);
      return undefined;
    }
    const processor = defined(child.processor, `processor of node ${child.def.name}`);
    // As Kafka's ProcessorContextImpl.forward: while the child runs, the current record's timestamp is the
    // forwarded record's (stores below stamp their writes with it: a cached delete, a changelog record).
    const state = this.handling;
    const saved = state.current;
    if (saved === NO_RECORD || saved.timestamp === record.timestamp) return this.runAs(child, processor.process, processor, record, record);
    state.current = { ...saved, timestamp: record.timestamp };
    try {
      return this.runAs(child, processor.process, processor, record, record);
    } finally {
      state.current = saved;
    }
  }

  /**
   * Runs `fn.call(self, arg)` as the work of `node` (steps 2 and 3); `failed`
   * is the record handed to the processing handler on a throw or rejection.
   */
  private runAs<A>(node: TaskNode, fn: (arg: A) => unknown, self: unknown, arg: A, failed: Record<unknown, unknown>): Pending {
    node.busy = true;
    node.tail = undefined;
    let result: unknown;
    try {
      result = fn.call(self, arg);
    } catch (error) {
      node.busy = false;
      return thenOrNow(node.tail, () => this.handling.onNodeError(node.def.name, failed, error));
    }
    if (!isThenable(result)) {
      node.busy = false;
      return node.tail;
    }
    return handled(
      Promise.resolve(result).then(
        () => {
          node.busy = false;
          return node.tail;
        },
        (error: unknown) => {
          node.busy = false;
          return thenOrNow(node.tail, () => this.handling.onNodeError(node.def.name, failed, error));
        },
      ),
    );
  }

  /** One punctuation, as the work of its node; the current record and its skipped flag are restored after it. */
  private punctuate(schedule: PunctuationSchedule, timestamp: number): Pending {
    const node = defined(this.nodes.get(schedule.nodeName), `node ${schedule.nodeName}`);
    const state = this.handling;
    const saved = state.current;
    const savedSkipped = state.skipped; // a punctuation failure does not make the current record skipped
    state.current = { ...NO_RECORD, timestamp };
    state.inPunctuation = true;
    const restore = (): void => {
      state.inPunctuation = false;
      state.current = saved;
      state.skipped = savedSkipped;
    };
    let pending: Pending;
    try {
      pending = this.runAs(node, schedule.punctuator, undefined, timestamp, new Record(null, null, timestamp));
    } finally {
      if (pending === undefined) restore();
    }
    return pending === undefined ? undefined : handled(pending.finally(restore));
  }
}
