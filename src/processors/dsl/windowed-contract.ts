/**
 * What suppression needs to know of a windowed aggregation (Kafka's
 * `GraphGraceSearchUtil`): `suppress(Suppressed.untilWindowCloses(...))`
 * walks up from the suppressed table to the windowed aggregation that feeds
 * it and holds each window until stream time passes the window's end plus
 * the grace this returns.
 */

/** Implemented by the processor suppliers of windowed aggregations (time, sliding, session). */
export interface WindowedAggregateSupplier {
  /**
   * Milliseconds after a window's end until it closes: the grace period for
   * time and sliding windows, the grace period plus the inactivity gap for
   * session windows (Kafka's `findAndVerifyWindowGrace`).
   */
  windowCloseDelayMs(): number;
}

/** True when `supplier` is a windowed aggregation's supplier. */
export function isWindowedAggregateSupplier(supplier: unknown): supplier is WindowedAggregateSupplier {
  return typeof supplier === 'object' && supplier !== null && typeof (supplier as Partial<WindowedAggregateSupplier>).windowCloseDelayMs === 'function';
}
