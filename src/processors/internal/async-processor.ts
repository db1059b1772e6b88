/**
 * The processor of an async node (`asyncProcessor`, `KStream.mapValuesAsync`,
 * ...): wraps the user's processor so that its `process()` returns as soon as
 * the record is admitted (`async-calls.ts`) and its work runs concurrently
 * with other keys' work. What the user's processor forwards while its call
 * runs is kept on the call (found through an AsyncLocalStorage, so a context
 * kept from `init` works across `await`s) and forwarded by the task later,
 * as the input record's output (`async-nodes.ts`).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Cancellable, Processor, ProcessorContext, PunctuationType, Punctuator, RecordMetadata } from '../processor.js';
import type { Record } from '../record.js';
import type { StateStore } from '../../state/state-store.js';
import type { TaskId } from '../task-contract.js';
import { AsyncCalls, type AsyncCall } from './async-calls.js';
import type { CurrentRecord } from './task-handling.js';
import { defined } from '../../internal/defined.js';

/** What the task gives an async node when it creates it. */
export interface AsyncHost {
  readonly nodeName: string;
  readonly timeoutMs: number;
  readonly clock: () => number;
  /** The context of the record being processed (the input of the call being admitted). */
  readonly current: () => CurrentRecord;
}

/** The processor of an async node; see the module comment. */
export class AsyncProcessor implements Processor<unknown, unknown, unknown, unknown> {
  private readonly scope = new AsyncLocalStorage<AsyncCall>();
  private host: AsyncHost | undefined;
  private callsOf: AsyncCalls | undefined;

  constructor(
    private readonly inner: Processor<unknown, unknown, unknown, unknown>,
    readonly concurrency: number,
  ) {}

  /** Called by the task once, before `init`. */
  attach(host: AsyncHost): AsyncCalls {
    this.host = host;
    this.callsOf = new AsyncCalls({
      nodeName: host.nodeName,
      concurrency: this.concurrency,
      timeoutMs: host.timeoutMs,
      clock: host.clock,
      invoke: (call) => this.scope.run(call, () => this.inner.process(call.record)),
    });
    return this.callsOf;
  }

  get calls(): AsyncCalls {
    return defined(this.callsOf, 'the calls of an async processor (attach() first)');
  }

  init(context: ProcessorContext<unknown, unknown>): void {
    this.inner.init?.(new CallContext(context, this.scope));
  }

  /** Admits the record: returns at once, or (the in-flight bound reached) once a call finished. */
  process(record: Record<unknown, unknown>): void | Promise<void> {
    const host = defined(this.host, 'the host of an async processor');
    return this.calls.admit(record, { ...host.current() });
  }

  close(): void {
    this.callsOf?.close();
    this.inner.close?.();
  }
}

/**
 * The context the user's processor sees: inside a call, `forward` keeps the
 * output on the call (dropped when the call already finished: timed out) and
 * `recordMetadata` is the call's input; outside (init, punctuators) it is
 * the node's context.
 */
class CallContext implements ProcessorContext<unknown, unknown> {
  constructor(
    private readonly context: ProcessorContext<unknown, unknown>,
    private readonly scope: AsyncLocalStorage<AsyncCall>,
  ) {}

  get taskId(): TaskId {
    return this.context.taskId;
  }

  get processorName(): string {
    return this.context.processorName;
  }

  forward<K, V>(record: Record<K, V>, childName?: string): void {
    const call = this.scope.getStore();
    if (call === undefined) return this.context.forward(record, childName);
    if (!call.done) call.outputs.push({ record: record as Record<unknown, unknown>, childName });
  }

  schedule(intervalMs: number, type: PunctuationType, punctuator: Punctuator): Cancellable {
    return this.context.schedule(intervalMs, type, punctuator);
  }

  getStateStore<S extends StateStore = StateStore>(name: string): S {
    return this.context.getStateStore<S>(name);
  }

  recordMetadata(): RecordMetadata | null {
    const call = this.scope.getStore();
    if (call === undefined) return this.context.recordMetadata();
    const { topic, partition, offset } = call.context;
    return { topic, partition, offset };
  }

  commit(): void {
    this.context.commit();
  }

  currentStreamTimeMs(): number {
    return this.context.currentStreamTimeMs();
  }

  currentSystemTimeMs(): number {
    return this.context.currentSystemTimeMs();
  }
}
