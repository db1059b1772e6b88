/**
 * How the TopologyTestDriver runs work (a piped record, a wall-clock advance):
 *
 * 1. run the work, then process the records it wrote to source topics (the
 *    repartition hop, or a topology feeding its own input), oldest first;
 * 2. synchronously while every processor is synchronous; once a task returns
 *    a promise (an async processor), the rest continues when it settles, and
 *    later work queues behind it in call order;
 * 3. a failure drops the records written back by the failed work and, for
 *    queued async work, everything queued after it; it is thrown by the call
 *    (synchronous) or kept until {@link DriverRunner.settle} (or the next
 *    driver call) reports it: it never vanishes;
 * 4. records written back are bounded: a chain of more than
 *    {@link MAX_FEEDBACK_DEPTH} hops or more than {@link MAX_RECORDS_PER_RUN}
 *    records for one piece of work is a topology that feeds its own input,
 *    reported naming the topic and sink instead of looping forever.
 */
import { IllegalStateError, TopologyError } from '../../errors.js';
import type { CapturedRecord } from './driver-collector.js';

/** Work still running, or `undefined` when it completed synchronously. */
export type Pending = Promise<void> | undefined;

/** Hops a record may make back into a source topic before the driver calls it a loop. */
export const MAX_FEEDBACK_DEPTH = 100;
/** Records written back to source topics that one piece of work may cause. */
export const MAX_RECORDS_PER_RUN = 100_000;

interface WrittenBack {
  record: CapturedRecord;
  sink: string;
  depth: number;
}

/** Processes one record of a source topic; returns a promise when an async processor is still running. */
export type ProcessOne = (record: CapturedRecord) => Pending;

/** The driver's run loop; see the module comment. */
export class DriverRunner {
  private readonly writtenBack: WrittenBack[] = [];
  private depth = 0;
  private count = 0;
  private inFlight: Promise<void> | undefined;
  private failure: { error: unknown } | undefined;

  constructor(private readonly processOne: ProcessOne) {}

  /** True while async work is pending. */
  get busy(): boolean {
    return this.inFlight !== undefined;
  }

  /** A record a sink wrote to a topic the topology reads: processed after the current one. */
  writeBack(record: CapturedRecord, sink: string): void {
    this.writtenBack.push({ record, sink, depth: this.depth + 1 });
  }

  /** Runs `work` (step 2): now, or queued behind pending async work. Throws a synchronous failure. */
  schedule(work: () => Pending): void {
    this.reportFailure();
    if (this.inFlight !== undefined) {
      this.inFlight = this.track(this.inFlight.then(() => (this.failure === undefined ? this.run(work) : undefined)));
      return;
    }
    const pending = this.run(work);
    if (pending !== undefined) this.inFlight = this.track(pending);
  }

  /** Waits until no async work is pending; rejects with the first failure since the last report. */
  async settle(): Promise<void> {
    while (this.inFlight !== undefined) await this.inFlight;
    this.reportFailure();
  }

  /** For reads: throws when async work is pending (its results are not complete) or a failure is unreported. */
  requireSettled(op: string): void {
    if (this.inFlight !== undefined) {
      throw new IllegalStateError(
        `TopologyTestDriver cannot ${op} while records are still being processed by async processors; await driver.settle() first`,
      );
    }
    this.reportFailure();
  }

  /** Throws the unreported failure of earlier async work, once. */
  reportFailure(): void {
    const failure = this.failure;
    this.failure = undefined;
    if (failure !== undefined) throw failure.error;
  }

  private track(pending: Promise<void>): Promise<void> {
    const tracked: Promise<void> = pending.then(
      () => {
        if (this.inFlight === tracked) this.inFlight = undefined;
      },
      (error: unknown) => {
        this.failure ??= { error };
        if (this.inFlight === tracked) this.inFlight = undefined;
      },
    );
    return tracked;
  }

  /** Step 1 for one piece of work; on failure the records it wrote back are dropped (step 3). */
  private run(work: () => Pending): Pending {
    this.count = 0;
    this.depth = 0;
    let pending: Pending;
    try {
      const first = work();
      pending = first === undefined ? this.drain() : first.then(() => this.drain());
    } catch (error) {
      this.writtenBack.length = 0;
      throw error;
    }
    return pending?.catch((error: unknown) => {
      this.writtenBack.length = 0;
      throw error;
    });
  }

  private drain(): Pending {
    for (let next = this.writtenBack.shift(); next !== undefined; next = this.writtenBack.shift()) {
      this.count++;
      if (next.depth > MAX_FEEDBACK_DEPTH || this.count > MAX_RECORDS_PER_RUN) throw feedbackLoop(next, this.count);
      this.depth = next.depth;
      const pending = this.processOne(next.record);
      if (pending !== undefined) return pending.then(() => this.drain());
    }
    return undefined;
  }
}

function feedbackLoop(next: WrittenBack, count: number): TopologyError {
  const why =
    next.depth > MAX_FEEDBACK_DEPTH
      ? `a record came back ${next.depth} times in a row`
      : `one piped record caused more than ${MAX_RECORDS_PER_RUN} records (${count} so far)`;
  return new TopologyError(
    `The topology feeds its own input: sink '${next.sink}' writes to topic '${next.record.topic}', which the topology reads, ` +
      `and ${why}. On a cluster this would loop forever. Write to another topic, or stop the loop (e.g. with a filter) before the sink.`,
  );
}
