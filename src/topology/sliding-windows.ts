/**
 * Sliding windows (Kafka's `SlidingWindows`): to be built by the sliding
 * windows work (issue "Windows, time and suppression").
 */

/** Windows of a fixed time difference sliding with the records. */
export class SlidingWindows {
  /** @internal */
  protected constructor() {}
}
