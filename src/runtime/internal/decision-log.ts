/**
 * The last exception-handler decisions of one app (a ring buffer), and the
 * dead-letter records they asked for in total: what the live UI shows. Fed by
 * `observeHandlerDecisions` on the app's three handler objects, so it costs
 * nothing per record, only per handler call.
 */
import { errorKindOf, StreamsError } from '../../errors.js';
import { observeHandlerDecisions, type HandlerDecision } from '../../handlers/invoke.js';
import type { UiHandlerDecision } from '../../ui/types.js';

/** How many decisions are kept by default. */
export const DECISIONS_KEPT = 50;

/** The ring buffer; see the module comment. */
export class DecisionLog {
  readonly #ring: Array<UiHandlerDecision | undefined>;
  #next = 0;
  #count = 0;
  /** Dead-letter records the handlers answered with (CONTINUE answers only: a FAIL aborts them). */
  deadLettered = 0;
  readonly #stops: Array<() => void> = [];

  constructor(readonly capacity = DECISIONS_KEPT) {
    this.#ring = new Array<UiHandlerDecision | undefined>(capacity);
  }

  /** Starts recording the calls of each of `handlers`. */
  observe(handlers: readonly object[]): void {
    for (const handler of new Set(handlers)) this.#stops.push(observeHandlerDecisions(handler, (d) => this.add(d)));
  }

  /** Stops recording. */
  stop(): void {
    for (const stop of this.#stops.splice(0)) stop();
  }

  /** Records one decision. */
  add(d: HandlerDecision): void {
    if (d.response === 'CONTINUE') this.deadLettered += d.deadLetters;
    const error = d.error;
    this.#ring[this.#next] = {
      at: Date.now(),
      slot: d.slot,
      handler: d.handler,
      taskId: d.context.taskId,
      topic: d.context.topic,
      partition: d.context.partition,
      offset: d.context.offset,
      node: d.context.processorNodeId,
      errorClass: error.name && error.name !== 'Error' ? error.name : error.constructor.name,
      ...(error instanceof StreamsError ? { errorCode: error.code } : {}),
      errorKind: errorKindOf(error),
      message: error.message,
      answer: d.response,
      deadLetters: d.deadLetters,
    };
    this.#next = (this.#next + 1) % this.capacity;
    this.#count = Math.min(this.#count + 1, this.capacity);
  }

  /** The kept decisions, oldest first. */
  list(): UiHandlerDecision[] {
    const out: UiHandlerDecision[] = [];
    const start = (this.#next - this.#count + this.capacity) % this.capacity;
    for (let i = 0; i < this.#count; i++) {
      const d = this.#ring[(start + i) % this.capacity];
      if (d) out.push(d);
    }
    return out;
  }
}
