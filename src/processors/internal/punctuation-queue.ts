/**
 * Punctuation schedules of one task and one time kind, as Kafka Streams'
 * PunctuationQueue: due schedules fire in time order; a schedule that missed
 * several intervals fires once and skips to the next interval after `now`.
 */
import type { Cancellable, Punctuator } from '../processor.js';

/** One scheduled punctuation. */
export interface PunctuationSchedule {
  readonly nodeName: string;
  readonly intervalMs: number;
  readonly punctuator: Punctuator;
  /** Next time it is due. */
  dueAt: number;
  cancelled: boolean;
}

/** The schedules of one time kind. */
export class PunctuationQueue {
  private readonly schedules: PunctuationSchedule[] = [];

  /** Adds a schedule first due at `firstDueAt`. */
  schedule(nodeName: string, firstDueAt: number, intervalMs: number, punctuator: Punctuator): Cancellable {
    const entry: PunctuationSchedule = { nodeName, intervalMs, punctuator, dueAt: firstDueAt, cancelled: false };
    this.schedules.push(entry);
    return {
      cancel: () => {
        entry.cancelled = true;
        const i = this.schedules.indexOf(entry);
        if (i >= 0) this.schedules.splice(i, 1);
      },
    };
  }

  /**
   * The earliest schedule due at `now`, already moved to its next interval
   * after `now` (a schedule that missed several fires once); `undefined` when
   * none is due. The caller fires it, then asks again.
   */
  takeDue(now: number): PunctuationSchedule | undefined {
    let next: PunctuationSchedule | undefined;
    for (const s of this.schedules) {
      if (s.dueAt <= now && (next === undefined || s.dueAt < next.dueAt)) next = s;
    }
    if (next === undefined) return undefined;
    const missed = Math.floor((now - next.dueAt) / next.intervalMs);
    next.dueAt += (missed + 1) * next.intervalMs;
    return next;
  }

  clear(): void {
    this.schedules.length = 0;
  }
}
